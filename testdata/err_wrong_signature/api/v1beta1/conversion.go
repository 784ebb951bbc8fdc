package v1beta1

import (
	"strconv"

	v1 "github.com/crdforge/crdforge/testdata/err_wrong_signature/api/v1"
)

// Convert_v1beta1_Sprocket_To_v1_Sprocket forgets the conversion.Scope.
func Convert_v1beta1_Sprocket_To_v1_Sprocket(in *Sprocket, out *v1.Sprocket) error {
	n, err := strconv.Atoi(in.Size)
	out.Size = int32(n)
	return err
}

// Convert_v1_Sprocket_To_v1beta1_Sprocket swaps in and out.
func Convert_v1_Sprocket_To_v1beta1_Sprocket(out *Sprocket, in *v1.Sprocket, s any) error {
	out.Size = strconv.Itoa(int(in.Size))
	return nil
}
