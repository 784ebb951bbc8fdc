package automigrate

import (
	"strings"
	"testing"
	"time"
)

// A migration starts only when every ready endpoint's replica recorded,
// recently, every version of the kind: a replica with no record, an old
// record, or a record without the new version holds it back, and so does a
// Service with no ready endpoint or an endpoint naming no pod.
func TestReplicasLacking(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const gk = "example.com/CronTab"
	both := record{Kinds: map[string][]string{gk: {"v1", "v2"}}, At: now.Add(-time.Second)}
	old := record{Kinds: map[string][]string{gk: {"v1"}}, At: now.Add(-time.Second)}
	stale := record{Kinds: both.Kinds, At: now.Add(-time.Hour)}
	for _, c := range []struct {
		name      string
		endpoints []string
		unnamed   int
		records   map[string]record
		want      string // "" or a piece of the reason
	}{
		{"every replica converts both", []string{"a", "b"}, 0, map[string]record{"a": both, "b": both, "gone": old}, ""},
		{"one still converts v1 alone", []string{"a", "b"}, 0, map[string]record{"a": both, "b": old}, "b (converts [v1])"},
		{"one has not recorded", []string{"a", "b"}, 0, map[string]record{"a": both}, "b (no record)"},
		{"one's record is stale", []string{"a"}, 0, map[string]record{"a": stale}, "a (record from"},
		{"no ready endpoint", nil, 0, map[string]record{"a": both}, "no ready endpoint"},
		{"an endpoint names no pod", []string{"a"}, 1, map[string]record{"a": both}, "naming no pod"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := replicasLacking(c.endpoints, c.unnamed, c.records, gk, []string{"v1", "v2"}, now, 30*time.Second)
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("replicasLacking = %q, want %q", got, c.want)
			}
		})
	}
}
