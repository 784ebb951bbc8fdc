package lossless

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// big and small are two versions of one kind. small cannot hold big's
// Inner.Deep, Zone (promoted from an embedded struct), the Extra of each
// item, Count (written as a JSON string), Until, and the label "big-only";
// big cannot hold small's Legacy. Hidden is no JSON field.
type big struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              bigSpec   `json:"spec,omitempty"`
	Status            bigStatus `json:"status,omitempty"`
}

type bigSpec struct {
	Title       string            `json:"title"`
	Labels      map[string]string `json:"labels,omitempty"`
	Items       []bigItem         `json:"items,omitempty"`
	Inner       bigInner          `json:"inner"`
	bigEmbedded                   // promoted: zone
	Hidden      string            `json:"-"`
	Count       int64             `json:"count,string"`
	Until       *metav1.Time      `json:"until,omitempty"`
}

type bigEmbedded struct {
	Zone string `json:"zone,omitempty"`
}

type bigInner struct {
	Keep string            `json:"keep"`
	Deep string            `json:"deep,omitempty"`
	Q    resource.Quantity `json:"q"`
}

type bigItem struct {
	Name  string `json:"name"`
	Extra string `json:"extra,omitempty"`
}

type bigStatus struct {
	Phase string `json:"phase,omitempty"`
}

type small struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              smallSpec `json:"spec,omitempty"`
	Status            bigStatus `json:"status,omitempty"`
}

type smallSpec struct {
	Title  string            `json:"title"`
	Labels map[string]string `json:"labels,omitempty"`
	Items  []string          `json:"items,omitempty"`
	Keep   string            `json:"keep"`
	Q      resource.Quantity `json:"q"`
	Legacy string            `json:"legacy,omitempty"`
}

const bigOnly = "big-only"

// bigToSmall and smallToBig share memory with their input where they can,
// as conversion-gen's functions do: metadata, the labels map when nothing
// is dropped from it, the status.
func bigToSmall(in *big, out *small, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Title = in.Spec.Title
	out.Spec.Labels = in.Spec.Labels
	if _, ok := in.Spec.Labels[bigOnly]; ok {
		out.Spec.Labels = maps.Clone(in.Spec.Labels)
		delete(out.Spec.Labels, bigOnly)
	}
	out.Spec.Items = nil
	for _, it := range in.Spec.Items {
		out.Spec.Items = append(out.Spec.Items, it.Name)
	}
	out.Spec.Keep, out.Spec.Q = in.Spec.Inner.Keep, in.Spec.Inner.Q
	out.Status = in.Status
	return nil
}

func smallToBig(in *small, out *big, _ conversion.Scope) error {
	out.ObjectMeta = in.ObjectMeta
	out.Spec.Title = in.Spec.Title
	out.Spec.Labels = in.Spec.Labels
	out.Spec.Items = nil
	for _, name := range in.Spec.Items {
		out.Spec.Items = append(out.Spec.Items, bigItem{Name: name})
	}
	out.Spec.Inner = bigInner{Keep: in.Spec.Keep, Q: in.Spec.Q}
	out.Status = in.Status
	return nil
}

func bigLost(in *big) bool {
	s := in.Spec
	_, labelLost := s.Labels[bigOnly]
	return labelLost || s.Inner.Deep != "" || s.Zone != "" || s.Count != 0 || s.Until != nil ||
		slices.ContainsFunc(s.Items, func(it bigItem) bool { return it.Extra != "" })
}

func smallLost(in *small) bool { return in.Spec.Legacy != "" }

var (
	bigToSmallDir = Checked("v2", "v1", bigToSmall, bigLost)
	smallToBigDir = Checked("v1", "v2", smallToBig, smallLost)
)

func fullBig() *big {
	until := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	return &big{
		ObjectMeta: metav1.ObjectMeta{Name: "b", Annotations: map[string]string{"mine": "1"}},
		Spec: bigSpec{
			Title:       "t",
			Labels:      map[string]string{"a": "1", bigOnly: "x"},
			Items:       []bigItem{{Name: "i", Extra: "ei"}, {Name: "j"}},
			Inner:       bigInner{Keep: "k", Deep: "d", Q: resource.MustParse("1500m")},
			bigEmbedded: bigEmbedded{Zone: "z"},
			Count:       5,
			Until:       &until,
		},
		Status: bigStatus{Phase: "Ready"},
	}
}

func convert[S, D any, PS Object[S], PD Object[D]](t *testing.T, src PS, there Direction[S, D], back Direction[D, S]) PD {
	t.Helper()
	dst := PD(new(D))
	if err := Convert(src, dst, there, back); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestTheSparseStashHoldsOnlyWhatIsLost(t *testing.T) {
	s := convert[big, small](t, fullBig(), bigToSmallDir, smallToBigDir)
	got := s.Annotations[Annotation("v2")]
	want := `sparse:{"spec":{"labels":{"a":"1","big-only":"x"},"items":[{"name":"i","extra":"ei"},{"name":"j"}],` +
		`"inner":{"deep":"d"},"zone":"z","count":"5","until":"2026-01-02T03:04:05Z"}}`
	if got != want {
		t.Errorf("stash\n got %s\nwant %s", got, want)
	}
	// What a crdforge before the sparse stash checks: neither a JSON
	// object nor gzip, so it leaves the stash alone.
	if strings.HasPrefix(got, "{") || strings.HasPrefix(got, "gzip:") {
		t.Errorf("an older crdforge would read the sparse stash as a full one: %s", got)
	}
}

func TestASparseStashRoundTripsExactly(t *testing.T) {
	src := fullBig()
	src.Spec.Hidden = "" // not JSON: no stash keeps it
	s := convert[big, small](t, src, bigToSmallDir, smallToBigDir)
	back := convert[small, big](t, s, smallToBigDir, bigToSmallDir)
	if !equality.Semantic.DeepEqual(back, src) { // the time comes back in the local zone
		t.Errorf("round trip\n got %+v\nwant %+v", back, src)
	}
}

func TestASparseStashKeepsChangesMadeInTheOtherVersion(t *testing.T) {
	src := fullBig()
	s := convert[big, small](t, src, bigToSmallDir, smallToBigDir)
	s.Spec.Title = "edited"             // not stashed: v1 holds it
	s.Spec.Items = []string{"renamed"}  // stashed leaf, changed: small's wins
	s.Spec.Labels = map[string]string{} // likewise
	back := convert[small, big](t, s, smallToBigDir, bigToSmallDir)
	if back.Spec.Title != "edited" || len(back.Spec.Items) != 1 || back.Spec.Items[0] != (bigItem{Name: "renamed"}) || len(back.Spec.Labels) != 0 {
		t.Errorf("an edit made through v1 was lost: %+v", back.Spec)
	}
	if back.Spec.Inner.Deep != "d" || back.Spec.Zone != "z" || back.Spec.Count != 5 || back.Spec.Until == nil {
		t.Errorf("stashed fields unchanged in v1 were not restored: %+v", back.Spec)
	}
	if back.Spec.Inner.Keep != "k" || back.Spec.Inner.Q.Cmp(resource.MustParse("1.5")) != 0 {
		t.Errorf("inner = %+v", back.Spec.Inner)
	}
	if _, ok := back.Annotations[Annotation("v2")]; ok || back.Annotations["mine"] != "1" {
		t.Errorf("annotations = %v", back.Annotations)
	}
}

// The destination of a conversion may share slices, maps and pointees with
// its source: restoring must not write into them.
func TestRestoringASparseStashLeavesTheSourceAlone(t *testing.T) {
	for _, edit := range []bool{false, true} {
		s := convert[big, small](t, fullBig(), bigToSmallDir, smallToBigDir)
		if edit {
			s.Spec.Labels = map[string]string{"a": "2"}
		}
		s.Spec.Items = append(s.Spec.Items[:0:0], s.Spec.Items...)
		before := s.DeepCopy()
		back := convert[small, big](t, s, smallToBigDir, bigToSmallDir)
		if !reflect.DeepEqual(s, before) {
			t.Errorf("edit %v: restoring changed the source:\n got %+v\nwant %+v", edit, s, before)
		}
		if want := map[string]string{"a": "1", bigOnly: "x"}; !edit && !maps.Equal(back.Spec.Labels, want) {
			t.Errorf("labels = %v, want %v", back.Spec.Labels, want)
		}
	}
}

func (in *small) DeepCopy() *small {
	b, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	var out small
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

func TestNothingIsStashedWhenTheRoundTripGivesTheDataBack(t *testing.T) {
	// The check says lossy (the label is there), the round trip does not
	// lose it: small holds it after all.
	lostAlways := Checked("v2", "v1", bigToSmall, func(*big) bool { return true })
	s := convert[big, small](t, &big{Spec: bigSpec{Title: "t"}}, lostAlways, smallToBigDir)
	if s.Annotations != nil {
		t.Errorf("annotations = %v", s.Annotations)
	}
}

func TestLargeSparseStashesAreCompressed(t *testing.T) {
	src := fullBig()
	src.Spec.Inner.Deep = strings.Repeat("deep and long ", 300)
	s := convert[big, small](t, src, bigToSmallDir, smallToBigDir)
	got := s.Annotations[Annotation("v2")]
	if !strings.HasPrefix(got, sparseGzipPrefix) || len(got) > 1024 {
		t.Fatalf("stash of %d bytes: %.40s...", len(got), got)
	}
	back := convert[small, big](t, s, smallToBigDir, bigToSmallDir)
	if back.Spec.Inner.Deep != src.Spec.Inner.Deep || back.Spec.Zone != "z" {
		t.Errorf("not restored: %+v", back.Spec)
	}
}

func TestACorruptSparseStashFailsTheConversion(t *testing.T) {
	for _, value := range []string{`sparse:{"spec":`, `sparse:[]`, `sparse:{"spec":{"count":5}}`, `sparse+gzip:!!`} {
		src := &small{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v2"): value}}}
		var dst big
		err := Convert(src, &dst, smallToBigDir, bigToSmallDir)
		if err == nil || !strings.Contains(err.Error(), Annotation("v2")) {
			t.Errorf("%s: err = %v, want one naming the annotation", value, err)
		}
	}
}

func TestUnknownFieldsOfASparseStashAreIgnored(t *testing.T) {
	src := &small{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v2"): `sparse:{"spec":{"zone":"z","gone":1},"other":{}}`}}}
	var dst big
	if err := Convert(src, &dst, smallToBigDir, bigToSmallDir); err != nil {
		t.Fatal(err)
	}
	if dst.Spec.Zone != "z" || dst.Annotations != nil {
		t.Errorf("got %+v", dst)
	}
}

// Stashes written by crdforge before the sparse stash hold the whole object,
// as JSON or gzipped; they are restored as they always were.
func TestAFullStashFromAnEarlierCrdforgeIsRestored(t *testing.T) {
	zipped := "gzip:H4sIAAAAAAAA/+zJuw2AMAwE0FWsq5kg2xhyfCQwkpMChNidMWiufg/CD6IgMIBXT0dB695WVhtv8zB67hvTpqzzmQtNLBaLxWKxWPwz4/0CAAD///YSrFfHCQAA"
	for _, c := range []struct{ name, value, extra string }{
		{"json", `{"name":"n","extra":"e"}`, "e"},
		{"gzip", zipped, strings.Repeat("stashed by an earlier crdforge ", 80)},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := &hub{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1alpha1"): c.value, "mine": "1"}}, Name: "n"}
			back := fromHubObj(t, src)
			if back.Extra != c.extra || back.Replicas != nil || back.Name != "n" {
				t.Errorf("restored %+v", back)
			}
			if len(back.Annotations) != 1 {
				t.Errorf("annotations = %v", back.Annotations)
			}
			if len(src.Annotations) != 2 {
				t.Errorf("the source's annotations changed: %v", src.Annotations)
			}
			// Edited through v1: the full stash's three-way merge keeps it.
			src.Replicas = 4
			if back := fromHubObj(t, src); back.Replicas == nil || *back.Replicas != 4 || back.Extra != c.extra {
				t.Errorf("after an edit, restored %+v", back)
			}
		})
	}
}

// The field names of the sparse stash are encoding/json's: every field it
// writes for a struct is one fieldsOf finds, in its order, with its value.
func TestFieldsAreNamedAsEncodingJSONNamesThem(t *testing.T) {
	type inner struct {
		A string `json:"a"`
	}
	type Embedded struct {
		B    string `json:"b"`
		Same string
		Deep string
	}
	type other struct {
		Same string // conflicts with Embedded's at the same depth: both dropped
		Deep string `json:"Deep"` // tagged, so it wins over Embedded.Deep
	}
	type tricky struct {
		Embedded
		other
		*inner       // promoted through a pointer
		Named  inner `json:",omitempty"`
		Skip   int   `json:"-"`
		Quoted int   `json:"q,string"`
		// Quoted behind a pointer, and nil values written as null
		// without encoding/json.
		QuotedPtr *int32         `json:"qp,string"`
		NilPtr    *int32         `json:"np,string"`
		NilList   []string       `json:"nl"`
		NilMap    map[string]int `json:"nm"`
		EmptyList []string       `json:"el"`
		lower     int
	}
	three := int32(3)
	v := tricky{Embedded: Embedded{B: "b", Same: "c1", Deep: "d1"}, other: other{Same: "c2", Deep: "d2"}, inner: &inner{A: "a"},
		Named: inner{A: "n"}, Skip: 1, Quoted: 3, QuotedPtr: &three, EmptyList: []string{}, lower: 5}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, _ := dec.Token()
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
		want = append(want, k.(string))
	}
	sf := fieldsOf(reflect.TypeOf((*tricky)(nil)).Elem())
	var got []string
	for _, f := range sf.fields {
		got = append(got, f.name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("fields %q, encoding/json writes %q (%s)", got, want, raw)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	w := &sparseWriter{}
	w.enc = json.NewEncoder(&w.buf)
	var direct []jsonField
	for _, f := range sf.fields {
		if !f.viaPointer {
			direct = append(direct, f)
		}
	}
	for _, f := range buildDiff(reflect.TypeOf(v), direct) {
		w.buf.Reset()
		if err := w.leaf(unsafe.Add(unsafe.Pointer(&v), f.offset), &f); err != nil {
			t.Fatal(err)
		}
		if w.buf.String() != string(obj[f.name]) {
			t.Errorf("field %s written as %s, encoding/json writes %s", f.name, w.buf.String(), obj[f.name])
		}
	}
}

func TestSparseStashingAllocatesLittle(t *testing.T) {
	src := fullBig()
	var s small
	if err := Convert(src, &s, bigToSmallDir, smallToBigDir); err != nil {
		t.Fatal(err)
	}
	fields, _ := rootDiff(reflect.TypeOf((*big)(nil)).Elem())
	var again big
	_ = smallToBig(&s, &again, nil)
	n := testing.AllocsPerRun(100, func() {
		s.Annotations = nil
		if _, err := stashSparse(&s, "v2", unsafe.Pointer(src), unsafe.Pointer(&again), fields); err != nil {
			t.Fatal(err)
		}
	})
	// The annotation value and map (2 + the map's buckets), the Time's and
	// Quantity's own JSON methods, and encoding/json's sorting of map keys.
	if n > 12 {
		t.Errorf("a sparse stash allocates %.0f times", n)
	}
}

// withPtr promotes fields through an embedded pointer, which may be nil: the
// sparse stash walks them as the root's own.
type withPtr struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	*PtrData
	Extra string `json:"extra,omitempty"`
}

type PtrData struct {
	Title string `json:"title,omitempty"`
}

func TestARootWithFieldsBehindAnEmbeddedPointerIsStashedSparsely(t *testing.T) {
	toHub := Checked("v0", "v1", func(in *withPtr, out *hub, _ conversion.Scope) error {
		out.ObjectMeta = in.ObjectMeta
		out.Replicas = 1
		if in.PtrData != nil {
			out.Name = in.Title
		}
		return nil
	}, func(in *withPtr) bool { return in.Extra != "" })
	fromHub := Checked("v1", "v0", func(in *hub, out *withPtr, _ conversion.Scope) error {
		out.ObjectMeta = in.ObjectMeta
		out.PtrData = &PtrData{Title: in.Name}
		return nil
	}, func(in *hub) bool { return in.Zone != "" || in.Replicas != 1 })
	src := &withPtr{PtrData: &PtrData{Title: "n"}, Extra: "e"}
	h := convert[withPtr, hub](t, src, toHub, fromHub)
	if got := h.Annotations[Annotation("v0")]; got != `sparse:{"extra":"e"}` {
		t.Errorf("stash = %s, want only the lost field", got)
	}
	back := convert[hub, withPtr](t, h, fromHub, toHub)
	if back.Extra != "e" || back.PtrData == nil || back.Title != "n" || back.Annotations != nil {
		t.Errorf("round trip gave %+v", back)
	}
}
