package conversiontest

import (
	"strings"
	"testing"
)

type nilsSpec struct {
	Tags    map[string]string `json:"tags,omitzero"`
	Omitted []string          `json:"omitted,omitempty"`
	Parts   map[string]*struct {
		D []string `json:"d"`
	} `json:"parts,omitempty"`
}

// TestCompareTellsEmptyFromNil: a round trip that gives back null or
// nothing for a client's {} or [] is not exact, though semantic equality
// says so; an empty value of an omitempty field is absent either way.
func TestCompareTellsEmptyFromNil(t *testing.T) {
	type part = struct {
		D []string `json:"d"`
	}
	cases := []struct {
		name      string
		want, got nilsSpec
		path      string
	}{
		{"map", nilsSpec{Tags: map[string]string{}}, nilsSpec{}, ".tags"},
		{"inside a map's value", nilsSpec{Parts: map[string]*part{"a": {D: []string{}}}}, nilsSpec{Parts: map[string]*part{"a": {}}}, ".parts[a].d"},
		{"omitempty", nilsSpec{Omitted: []string{}}, nilsSpec{}, ""},
	}
	for _, c := range cases {
		diff, equal := compare(&c.want, &c.got)
		if equal != (c.path == "") {
			t.Errorf("%s: equal = %v, want %v", c.name, equal, c.path == "")
		}
		if c.path != "" && !strings.HasPrefix(diff, c.path+" is empty") {
			t.Errorf("%s: the message does not name %s:\n%s", c.name, c.path, diff)
		}
	}
}
