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

type embedsSpec struct {
	*HiddenExtra `json:",inline"`
	Parts        []embedsPart `json:"parts,omitempty"`
}

type embedsPart struct {
	*HiddenExtra `json:",inline"`
}

// HiddenExtra shows nothing in JSON as stored when Note is empty and Tags
// nil: Note is omitted, and Tags written as a null the API server drops.
type HiddenExtra struct {
	Note string   `json:"note,omitempty"`
	Tags []string `json:"tags"`
}

// TestCompareTakesAHiddenEmbeddedPointerForNil: an embedded pointer to a
// struct JSON shows nothing of reads back as nil, and the stash keeps no
// difference between the two (apigen seeds 24 and 25); one JSON shows
// something of is no nil.
func TestCompareTakesAHiddenEmbeddedPointerForNil(t *testing.T) {
	cases := []struct {
		name      string
		want, got embedsSpec
		equal     bool
	}{
		{"hidden", embedsSpec{}, embedsSpec{HiddenExtra: &HiddenExtra{}}, true},
		{"hidden in a list", embedsSpec{Parts: []embedsPart{{}}}, embedsSpec{Parts: []embedsPart{{&HiddenExtra{}}}}, true},
		{"an empty list shows", embedsSpec{}, embedsSpec{HiddenExtra: &HiddenExtra{Tags: []string{}}}, false},
		{"a note shows", embedsSpec{Parts: []embedsPart{{}}}, embedsSpec{Parts: []embedsPart{{&HiddenExtra{Note: "n"}}}}, false},
	}
	for _, c := range cases {
		if diff, equal := compare(&c.want, &c.got); equal != c.equal {
			t.Errorf("%s: equal = %v, want %v\n%s", c.name, equal, c.equal, diff)
		}
		if _, equal := compare(&c.got, &c.want); equal != c.equal {
			t.Errorf("%s, the other way round: equal = %v, want %v", c.name, equal, c.equal)
		}
	}
	// compare writes none of what it compares.
	got := embedsSpec{HiddenExtra: &HiddenExtra{}, Parts: []embedsPart{{&HiddenExtra{}}}}
	compare(&embedsSpec{}, &got)
	if got.HiddenExtra == nil || got.Parts[0].HiddenExtra == nil {
		t.Errorf("compare set the compared object's pointers to nil: %+v", got)
	}
}
