package plan

import (
	"go/types"
	"math"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestIntRange: the range of values an integer field may hold, its Go
// type's narrowed by its schema's bounds, which narrowing compares between
// source and destination.
func TestIntRange(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name   string
		kind   types.BasicKind
		prop   apiextensionsv1.JSONSchemaProps
		lo, hi int64
		ok     bool
	}{
		{"an int8's", types.Int8, apiextensionsv1.JSONSchemaProps{}, math.MinInt8, math.MaxInt8, true},
		{"an int32's", types.Int32, apiextensionsv1.JSONSchemaProps{}, math.MinInt32, math.MaxInt32, true},
		{"an int's is an int64's", types.Int, apiextensionsv1.JSONSchemaProps{}, math.MinInt64, math.MaxInt64, true},
		{"a uint16's", types.Uint16, apiextensionsv1.JSONSchemaProps{}, 0, math.MaxUint16, true},
		{"a uint64's does not fit an int64", types.Uint64, apiextensionsv1.JSONSchemaProps{}, 0, 0, false},
		{"a minimum and a maximum", types.Int32, apiextensionsv1.JSONSchemaProps{Minimum: f(1), Maximum: f(10)}, 1, 10, true},
		{"exclusive bounds", types.Int32, apiextensionsv1.JSONSchemaProps{Minimum: f(1), Maximum: f(10), ExclusiveMinimum: true, ExclusiveMaximum: true}, 2, 9, true},
		{"fractional bounds round inward", types.Int32, apiextensionsv1.JSONSchemaProps{Minimum: f(1.5), Maximum: f(9.5)}, 2, 9, true},
		{"bounds beyond the type's are the type's", types.Int8, apiextensionsv1.JSONSchemaProps{Minimum: f(-1000), Maximum: f(1000)}, math.MinInt8, math.MaxInt8, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi, ok := intRange(types.Typ[tc.kind], tc.prop)
			if lo != tc.lo || hi != tc.hi || ok != tc.ok {
				t.Errorf("%s: %d to %d (%v), want %d to %d (%v)", tc.name, lo, hi, ok, tc.lo, tc.hi, tc.ok)
			}
		})
	}
}
