package conversiontest

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/randfill"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// An Edit changes one field of a spoke object, as a client that reads and
// writes the spoke's version does between two conversions: read through the
// spoke (hub → spoke, the hub's data stashed in an annotation), changed,
// written back (spoke → hub). The edit must win over what the stash says,
// and nothing else may change (cluster-api#9375: a restored stash
// overwrote the client's edit).
type Edit struct {
	// Field names the edited field in messages, such as "spec.schedule".
	Field string
	// Apply sets the field of spoke, a *T of the pair's spoke type, to a
	// random value with fill, which fills what its argument points to:
	// fill(&spoke.(*T).Spec.Schedule).
	Apply func(spoke conversion.Convertible, fill func(any))
}

// editTries is how many values an edit draws to find one that differs
// from the field's value (a bool has only two).
const editTries = 8

// maxEditIterations bounds the objects each edit is tried on: a stale
// stash shows on nearly every object that has one, and comparing the hub
// objects leaf by leaf costs ten times a plain round trip.
const maxEditIterations = 100

// runEdits is the body of RoundTrip's "hub-spoke-edit-hub" subtest: each
// iteration converts a random hub object to the spoke, applies each edit
// in turn to a copy, and converts the copy back.
func runEdits(p Pair, s settings) error {
	f, err := newFiller(s.seed, p.FillFuncs, p.Spoke(), p.Hub())
	if err != nil {
		return err
	}
	n := min(s.iterations, maxEditIterations)
	for i := 0; i < n; i++ {
		for _, e := range p.Edits {
			if err := editOnce(p, e, f); err != nil {
				return fmt.Errorf("hub-spoke-edit-hub, editing %s: iteration %d of %d, seed %d (set %s=%d to replay): %w",
					e.Field, i+1, n, s.seed, SeedEnv, s.seed, err)
			}
		}
	}
	return nil
}

var toSpoke, toHub = directions[1].there, directions[1].back

// editOnce checks one edit on one random hub object: back at the spoke's
// version the object reads as edited (the edit won over the stash), and
// the hub object differs from the original only where the edit, converted
// with no stash at all, says it should.
func editOnce(p Pair, e Edit, f *randfill.Filler) error {
	hub := p.Hub()
	if err := fill(f, hub); err != nil {
		return err
	}
	clearTypeMeta(hub)
	spoke := p.Spoke()
	if err := convert(toSpoke, hub, spoke); err != nil {
		return err
	}
	clearTypeMeta(spoke)
	edited, ok := applyEdit(e, spoke, f)
	if !ok {
		return nil // every value drawn was the field's own
	}
	got := p.Hub()
	if err := convert(toHub, edited, got); err != nil {
		return fmt.Errorf("%w\nthe edited %s was:\n%s", err, kindOf(edited), toJSON(edited))
	}
	clearTypeMeta(got)
	back := p.Spoke()
	if err := convert(toSpoke, got, back); err != nil {
		return err
	}
	clearTypeMeta(back)
	// The stashes aside: the edited object's still describes the hub object
	// before the edit; the hub's fields are checked below.
	if diff, ok := compare(unstashed(edited), unstashed(back)); !ok {
		return fmt.Errorf("read back at the spoke's version, the object is not as edited (- edited, + converted to the hub and back):\n%s", diff)
	}
	// The edit's effect on the hub with no stash in play: where these two
	// differ, the result must be the edit's; everywhere else, the original.
	before, after := p.Hub(), p.Hub()
	for _, c := range []struct{ src, dst runtime.Object }{{spoke, before}, {edited, after}} {
		if err := convert(toHub, unstashed(c.src), c.dst); err != nil {
			return err
		}
		clearTypeMeta(c.dst)
	}
	return onlyTheEdit(hub, got, before, after)
}

// applyEdit applies e to a copy of spoke until the copy differs from it.
func applyEdit(e Edit, spoke conversion.Convertible, f *randfill.Filler) (conversion.Convertible, bool) {
	for i := 0; i < editTries; i++ {
		edited := spoke.DeepCopyObject().(conversion.Convertible)
		e.Apply(edited, f.Fill)
		if _, same := compare(spoke, edited); !same {
			return edited, true
		}
	}
	return nil, false
}

// unstashed is a copy of obj without the annotations conversions stash data
// in.
func unstashed(obj runtime.Object) runtime.Object {
	obj = obj.DeepCopyObject()
	if m, err := meta.Accessor(obj); err == nil && len(m.GetAnnotations()) > 0 {
		kept := map[string]string{}
		for k, v := range m.GetAnnotations() {
			if !strings.HasPrefix(k, lossless.AnnotationPrefix) {
				kept[k] = v
			}
		}
		m.SetAnnotations(kept)
	}
	return obj
}

// onlyTheEdit compares the hub objects leaf by leaf, in their JSON forms:
// where before and after (the edit converted without a stash) differ, got
// must hold after's value; everywhere else, the original's.
func onlyTheEdit(original, got, before, after runtime.Object) error {
	o, g, b, a := leaves(original), leaves(got), leaves(before), leaves(after)
	paths := map[string]bool{}
	for _, m := range []map[string]string{o, g, b, a} {
		for p := range m {
			paths[p] = true
		}
	}
	var wrong []string
	for p := range paths {
		if stashPath(p) && o[p] == "" {
			// A stash the original did not hold, of what the edited spoke
			// has that the hub's JSON does not show: that the hub object
			// reads back as edited at the spoke's version is checked above.
			continue
		}
		want, why := o[p], "the edit does not touch it, so it keeps the original's value"
		if b[p] != a[p] {
			want, why = a[p], "the edit changes it"
		}
		if g[p] != want && (want != "" || !impliedLeaf(got, p)) {
			wrong = append(wrong, fmt.Sprintf("%s = %s, want %s (%s)", p, orAbsent(g[p]), orAbsent(want), why))
		}
	}
	if len(wrong) == 0 {
		return nil
	}
	slices.Sort(wrong)
	return fmt.Errorf("converted back to the hub, the edited object changed more than the edit:\n  %s\nthe original hub object was:\n%s",
		strings.Join(wrong, "\n  "), toJSON(original))
}

// impliedLeaf reports whether got's JSON holds the leaf at path only
// because its Go type writes it: without the leaf, the JSON reads back as
// the same object. A bool without omitempty is written false once anything
// keeps its struct written (a hub-only list the stash restores beside it),
// where the edit converted without a stash left the whole struct out (apigen
// seed 681509805); a *bool written false is no such leaf.
func impliedLeaf(got runtime.Object, path string) bool {
	b, err := json.Marshal(got)
	var v any
	if err == nil {
		err = sigsjson.UnmarshalCaseSensitivePreserveInts(b, &v)
	}
	if err != nil || !deleteLeaf(v, "", path) {
		return false
	}
	if b, err = json.Marshal(v); err != nil {
		return false
	}
	again := reflect.New(reflect.TypeOf(got).Elem()).Interface()
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(b, again); err != nil {
		return false
	}
	return maps.Equal(leaves(again), leaves(got))
}

// deleteLeaf deletes the leaf at path, a member of an object, from v, a
// JSON form below prefix (leaves' paths), and reports whether it did.
func deleteLeaf(v any, prefix, path string) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := prefix + "." + k
			if p == path {
				delete(v, k)
				return true
			}
			if below(path, p) && deleteLeaf(e, p, path) {
				return true
			}
		}
	case []any:
		for i, e := range v {
			if p := prefix + "[" + strconv.Itoa(i) + "]"; below(path, p) && deleteLeaf(e, p, path) {
				return true
			}
		}
	}
	return false
}

// below reports whether the leaf at path is inside the value at p, not at
// a member whose name only begins like p's (.spec.a, .spec.ab).
func below(path, p string) bool {
	rest, ok := strings.CutPrefix(path, p)
	return ok && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "["))
}

// stashPath reports whether path, a leaf of leaves, is a stash annotation.
func stashPath(path string) bool {
	return strings.HasPrefix(path, ".metadata.annotations."+lossless.AnnotationPrefix)
}

func orAbsent(v string) string {
	if v == "" {
		return "(absent)"
	}
	return v
}

// leaves flattens obj's JSON form to its leaves, by path (.spec.ports[0].name),
// each as JSON; a member that is null is left out (apigen seed 418734688: a
// map without omitempty, nil, is written null by one object and left out
// with its struct by another).
func leaves(obj any) map[string]string {
	out := map[string]string{}
	b, err := json.Marshal(obj)
	var v any
	if err == nil {
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		out[""] = fmt.Sprintf("%#v", obj)
		return out
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if e != nil { // a null member reads back as its absence does, and is not stored
					walk(path+"."+k, e)
				}
			}
		case []any:
			for i, e := range v {
				walk(path+"["+strconv.Itoa(i)+"]", e)
			}
		default:
			leaf, _ := json.Marshal(v)
			out[path] = string(leaf)
		}
	}
	walk("", v)
	return out
}
