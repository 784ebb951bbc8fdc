package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// TestFieldConversion: how each field converts, each way: the kind of
// conversion, and for a function the one it calls (a hand-written Convert_,
// or the generated Convert_ of another spoke package's pair).
func TestFieldConversion(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, field    string
		toHub, toSpoke model.ConvKind
		callee         string // ConvFunc's function, to the hub
		manual         bool   // to the hub needs a hand-written function
	}{
		{"one basic type assigns", "FieldSpec.Same", model.ConvAssign, model.ConvAssign, "", false},
		{"two enums of one kind cast", "FieldSpec.Color", model.ConvCast, model.ConvCast, "", false},
		{"integers of two sizes cast, guarded", "FieldSpec.Wide", model.ConvCast, model.ConvCast, "", false},
		{"a pointer becomes a value and back", "FieldSpec.Ptr", model.ConvDeref, model.ConvAddr, "", false},
		{"a slice converts by element", "FieldSpec.Tags", model.ConvSlice, model.ConvSlice, "", false},
		{"a map converts by entry", "FieldSpec.ByName", model.ConvMap, model.ConvMap, "", false},
		{"an array converts by element", "FieldSpec.Pair", model.ConvArray, model.ConvArray, "", false},
		{"a shared type with DeepCopyInto copies through it", "FieldSpec.Since", model.ConvDeepCopy, model.ConvDeepCopy, "", false},
		{"paired structs convert through their pair", "FieldSpec.Item", model.ConvPair, model.ConvPair, "", false},
		{"a copy of another package's struct is read as it", "FieldSpec.Window", model.ConvSameLayout, model.ConvSameLayout, "", false},
		{"another spoke package's pair converts through its generated function", "FieldSpec.Ref", model.ConvFunc, model.ConvFunc, "Convert_v3_Ref_To_v1_Ref", false},
		{"a hand-written Convert_ between the types takes over", "FieldSpec.Timeout", model.ConvFunc, model.ConvFunc, "Convert_string_To_v1_Duration", false},
		{"types of no mechanical conversion need a function", "FallbackSpec.Mismatch", model.ConvManual, model.ConvManual, "", true},
		{"integers that may not fit, in a list, need a function", "FallbackSpec.Counts", model.ConvSlice, model.ConvSlice, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mp := v2Mapping(t, m, tc.field)
			toHub, toSpoke := mp.ToHub.Conv, mp.ToSpoke.Conv
			if toHub.Kind != tc.toHub || toSpoke.Kind != tc.toSpoke {
				t.Errorf("%s: %s converts as %s to the hub and %s back, want %s and %s", tc.name, tc.field, convKinds[toHub.Kind], convKinds[toSpoke.Kind], convKinds[tc.toHub], convKinds[tc.toSpoke])
				return
			}
			if manual, _ := toHub.Manual(); manual != tc.manual {
				t.Errorf("%s: %s needs a hand-written function to the hub: %v, want %v", tc.name, tc.field, manual, tc.manual)
			}
			if tc.callee != "" {
				if _, name := toHub.Callee(); name != tc.callee {
					t.Errorf("%s: %s calls %s, want %s", tc.name, tc.field, name, tc.callee)
				}
			}
		})
	}
}
