package v1

import (
	"context"

	"github.com/crdforge/crdforge/testdata/foreignconvert/api/convertible"
	"github.com/crdforge/crdforge/testdata/foreignconvert/api/v1beta1"
)

// ConvertTo converts v1 to v1beta1.
func (in *Pool) ConvertTo(_ context.Context, to convertible.Convertible) error {
	dst := to.(*v1beta1.Pool)
	dst.ObjectMeta = in.ObjectMeta
	dst.Spec.Size = in.Spec.Size
	return nil
}

// ConvertFrom converts v1beta1 to v1.
func (in *Pool) ConvertFrom(_ context.Context, from convertible.Convertible) error {
	src := from.(*v1beta1.Pool)
	in.ObjectMeta = src.ObjectMeta
	in.Spec.Size = src.Spec.Size
	return nil
}
