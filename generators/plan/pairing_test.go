package plan_test

import "testing"

// TestPairing: where each v2 field of PairingSpec lives in v1 (its hub path,
// "." for the enclosing struct, "" for none), and which v2 structs pair
// with which v1 struct ("" for none).
func TestPairing(t *testing.T) {
	m, _ := decided(t)
	fields := []struct {
		name, field, want string
	}{
		{"a field pairs by its Go name", "Name", "Name"},
		{"hubfield renames", "Title", "Label"},
		{"hubfield moves into a nested struct", "Host", "Network.Host"},
		{"hubfield=. converts into the enclosing struct", "Extra", "."},
		{"a field with no namesake has no counterpart", "OnlyHere", ""},
		{"a field of another struct type pairs the structs", "Gadget", "Gadget"},
	}
	tp := pairNamed(m, "v2", "PairingSpec")
	for _, tc := range fields {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			for _, mp := range tp.Mappings {
				if mp.Spoke.Name() != tc.field {
					continue
				}
				got = "."
				if !mp.Whole {
					got = names(mp.HubPath)
				}
			}
			if got != tc.want {
				t.Errorf("%s: PairingSpec.%s goes to %q, want %q", tc.name, tc.field, got, tc.want)
			}
		})
	}
	structs := []struct {
		name, spoke, want string
	}{
		{"the kind's root types pair", "Pairing", "Pairing"},
		{"its list types pair", "PairingList", "PairingList"},
		{"a struct a field reaches pairs with the field's", "Item", "Item"},
		{"structs of different names pair through a field", "Foo", "Bar"},
		{"a struct converted whole pairs with the enclosing hub struct", "ExtraSpec", "PairingSpec"},
		{"a struct nothing reaches pairs by name", "Orphan", "Orphan"},
		{"an unexported struct does not pair", "hidden", ""},
	}
	for _, tc := range structs {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if tp := pairNamed(m, "v2", tc.spoke); tp != nil {
				got = tp.Hub.Obj().Name()
			}
			if got != tc.want {
				t.Errorf("%s: v2 %s pairs with %q, want %q", tc.name, tc.spoke, got, tc.want)
			}
		})
	}
}
