package lossless

import (
	"reflect"
	"slices"
	"testing"
)

// diffNames lists the leaves of a diff by their JSON names: "spec.inner.deep".
func diffNames(fields []diffField, prefix string) []string {
	var out []string
	for _, f := range fields {
		if f.sub != nil {
			out = append(out, diffNames(f.sub, prefix+f.name+".")...)
			continue
		}
		out = append(out, prefix+f.name)
	}
	return out
}

func TestNarrowDiffKeepsTheFieldsOnThePaths(t *testing.T) {
	bigType := reflect.TypeOf(big{})
	for _, c := range []struct {
		paths []string
		want  []string // nil: not narrowed
	}{
		{[]string{"Spec.Inner.Deep"}, []string{"spec.inner.deep"}},
		{[]string{"Spec.Inner"}, []string{"spec.inner.keep", "spec.inner.deep", "spec.inner.q"}},
		// Into a pointer and a Quantity: compared whole where the diff stops.
		{[]string{"Spec.Until.Time", "Spec.Inner.Q.Format"}, []string{"spec.inner.q", "spec.until"}},
		// Through an embedded struct, which the diff promotes, and by a
		// promoted name.
		{[]string{"Spec.bigEmbedded.Zone"}, []string{"spec.zone"}},
		// An embedded struct: the fields the diff promotes from it.
		{[]string{"Spec.bigEmbedded"}, []string{"spec.zone"}},
		{[]string{"Spec.Zone", "Status"}, []string{"spec.zone", "status.phase"}},
		// Not JSON: nothing to compare.
		{[]string{"Spec.Hidden"}, []string{}},
		{[]string{"Spec.Nope"}, nil},
		{[]string{"Spec.Inner.Deep", "Spec..Keep"}, nil},
		{nil, nil},
	} {
		got, ok := narrowDiff(bigType, c.paths)
		if !ok {
			if c.want != nil {
				t.Errorf("%q: not narrowed, want %q", c.paths, c.want)
			}
			continue
		}
		if names := diffNames(got, ""); c.want == nil || !slices.Equal(names, c.want) {
			t.Errorf("%q: narrowed to %q, want %q", c.paths, names, c.want)
		}
	}
}

// Every field bigLost looks at, as a generated lossy_ check names them.
var bigLostIn = LostIn[big]("Spec.Labels", "Spec.Items", "Spec.Inner.Deep", "Spec.bigEmbedded.Zone", "Spec.Count", "Spec.Until")

func TestLostInStashesWhatTheWholeDiffStashes(t *testing.T) {
	for name, edit := range map[string]func(*big){
		"all": func(*big) {},
		"labels": func(b *big) {
			b.Spec.Items, b.Spec.Inner.Deep, b.Spec.Zone, b.Spec.Count, b.Spec.Until = nil, "", "", 0, nil
		},
		"until": func(b *big) {
			delete(b.Spec.Labels, bigOnly)
			b.Spec.Items, b.Spec.Inner.Deep, b.Spec.Zone, b.Spec.Count = nil, "", "", 0
		},
	} {
		src := fullBig()
		edit(src)
		whole := convert[big, small](t, src, bigToSmallDir, smallToBigDir)
		narrow := convert[big, small](t, src, bigToSmallDir.LostIn(bigLostIn), smallToBigDir)
		if w, n := whole.Annotations[Annotation("v2")], narrow.Annotations[Annotation("v2")]; w != n {
			t.Errorf("%s: stash\n got %s\nwant %s", name, n, w)
		}
	}
}

// A direction that names fewer fields than it loses shows which ones the
// stash compared.
var deepOnly = LostIn[big]("Spec.Inner.Deep")

func TestLostInComparesOnlyItsFields(t *testing.T) {
	s := convert[big, small](t, fullBig(), bigToSmallDir.LostIn(deepOnly), smallToBigDir)
	if got, want := s.Annotations[Annotation("v2")], `sparse:{"spec":{"inner":{"deep":"d"}}}`; got != want {
		t.Errorf("stash\n got %s\nwant %s", got, want)
	}
}

// A field restored from the other version's stash may convert back into
// any field of the source: after a restore, every field is compared.
func TestLostInComparesEverythingAfterARestore(t *testing.T) {
	src := fullBig()
	src.Annotations = map[string]string{Annotation("v1"): `sparse:{"spec":{"legacy":"L"}}`}
	s := convert[big, small](t, src, bigToSmallDir.LostIn(deepOnly), smallToBigDir)
	if s.Spec.Legacy != "L" {
		t.Fatalf("not restored: %+v", s.Spec)
	}
	want := `sparse:{"spec":{"labels":{"a":"1","big-only":"x"},"items":[{"name":"i","extra":"ei"},{"name":"j"}],` +
		`"inner":{"deep":"d"},"zone":"z","count":"5","until":"2026-01-02T03:04:05Z"}}`
	if got := s.Annotations[Annotation("v2")]; got != want {
		t.Errorf("stash\n got %s\nwant %s", got, want)
	}
}
