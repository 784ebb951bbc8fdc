package lossless

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// inlineOld and inlineHub are two versions of a kind whose spec embeds a
// pointer to a struct, inline (issue 58): inlineOld's has Legacy, which
// inlineHub's lacks, and inlineOld's spec has Old beside it, which
// inlineHub's lacks too.
type inlineOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              inlineOldSpec `json:"spec,omitempty"`
}

type inlineOldSpec struct {
	*OldExtra `json:",inline"`
	Size      int32 `json:"size,omitempty"`
	Old       int64 `json:"old,omitempty"`
}

type OldExtra struct {
	Note   string `json:"note,omitempty"`
	Legacy string `json:"legacy,omitempty"`
}

type inlineHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              inlineHubSpec `json:"spec,omitempty"`
}

type inlineHubSpec struct {
	*HubExtra `json:",inline"`
	Size      int32 `json:"size,omitempty"`
}

type HubExtra struct {
	Note string `json:"note,omitempty"`
}

// inlineToHub and inlineFromHub are what crdforge generates for the pair.
func inlineToHub(in *inlineOld, out *inlineHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.HubExtra = nil
	if in.Spec.OldExtra != nil {
		out.Spec.HubExtra = &HubExtra{Note: in.Spec.Note}
	}
	out.Spec.Size = in.Spec.Size
	return nil
}

func inlineFromHub(in *inlineHub, out *inlineOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.OldExtra = nil
	if in.Spec.HubExtra != nil {
		out.Spec.OldExtra = &OldExtra{Note: in.Spec.Note}
	}
	out.Spec.Size = in.Spec.Size
	return nil
}

func inlineLost(in *inlineOld) bool {
	return in.Spec.Old != 0 || in.Spec.OldExtra != nil && in.Spec.Legacy != ""
}

var (
	inlineLostIn   = LostIn[inlineOld]("Spec.Old", "Spec.OldExtra")
	inlineToHubDir = Checked("v1alpha1", "v1", inlineToHub, inlineLost).LostIn(inlineLostIn)
	inlineFromDir  = Lossless("v1", "v1alpha1", inlineFromHub)
)

// inlineRoundTrip converts src to the hub, edits it there, and converts it
// back.
func inlineRoundTrip(t *testing.T, src *inlineOld, edit func(*inlineHub)) (*inlineHub, *inlineOld) {
	t.Helper()
	h := convert[inlineOld, inlineHub](t, src, inlineToHubDir, inlineFromDir)
	edit(h)
	return h, convert[inlineHub, inlineOld](t, h, inlineFromDir, inlineToHubDir)
}

// The fields only the old version holds, inside the embedded struct and
// beside it, come back whatever else was edited through the hub; an
// explicit empty note, which makes the pointer non-nil, changes nothing.
func TestFieldsBehindAnEmbeddedPointerAreStashedOneByOne(t *testing.T) {
	for name, c := range map[string]struct {
		spec  string
		edit  func(*inlineHub)
		want  inlineOldSpec
		stash string
	}{
		"inside, no edit": {
			spec: `{"legacy":"old","size":1}`, edit: func(*inlineHub) {},
			want: inlineOldSpec{OldExtra: &OldExtra{Legacy: "old"}, Size: 1}, stash: `sparse:{"spec":{"legacy":"old"}}`,
		},
		"inside, size edited": {
			spec: `{"legacy":"old","size":1}`, edit: func(h *inlineHub) { h.Spec.Size = 2 },
			want: inlineOldSpec{OldExtra: &OldExtra{Legacy: "old"}, Size: 2}, stash: `sparse:{"spec":{"legacy":"old"}}`,
		},
		"inside, note edited": {
			spec: `{"note":"n","legacy":"old"}`, edit: func(h *inlineHub) { h.Spec.Note = "m" },
			want: inlineOldSpec{OldExtra: &OldExtra{Note: "m", Legacy: "old"}}, stash: `sparse:{"spec":{"legacy":"old"}}`,
		},
		"beside, no edit": {
			spec: `{"size":1,"old":7}`, edit: func(*inlineHub) {},
			want: inlineOldSpec{Size: 1, Old: 7}, stash: `sparse:{"spec":{"old":7}}`,
		},
		"beside, explicit empty note": {
			spec: `{"note":"","size":1,"old":7}`, edit: func(*inlineHub) {},
			want: inlineOldSpec{OldExtra: &OldExtra{}, Size: 1, Old: 7}, stash: `sparse:{"spec":{"old":7}}`,
		},
		"both, size edited": {
			spec: `{"note":"","legacy":"old","size":1,"old":7}`, edit: func(h *inlineHub) { h.Spec.Size = 2 },
			want: inlineOldSpec{OldExtra: &OldExtra{Legacy: "old"}, Size: 2, Old: 7}, stash: `sparse:{"spec":{"legacy":"old","old":7}}`,
		},
	} {
		var src inlineOld
		if err := json.Unmarshal([]byte(`{"spec":`+c.spec+`}`), &src); err != nil {
			t.Fatal(err)
		}
		h, back := inlineRoundTrip(t, &src, func(h *inlineHub) {
			if got := h.Annotations[Annotation("v1alpha1")]; got != c.stash {
				t.Errorf("%s: stash %s, want %s", name, got, c.stash)
			}
			c.edit(h)
		})
		if !SemanticEqual(&back.Spec, &c.want) {
			t.Errorf("%s: back as %s, want %s", name, jsonOf(t, back.Spec), jsonOf(t, c.want))
		}
		if h.Spec.HubExtra != nil && back.Spec.OldExtra != nil && unsafe.Pointer(h.Spec.HubExtra) == unsafe.Pointer(back.Spec.OldExtra) {
			t.Errorf("%s: the result shares the hub's struct", name)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dropsExtra and makesNote lose the embedded pointer's own nil-ness: one
// drops a pointer to a struct, the other makes a pointer, with a note JSON
// shows, where there was none. The stash brings it back: a member of the
// struct, which allocates the pointer as it is restored, or else the
// marker.
func dropsExtra(in *inlineOld, out *inlineHub, s conversion.Scope) error {
	err := inlineToHub(in, out, s)
	out.Spec.HubExtra = nil
	return err
}

func makesNote(in *inlineHub, out *inlineOld, s conversion.Scope) error {
	err := inlineFromHub(in, out, s)
	if out.Spec.OldExtra == nil {
		out.Spec.OldExtra = &OldExtra{Note: "made"}
	}
	return err
}

func TestAnEmbeddedPointersNilnessIsStashed(t *testing.T) {
	dropping := RoundTrip("v1alpha1", "v1", dropsExtra)
	src := &inlineOld{Spec: inlineOldSpec{OldExtra: &OldExtra{Legacy: "x"}, Size: 1}}
	h := convert[inlineOld, inlineHub](t, src, dropping, inlineFromDir)
	if got, want := h.Annotations[Annotation("v1alpha1")], `sparse:{"spec":{"legacy":"x"}}`; got != want {
		t.Errorf("stash %s, want %s", got, want)
	}
	back := convert[inlineHub, inlineOld](t, h, inlineFromDir, dropping)
	if !SemanticEqual(&back.Spec, &src.Spec) {
		t.Errorf("back as %s, want %s", jsonOf(t, back.Spec), jsonOf(t, src.Spec))
	}

	making := RoundTrip("v1", "v1alpha1", makesNote)
	hub := &inlineHub{Spec: inlineHubSpec{Size: 3}}
	o := convert[inlineHub, inlineOld](t, hub, making, inlineToHubDir)
	if got, want := o.Annotations[Annotation("v1")], `sparse:{"spec":{",HubExtra":null}}`; got != want {
		t.Errorf("stash %s, want %s", got, want)
	}
	hubBack := convert[inlineOld, inlineHub](t, o, inlineToHubDir, making)
	if hubBack.Spec.HubExtra != nil || hubBack.Spec.Size != 3 {
		t.Errorf("back as %+v, want no HubExtra", hubBack.Spec)
	}
}

// makesExtra makes a pointer to a struct JSON shows nothing of where there
// was none; listToHubMaking does so in every element of a list.
func makesExtra(in *inlineHub, out *inlineOld, s conversion.Scope) error {
	err := inlineFromHub(in, out, s)
	if out.Spec.OldExtra == nil {
		out.Spec.OldExtra = &OldExtra{}
	}
	return err
}

func listToHubMaking(in *listOld, out *listHub, s conversion.Scope) error {
	err := listToHub(in, out, s)
	for i := range out.Spec.Items {
		if out.Spec.Items[i].ElemHubExtra == nil {
			out.Spec.Items[i].ElemHubExtra = &ElemHubExtra{}
		}
	}
	return err
}

// A round trip that differs from its source only in an embedded pointer
// JSON cannot tell from nil (a pointer to a struct whose fields JSON all
// omits) stashes nothing: the source's JSON, read back, would convert
// without an annotation (apigen seeds 24 and 25: a stash of only
// ",SprocketEmbedded1":null). So for such a pointer made or dropped by the
// round trip, as a member or inside a leaf stored whole.
func TestNoStashWhereJSONCannotTellAnEmbeddedPointerFromNil(t *testing.T) {
	hub := &inlineHub{Spec: inlineHubSpec{Size: 3}}
	o := convert[inlineHub, inlineOld](t, hub, RoundTrip("v1", "v1alpha1", makesExtra), inlineToHubDir)
	if got := o.Annotations[Annotation("v1")]; got != "" {
		t.Errorf("made: stash %s, want none", got)
	}
	src := &inlineOld{Spec: inlineOldSpec{OldExtra: &OldExtra{}, Size: 1}}
	h := convert[inlineOld, inlineHub](t, src, RoundTrip("v1alpha1", "v1", dropsExtra), inlineFromDir)
	if got := h.Annotations[Annotation("v1alpha1")]; got != "" {
		t.Errorf("dropped: stash %s, want none", got)
	}
	var old listOld
	old.Spec.Items = []elemOld{{}, {OldExtra: &OldExtra{Note: "n"}}}
	lh := convert[listOld, listHub](t, &old, RoundTrip("v1alpha1", "v1", listToHubMaking), listFromHubDir)
	if got := lh.Annotations[Annotation("v1alpha1")]; got != "" {
		t.Errorf("in a list: stash %s, want none", got)
	}
}

// settable writes through an embedded pointer into a copy: the struct it
// pointed at may be another object's.
func TestSettableCopiesWhatAnEmbeddedPointerSharesFirst(t *testing.T) {
	shared := &OldExtra{Note: "n"}
	v := inlineOldSpec{OldExtra: shared}
	fresh := map[unsafe.Pointer]bool{}
	index := []int{0, 1} // OldExtra.Legacy
	settable(reflect.ValueOf(&v).Elem(), index, fresh).SetString("a")
	settable(reflect.ValueOf(&v).Elem(), []int{0, 0}, fresh).SetString("m")
	if *shared != (OldExtra{Note: "n"}) {
		t.Errorf("the shared struct changed: %+v", *shared)
	}
	if v.OldExtra == shared || *v.OldExtra != (OldExtra{Note: "m", Legacy: "a"}) {
		t.Errorf("v.OldExtra = %+v", v.OldExtra)
	}
	var empty inlineOldSpec
	settable(reflect.ValueOf(&empty).Elem(), index, fresh).SetString("a")
	if empty.OldExtra == nil || empty.Legacy != "a" {
		t.Errorf("a nil pointer on the way was not allocated: %+v", empty)
	}
}

// LostIn names an embedded pointer by its type's name, or a field promoted
// through it: either way the diff compares the fields behind it.
func TestNarrowDiffThroughAnEmbeddedPointer(t *testing.T) {
	for _, paths := range [][]string{{"Spec.OldExtra"}, {"Spec.OldExtra.Legacy"}, {"Spec.Legacy"}} {
		got, ok := narrowDiff(reflect.TypeOf(inlineOld{}), paths)
		if !ok {
			t.Errorf("%q: not narrowed", paths)
			continue
		}
		if names := diffNames(got, ""); !slices.Equal(names, []string{"spec.,OldExtra.note", "spec.,OldExtra.legacy"}) {
			t.Errorf("%q: narrowed to %q", paths, names)
		}
	}
}

// throughJSON returns obj as a client or etcd hands it back: encoded and
// decoded by encoding/json.
func throughJSON[T any](t *testing.T, obj *T) *T {
	t.Helper()
	read := new(T)
	if err := json.Unmarshal([]byte(jsonOf(t, obj)), read); err != nil {
		t.Fatal(err)
	}
	return read
}

// An embedded pointer whose fields the hub's JSON all omits reads back nil
// from the hub's JSON, though the hub object converted in memory had one.
// That is no edit: the fields only the old version holds behind it come
// back (apigen seed 21: a spoke-only field inside an embedded pointer whose
// other field the hub omits when empty was lost through the webhook).
func TestFieldsBehindAnEmbeddedPointerTheHubsJSONDropsComeBack(t *testing.T) {
	for _, spec := range []string{`{"legacy":"old"}`, `{"note":"","legacy":"old","old":7}`, `{"legacy":"old","size":1}`} {
		var src inlineOld
		if err := json.Unmarshal([]byte(`{"spec":`+spec+`}`), &src); err != nil {
			t.Fatal(err)
		}
		want := src.Spec
		h := convert[inlineOld, inlineHub](t, &src, inlineToHubDir, inlineFromDir)
		back := convert[inlineHub, inlineOld](t, throughJSON(t, h), inlineFromDir, inlineToHubDir)
		if !SemanticEqual(&back.Spec, &want) {
			t.Errorf("%s: back as %s through the hub's JSON %s", spec, jsonOf(t, back.Spec), jsonOf(t, h))
		}
	}
}

// listOld and listHub hold lists whose elements embed a pointer inline: the
// old version's to OldExtra, with Legacy, the hub's to ElemHubExtra, with
// Window, which JSON always writes. A stash holds such a list whole.
type listOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Items []elemOld `json:"items,omitempty"`
	} `json:"spec,omitempty"`
}

type elemOld struct {
	*OldExtra `json:",inline"`
}

type listHub struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Items []elemHub `json:"items,omitempty"`
	} `json:"spec,omitempty"`
}

type elemHub struct {
	*ElemHubExtra `json:",inline"`
}

type ElemHubExtra struct {
	Note   string `json:"note,omitempty"`
	Window bool   `json:"window"`
}

func listToHub(in *listOld, out *listHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Items = nil
	for _, e := range in.Spec.Items {
		var h elemHub
		if e.OldExtra != nil {
			h.ElemHubExtra = &ElemHubExtra{Note: e.Note}
		}
		out.Spec.Items = append(out.Spec.Items, h)
	}
	return nil
}

func listFromHub(in *listHub, out *listOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Items = nil
	for _, h := range in.Spec.Items {
		var e elemOld
		if h.ElemHubExtra != nil {
			e.OldExtra = &OldExtra{Note: h.Note}
		}
		out.Spec.Items = append(out.Spec.Items, e)
	}
	return nil
}

var (
	listToHubDir = Checked("v1alpha1", "v1", listToHub, func(in *listOld) bool {
		return slices.ContainsFunc(in.Spec.Items, func(e elemOld) bool { return e.OldExtra != nil && e.Legacy != "" })
	})
	listFromHubDir = Checked("v1", "v1alpha1", listFromHub, func(in *listHub) bool {
		return slices.ContainsFunc(in.Spec.Items, func(h elemHub) bool { return h.ElemHubExtra != nil && h.Window })
	})
)

// A list element whose embedded pointer one version's JSON writes and the
// other's leaves out (all its fields omitted) is no edit either: the list,
// stashed whole, comes back, with the fields only the stashing version holds
// in its other elements (apigen seed 13: a spoke-only []byte in one element
// and a hub-only bool in another were lost).
func TestAListWhoseElementsEmbeddedPointerOneJSONDropsComesBack(t *testing.T) {
	var old listOld
	if err := json.Unmarshal([]byte(`{"spec":{"items":[{"legacy":"x"},{"note":""}]}}`), &old); err != nil {
		t.Fatal(err)
	}
	h := convert[listOld, listHub](t, &old, listToHubDir, listFromHubDir)
	back := convert[listHub, listOld](t, throughJSON(t, h), listFromHubDir, listToHubDir)
	if got, want := jsonOf(t, back.Spec), jsonOf(t, old.Spec); got != want {
		t.Errorf("old version back as %s, want %s; the hub was %s", got, want, jsonOf(t, h))
	}

	var hub listHub
	if err := json.Unmarshal([]byte(`{"spec":{"items":[{"window":true},{"window":false}]}}`), &hub); err != nil {
		t.Fatal(err)
	}
	o := convert[listHub, listOld](t, &hub, listFromHubDir, listToHubDir)
	hubBack := convert[listOld, listHub](t, throughJSON(t, o), listToHubDir, listFromHubDir)
	if got, want := jsonOf(t, hubBack.Spec), jsonOf(t, hub.Spec); got != want {
		t.Errorf("hub back as %s, want %s; the old version was %s", got, want, jsonOf(t, o))
	}
}

// embedListSpoke and embedListHub are two versions of a kind whose list
// elements and map values embed a pointer to a struct, inline: the spoke's
// holds Tags, without omitempty, which the hub's lacks.
type embedListSpoke struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Items  []embedListSpokeItem          `json:"items"`
	ByName map[string]embedListSpokeItem `json:"byName,omitempty"`
}

type embedListSpokeItem struct {
	*SpokeTagged `json:",inline"`
	Name         string `json:"name"`
}

type SpokeTagged struct {
	Note string   `json:"note,omitempty"`
	Tags []string `json:"tags"`
}

type embedListHub struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Items  []embedListHubItem          `json:"items"`
	ByName map[string]embedListHubItem `json:"byName,omitempty"`
}

type embedListHubItem struct {
	*HubTagged `json:",inline"`
	Name       string `json:"name"`
}

type HubTagged struct {
	Note string `json:"note,omitempty"`
}

func embedListToHub(in *embedListSpoke, out *embedListHub, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Items = convertElems(in.Items, itemToHub)
	out.ByName = convertValues(in.ByName, itemToHub)
	return nil
}

func embedListFromHub(in *embedListHub, out *embedListSpoke, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Items = convertElems(in.Items, itemFromHub)
	out.ByName = convertValues(in.ByName, itemFromHub)
	return nil
}

func itemToHub(in embedListSpokeItem) embedListHubItem {
	out := embedListHubItem{Name: in.Name}
	if in.SpokeTagged != nil {
		out.HubTagged = &HubTagged{Note: in.Note}
	}
	return out
}

func itemFromHub(in embedListHubItem) embedListSpokeItem {
	out := embedListSpokeItem{Name: in.Name}
	if in.HubTagged != nil {
		out.SpokeTagged = &SpokeTagged{Note: in.Note}
	}
	return out
}

func convertElems[A, B any](in []A, f func(A) B) []B {
	if in == nil {
		return nil
	}
	out := make([]B, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func convertValues[A, B any](in map[string]A, f func(A) B) map[string]B {
	if in == nil {
		return nil
	}
	out := make(map[string]B, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}

// Both directions are round trips, so that what the stash keeps is up to
// the sparse diff alone.
var (
	embedListToHubDir = RoundTrip("v1alpha1", "v1", embedListToHub)
	embedListFromDir  = RoundTrip("v1", "v1alpha1", embedListFromHub)
)

// A list element or map value is a leaf the stash stores whole; its
// tags: [], promoted through an embedded pointer, is a value JSON writes
// apart from null, so the leaf differs from the one the hub brings back,
// and is stashed. Elements with a nil pointer, or equal tags, keep the
// stash empty.
func TestEmptyValuesBehindAnEmbeddedPointerInALeafAreStashed(t *testing.T) {
	for name, c := range map[string]struct {
		items string
		stash bool
	}{
		"tags: []":       {items: `[{"name":"a","note":"n","tags":[]}]`, stash: true},
		"tags: [] only":  {items: `[{"name":"a","tags":[]}]`, stash: true},
		"tags: null":     {items: `[{"name":"a","note":"n","tags":null}]`},
		"no tags":        {items: `[{"name":"a","note":"n"}]`},
		"nil pointer":    {items: `[{"name":"a"}]`},
		"second element": {items: `[{"name":"a"},{"name":"b","note":"n","tags":[]}]`, stash: true},
		"map value":      {items: `[], "byName":{"a":{"name":"a","note":"n","tags":[]}}`, stash: true},
		"map value, nil": {items: `[], "byName":{"a":{"name":"a"}}`},
	} {
		var src embedListSpoke
		if err := json.Unmarshal([]byte(`{"items":`+c.items+`}`), &src); err != nil {
			t.Fatal(err)
		}
		h := convert[embedListSpoke, embedListHub](t, &src, embedListToHubDir, embedListFromDir)
		stash := h.Annotations[Annotation("v1alpha1")]
		if (stash != "") != c.stash {
			t.Errorf("%s: stash %q, want one: %v", name, stash, c.stash)
		}
		back := convert[embedListHub, embedListSpoke](t, h, embedListFromDir, embedListToHubDir)
		if got, want := jsonOf(t, back), jsonOf(t, &src); got != want {
			t.Errorf("%s: back as %s, want %s (stash %q)", name, got, want, stash)
		}
	}
}

// nullOld's embedded struct holds a struct field only it has and a pointer
// without omitempty; nullNew's holds the pointer alone, which it writes as
// null for a non-nil embedded pointer, a member the API server drops
// (apigen seed 290104304).
type nullOld struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		*NullOldEmbed `json:",inline"`
	} `json:"spec"`
}

type NullOldEmbed struct {
	Ports struct {
		Weight string `json:"weight,omitempty"`
	} `json:"ports"`
	Limit *string `json:"limit"`
}

type nullNew struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		*NullNewEmbed `json:",inline"`
	} `json:"spec"`
}

type NullNewEmbed struct {
	Limit *string `json:"limit"`
}

func nullOldToNew(in *nullOld, out *nullNew, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if in.Spec.NullOldEmbed != nil {
		out.Spec.NullNewEmbed = &NullNewEmbed{Limit: in.Spec.Limit}
	}
	return nil
}

func nullNewToOld(in *nullNew, out *nullOld, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	if in.Spec.NullNewEmbed != nil {
		out.Spec.NullOldEmbed = &NullOldEmbed{Limit: in.Spec.Limit}
	}
	return nil
}

// An embedded struct whose only member in the other version is a null the
// API server drops comes back nil from there: the members only this
// version holds behind it are stashed, and "ports":{} comes back.
func TestAnEmbeddedStructTheAPIServerDropsComesBack(t *testing.T) {
	there, back := Lossless("v1beta1", "v1alpha1", nullOldToNew), Lossless("v1alpha1", "v1beta1", nullNewToOld)
	for _, spec := range []string{`{"ports":{}}`, `{"ports":{"weight":"1"}}`, `{"limit":"x"}`} {
		old := new(nullOld)
		if err := json.Unmarshal([]byte(`{"spec":`+spec+`}`), old); err != nil {
			t.Fatal(err)
		}
		want := jsonOf(t, old.Spec)
		dst := asStored(t, convert[nullOld, nullNew](t, old, there, back))
		again := asStored(t, convert[nullNew, nullOld](t, dst, back, there))
		if got := jsonOf(t, again.Spec); got != want {
			t.Errorf("spec %s back as %s, want %s (stash %q)", spec, got, want, dst.GetAnnotations()[Annotation("v1beta1")])
		}
	}
}
