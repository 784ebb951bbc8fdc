package v1beta1

import (
	"context"

	"github.com/crdforge/crdforge/testdata/foreignconvert/api/convertible"
)

// ConvertTo is knative's: v1 does the work.
func (in *Pool) ConvertTo(ctx context.Context, to convertible.Convertible) error {
	return to.ConvertFrom(ctx, in)
}

// ConvertFrom is knative's: v1 does the work.
func (in *Pool) ConvertFrom(ctx context.Context, from convertible.Convertible) error {
	return from.ConvertTo(ctx, in)
}
