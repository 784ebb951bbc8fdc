package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// sameLayoutModel builds the model of the samelayout golden case: v1alpha1 keeps its
// own copies of package common's structs, which v1 holds.
var sameLayoutModel = modelOnce("../../testdata/samelayout")

// TestSameLayoutCopiesOfAnotherPackage checks which fields convert by reading a struct as its copy in
// another package, and that each reason not to holds.
func TestSameLayoutCopiesOfAnotherPackage(t *testing.T) {
	m, err := sameLayoutModel()
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]*model.Conv{}
	for _, tps := range m.Pairs {
		for _, tp := range tps {
			for _, mp := range tp.Mappings {
				fields[tp.Spoke.Obj().Name()+"."+mp.Spoke.Name()] = mp.ToHub.Conv
			}
		}
	}
	sameLayout := func(c *model.Conv) bool {
		for c.Elem != nil {
			c = c.Elem
		}
		return c.Kind == model.ConvSameLayout
	}
	tests := []struct {
		field      string
		sameLayout bool
		because    string
	}{
		{"BeaconSpec.Template", true, "the same fields, names and JSON names"},
		{"BeaconStatus.Conditions", true, "a list of same-layout copies, whose enums are each package's own, one omitempty apart"},
		{"BeaconStatus.Sites", true, "a map of same-layout copies"},
		{"Extras.Badge", false, "its field has another JSON name"},
		{"Extras.Stamp", false, "a hand-written Convert_ converts it"},
	}
	for _, tt := range tests {
		c := fields[tt.field]
		if c == nil {
			t.Errorf("no field %s", tt.field)
			continue
		}
		if sameLayout(c) != tt.sameLayout || c.SameMemory() != tt.sameLayout {
			t.Errorf("%s: same layout %v, shares memory %v; want %v: %s", tt.field, sameLayout(c), c.SameMemory(), tt.sameLayout, tt.because)
		}
	}
}

// TestBasePeerPairs checks that a spoke's structs with no namesake in the
// hub but one in metav1 pair with metav1's, as conversion-gen pairs them,
// and no other.
func TestBasePeerPairs(t *testing.T) {
	m, err := sameLayoutModel()
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*model.Direction{}
	for _, tps := range m.Pairs {
		for _, tp := range tps {
			if tp.HubVersion.Name != "metav1" {
				continue
			}
			for _, d := range tp.Directions() {
				funcs[d.Func] = d
			}
		}
	}
	for name, handWritten := range map[string]bool{
		"Convert_v1alpha1_Condition_To_v1_Condition":   true,
		"Convert_v1_Condition_To_v1alpha1_Condition":   true,
		"Convert_v1alpha1_ObjectMeta_To_v1_ObjectMeta": false,
		"Convert_v1_ObjectMeta_To_v1alpha1_ObjectMeta": true,
	} {
		d := funcs[name]
		if d == nil {
			t.Errorf("no base peer direction %s", name)
			continue
		}
		if (d.Manual != nil) != handWritten || !d.Emit {
			t.Errorf("%s: hand-written %v, autoConvert_ emitted %v; want %v, true", name, d.Manual != nil, d.Emit, handWritten)
		}
	}
	if len(funcs) != 4 {
		t.Errorf("%d base peer directions, want 4 (Site, Badge, Stamp have no metav1 namesake; BeaconSpec is v1's)", len(funcs))
	}
}
