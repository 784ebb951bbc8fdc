// Package convertible declares a conversion interface of its own, as
// knative.dev/pkg/apis does: the same method names as controller-runtime's
// conversion.Convertible, with other parameters.
package convertible

import "context"

// Convertible converts between versions of a kind.
type Convertible interface {
	ConvertTo(ctx context.Context, to Convertible) error
	ConvertFrom(ctx context.Context, from Convertible) error
}
