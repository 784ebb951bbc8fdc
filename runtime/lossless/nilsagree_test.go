package lossless

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// phaseHub's list elements hold a list JSON always writes, labels, and
// counts, which phaseSpoke's do not have.
type phaseHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Phase             []hubPhase `json:"phase"`
}

type hubPhase struct {
	Key    string   `json:"key"`
	Labels []string `json:"labels"`
	Counts []string `json:"counts"`
}

type phaseSpoke struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Phase             []spokePhase `json:"phase"`
}

type spokePhase struct {
	Key    string   `json:"key"`
	Labels []string `json:"labels"`
}

func phaseToSpoke(in *phaseHub, out *phaseSpoke, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Phase = nil
	if in.Phase != nil {
		out.Phase = make([]spokePhase, len(in.Phase))
	}
	for i, p := range in.Phase {
		out.Phase[i] = spokePhase{Key: p.Key, Labels: p.Labels}
	}
	return nil
}

func phaseToHub(in *phaseSpoke, out *phaseHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Phase = nil
	if in.Phase != nil {
		out.Phase = make([]hubPhase, len(in.Phase))
	}
	for i, p := range in.Phase {
		out.Phase[i] = hubPhase{Key: p.Key, Labels: p.Labels}
	}
	return nil
}

func phaseLost(in *phaseHub) bool {
	for _, p := range in.Phase {
		if p.Counts != nil {
			return true
		}
	}
	return false
}

// TestAnEditOfNilnessWinsOverTheStash: the stash keeps the hub's list
// whole, for the counts in its elements. An edit made through the spoke
// that only moves an empty list of labels from one element to another
// (nil becomes [], [] becomes nil: JSON shows the change, semantic
// equality does not) must win over the stashed list (apigen seed
// 681509841).
func TestAnEditOfNilnessWinsOverTheStash(t *testing.T) {
	there, back := Checked("v2", "v1", phaseToSpoke, phaseLost), Lossless("v1", "v2", phaseToHub)
	hub := &phaseHub{Phase: []hubPhase{{Key: "k0"}, {Key: "k1", Labels: []string{}, Counts: []string{}}}}
	spoke := convert[phaseHub, phaseSpoke](t, hub, there, back)
	spoke.Phase = []spokePhase{{Key: "k0", Labels: []string{}}, {Key: "k1"}}
	got := convert[phaseSpoke, phaseHub](t, spoke, back, there)
	if got.Phase[0].Labels == nil || got.Phase[1].Labels != nil {
		t.Errorf("the edit was lost: k0 labels %#v (want []), k1 labels %#v (want nil)", got.Phase[0].Labels, got.Phase[1].Labels)
	}
}

// TestNilsAgreeWhereJSONShowsThem: nil and empty differ where JSON writes
// them differently (null or nothing, and []), at any depth; under omitempty
// they are written alike and agree (apigen seed 681510053: an omitempty map
// nil in one and empty in the other kept a stashed field from coming back).
func TestNilsAgreeWhereJSONShowsThem(t *testing.T) {
	type inner struct {
		Shown   []string          `json:"shown"`
		Zero    []string          `json:"zero,omitzero"`
		Omitted map[string]string `json:"omitted,omitempty"`
		Skipped []string          `json:"-"`
	}
	type outer struct {
		Items []inner `json:"items"`
	}
	one := func(in inner) reflect.Value { return reflect.ValueOf(outer{Items: []inner{in}}) }
	tests := []struct {
		name  string
		a, b  inner
		agree bool
	}{
		{"the same", inner{Shown: []string{}}, inner{Shown: []string{}}, true},
		{"a list JSON writes [] or null", inner{Shown: []string{}}, inner{}, false},
		{"an omitzero list JSON writes [] or leaves out", inner{Zero: []string{}}, inner{}, false},
		{"an omitempty map JSON leaves out either way", inner{Omitted: map[string]string{}}, inner{}, true},
		{"a field JSON does not write", inner{Skipped: []string{}}, inner{}, true},
	}
	for _, tc := range tests {
		if got := nilsAgree(one(tc.a), one(tc.b), false); got != tc.agree {
			t.Errorf("%s: nilsAgree = %v, want %v", tc.name, got, tc.agree)
		}
	}
	if nilsAgree(reflect.ValueOf([]string{}), reflect.ValueOf([]string(nil)), true) != true {
		t.Error("a hidden list, nil and empty, does not agree")
	}
}
