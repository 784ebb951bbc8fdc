package plan_test

import (
	"testing"

	"github.com/crdforge/crdforge/generators/model"
)

// TestDirections: each pair converts two ways, each the other's reverse,
// named the conversion-gen way after the packages and types, from and to
// the right versions; and a field of a paired struct type converts through
// the pair's direction that goes its way.
func TestDirections(t *testing.T) {
	m, _ := decided(t)
	tests := []struct {
		name, ver, spoke string
		toHub            bool
		wantFunc         string
		wantFrom         string // the version converted from
	}{
		{"a root to the hub", "v2", "Pairing", true, "Convert_v2_Pairing_To_v1_Pairing", "v2"},
		{"a root to the spoke", "v2", "Pairing", false, "Convert_v1_Pairing_To_v2_Pairing", "v1"},
		{"a renamed struct to the hub", "v2", "Foo", true, "Convert_v2_Foo_To_v1_Bar", "v2"},
		{"a renamed struct to the spoke", "v2", "Foo", false, "Convert_v1_Bar_To_v2_Foo", "v1"},
		{"another spoke package's pair", "v3", "Ref", true, "Convert_v3_Ref_To_v1_Ref", "v3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tp := pairNamed(m, tc.ver, tc.spoke)
			if tp == nil {
				t.Errorf("%s: no pair %s", tc.name, tc.spoke)
				return
			}
			d, other := tp.ToSpoke, tp.ToHub
			if tc.toHub {
				d, other = tp.ToHub, tp.ToSpoke
			}
			if d.Func != tc.wantFunc || d.FromVersion.Name != tc.wantFrom {
				t.Errorf("%s: %s from %s, want %s from %s", tc.name, d.Func, d.FromVersion.Name, tc.wantFunc, tc.wantFrom)
			}
			if d.Reverse != other {
				t.Errorf("%s: the reverse of %s is %s, want %s", tc.name, d.Func, d.Reverse.Func, other.Func)
			}
			if d.AutoFunc != "auto"+tc.wantFunc || d.LossyFunc != "lossy"+tc.wantFunc[len("Convert"):] {
				t.Errorf("%s: autoConvert_ %s and lossy_ %s do not follow %s", tc.name, d.AutoFunc, d.LossyFunc, tc.wantFunc)
			}
		})
	}
	fields := []struct {
		name, field string
		toHub       bool
		want        string // the function the field's element converts through
	}{
		{"a list's elements to the hub", "PairingSpec.Items", true, "Convert_v2_Item_To_v1_Item"},
		{"a list's elements to the spoke", "PairingSpec.Items", false, "Convert_v1_Item_To_v2_Item"},
		{"a struct field to the hub", "PairingSpec.Gadget", true, "Convert_v2_Foo_To_v1_Bar"},
		{"a struct field to the spoke", "PairingSpec.Gadget", false, "Convert_v1_Bar_To_v2_Foo"},
	}
	for _, tc := range fields {
		t.Run(tc.name, func(t *testing.T) {
			mp := v2Mapping(t, m, tc.field)
			c := mp.ToSpoke.Conv
			if tc.toHub {
				c = mp.ToHub.Conv
			}
			for c.Elem != nil {
				c = c.Elem
			}
			if c.Kind != model.ConvPair || c.Dir.Func != tc.want {
				t.Errorf("%s: %s converts as %s through %s, want a pair through %s", tc.name, tc.field, convKinds[c.Kind], funcOf(c), tc.want)
			}
		})
	}
}

// funcOf names the function a pair conversion goes through, if any.
func funcOf(c *model.Conv) string {
	if c.Dir == nil {
		return "nothing"
	}
	return c.Dir.Func
}
