package v1beta1

import (
	"fmt"

	v1 "github.com/crdforge/crdforge/testdata/webhook/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

var sizes = []string{"", "small", "medium", "large"}

// Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec turns a size name into a number.
func Convert_v1beta1_WidgetSpec_To_v1_WidgetSpec(in *WidgetSpec, out *v1.WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_WidgetSpec_To_v1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	for i, name := range sizes {
		if name == in.Size {
			out.Size = int32(i)
			return nil
		}
	}
	return fmt.Errorf("unknown size %q", in.Size)
}

// Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec turns a size number into a name.
func Convert_v1_WidgetSpec_To_v1beta1_WidgetSpec(in *v1.WidgetSpec, out *WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1_WidgetSpec_To_v1beta1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	if in.Size < 0 || int(in.Size) >= len(sizes) {
		return fmt.Errorf("size %d has no name", in.Size)
	}
	out.Size = sizes[in.Size]
	return nil
}
