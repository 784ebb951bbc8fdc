package lossless

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// old and hub are two versions of one kind: old has Extra, which hub lacks,
// and an optional Replicas that hub holds as a plain value; hub has Zone,
// which old lacks.
type old struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name     string `json:"name,omitempty"`
	Extra    string `json:"extra,omitempty"`
	Replicas *int32 `json:"replicas,omitempty"`
}

type hub struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Name     string `json:"name,omitempty"`
	Replicas int32  `json:"replicas"`
	Zone     string `json:"zone,omitempty"`
}

func oldToHub(in *old, out *hub, _ conversion.Scope) error {
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Name = in.Name
	out.Replicas = 0
	if in.Replicas != nil {
		out.Replicas = *in.Replicas
	}
	return nil
}

func hubToOld(in *hub, out *old, _ conversion.Scope) error {
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Name = in.Name
	r := in.Replicas
	out.Replicas = &r
	return nil
}

func oldLost(in *old) bool { return in.Extra != "" || in.Replicas == nil }
func hubLost(in *hub) bool { return in.Zone != "" }

// The generated pair, both directions checked by field.
var (
	toHub   = Checked("v1alpha1", "v1", oldToHub, oldLost)
	fromHub = Checked("v1", "v1alpha1", hubToOld, hubLost)
)

func toHubObj(t *testing.T, src *old) *hub {
	t.Helper()
	var dst hub
	if err := Convert(src, &dst, toHub, fromHub); err != nil {
		t.Fatal(err)
	}
	return &dst
}

func fromHubObj(t *testing.T, src *hub) *old {
	t.Helper()
	var dst old
	if err := Convert(src, &dst, fromHub, toHub); err != nil {
		t.Fatal(err)
	}
	return &dst
}

func ptr(i int32) *int32 { return &i }

func TestRoundTripThroughALossyVersionIsExact(t *testing.T) {
	src := &old{ObjectMeta: metav1.ObjectMeta{Name: "w", Annotations: map[string]string{"mine": "1"}}, Name: "n", Extra: "e"}
	h := toHubObj(t, src)
	if _, ok := h.Annotations[Annotation("v1alpha1")]; !ok {
		t.Fatalf("no stash on the hub object: %v", h.Annotations)
	}
	back := fromHubObj(t, h)
	if back.Extra != "e" || back.Replicas != nil || back.Name != "n" {
		t.Errorf("round trip gave %+v", back)
	}
	if len(back.Annotations) != 1 || back.Annotations["mine"] != "1" {
		t.Errorf("annotations = %v, want only the user's", back.Annotations)
	}
}

func TestNothingIsStashedWhenNothingIsLost(t *testing.T) {
	h := toHubObj(t, &old{Name: "n", Replicas: ptr(3)})
	if h.Annotations != nil {
		t.Errorf("annotations = %v", h.Annotations)
	}
}

func TestTheStashLeavesMetadataOut(t *testing.T) {
	h := toHubObj(t, &old{ObjectMeta: metav1.ObjectMeta{Name: "w", Labels: map[string]string{"a": "b"}}, Extra: "e"})
	got := h.Annotations[Annotation("v1alpha1")]
	if got != `sparse:{"extra":"e","replicas":null}` {
		t.Errorf("stash = %s", got)
	}
}

func TestRestoreKeepsChangesMadeInTheOtherVersion(t *testing.T) {
	h := toHubObj(t, &old{Name: "n", Extra: "e", Replicas: nil})
	h.Name = "changed" // edited through v1
	h.Replicas = 5     // likewise: the stashed nil must not come back
	back := fromHubObj(t, h)
	if back.Name != "changed" || back.Replicas == nil || *back.Replicas != 5 {
		t.Errorf("an edit made through v1 was lost: %+v", back)
	}
	if back.Extra != "e" {
		t.Errorf("Extra = %q: the stashed field untouched in v1 was not restored", back.Extra)
	}
}

func TestAStaleStashOfTheSourceVersionIsDropped(t *testing.T) {
	// An object of v1alpha1 carrying a v1alpha1 stash (copied by hand, say):
	src := &old{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1alpha1"): `{"extra":"stale"}`}}, Name: "n", Replicas: ptr(1)}
	h := toHubObj(t, src)
	if h.Annotations != nil {
		t.Errorf("annotations = %v: the stale stash survived", h.Annotations)
	}
}

func TestAStashOfAVersionThatNeverStashesIsDropped(t *testing.T) {
	never := Lossless("v1", "v1alpha1", hubToOld)
	src := &hub{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1alpha1"): `{"extra":"x"}`}}}
	var dst old
	// v1alpha1 → v1 never loses in this pairing, so a v1alpha1 stash on a v1
	// object cannot be current: converting to v1alpha1 drops it.
	if err := Convert(src, &dst, never, Lossless("v1alpha1", "v1", oldToHub)); err != nil {
		t.Fatal(err)
	}
	if dst.Annotations != nil || dst.Extra != "" {
		t.Errorf("got %+v", dst)
	}
}

func TestStashesOfOtherVersionsAndForeignAnnotationsAreLeftAlone(t *testing.T) {
	anns := map[string]string{
		Annotation("v1beta1"):         `{"other":"version"}`,
		"conversion.crdforge.io-x/v1": "look-alike",
		"example.com/conversion":      "{}",
	}
	src := &old{ObjectMeta: metav1.ObjectMeta{Annotations: anns}, Replicas: ptr(1)}
	h := toHubObj(t, src)
	back := fromHubObj(t, h)
	if len(back.Annotations) != len(anns) {
		t.Fatalf("annotations = %v", back.Annotations)
	}
	for k, v := range anns {
		if back.Annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, back.Annotations[k], v)
		}
	}
}

func TestAStashFromALaterCrdforgeIsLeftAlone(t *testing.T) {
	later := "zstd:KLUv/QBYAQAA"
	src := &hub{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1alpha1"): later}}, Replicas: 1}
	back := fromHubObj(t, src)
	if back.Annotations[Annotation("v1alpha1")] != later {
		t.Errorf("annotations = %v: a stash this version cannot read must stay for the one that can", back.Annotations)
	}
	// Nor is it dropped as stale on the way back.
	h := toHubObj(t, back)
	if h.Annotations[Annotation("v1alpha1")] != later {
		t.Errorf("annotations = %v", h.Annotations)
	}
}

func TestACorruptStashFailsTheConversion(t *testing.T) {
	src := &hub{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{Annotation("v1alpha1"): `{"extra":`}}}
	var dst old
	err := Convert(src, &dst, fromHub, toHub)
	if err == nil || !strings.Contains(err.Error(), Annotation("v1alpha1")) {
		t.Errorf("err = %v, want one naming the annotation", err)
	}
}

func TestRoundTripDirectionsStashOnlyWhenTheRoundTripDiffers(t *testing.T) {
	there, back := RoundTrip("v1alpha1", "v1", oldToHub), RoundTrip("v1", "v1alpha1", hubToOld)
	var dst hub
	if err := Convert(&old{Name: "n", Replicas: ptr(2)}, &dst, there, back); err != nil {
		t.Fatal(err)
	}
	if dst.Annotations != nil {
		t.Errorf("stashed although the round trip is exact: %v", dst.Annotations)
	}
	if err := Convert(&old{Name: "n", Extra: "e", Replicas: ptr(2)}, &dst, there, back); err != nil {
		t.Fatal(err)
	}
	var again old
	if err := Convert(&dst, &again, back, there); err != nil {
		t.Fatal(err)
	}
	if again.Extra != "e" {
		t.Errorf("Extra = %q after the round trip", again.Extra)
	}
}

func TestConversionErrorsComeBackUnchanged(t *testing.T) {
	boom := errors.New("boom")
	failing := Checked("v1alpha1", "v1", func(*old, *hub, conversion.Scope) error { return boom }, oldLost)
	var dst hub
	if err := Convert(&old{}, &dst, failing, fromHub); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func TestADirectionBuiltByHandIsRefused(t *testing.T) {
	var dst hub
	if err := Convert(&old{}, &dst, Direction[old, hub]{}, fromHub); !errors.Is(err, errIncomplete) {
		t.Errorf("err = %v", err)
	}
}

func TestConvertAllocatesNothingBeyondTheConversionWhenNothingIsLost(t *testing.T) {
	src := &old{ObjectMeta: metav1.ObjectMeta{Name: "w", Annotations: map[string]string{"mine": "1"}}, Name: "n", Replicas: ptr(2)}
	alone := testing.AllocsPerRun(100, func() {
		var dst hub
		_ = oldToHub(src, &dst, nil)
	})
	through := testing.AllocsPerRun(100, func() {
		var dst hub
		_ = Convert(src, &dst, toHub, fromHub)
	})
	// dst escapes through the generic call; nothing else may allocate: the
	// stash keys looked up are built on the stack.
	if through > alone+1 {
		t.Errorf("Convert allocates %.0f times, the conversion alone %.0f", through, alone)
	}
}

func TestConversionsLosingBothWaysLeaveNoStashAfterARoundTrip(t *testing.T) {
	// Each direction changes the name (a schedule joined, then split, say):
	// neither round trip is exact by itself.
	there := RoundTrip("v1", "v1alpha1", func(in *hub, out *old, _ conversion.Scope) error {
		in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
		out.Name = in.Name + "x"
		return nil
	})
	back := RoundTrip("v1alpha1", "v1", func(in *old, out *hub, _ conversion.Scope) error {
		in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
		out.Name = in.Name + "y"
		return nil
	})
	src := &hub{Name: "a"}
	var mid old
	if err := Convert(src, &mid, there, back); err != nil {
		t.Fatal(err)
	}
	var again hub
	if err := Convert(&mid, &again, back, there); err != nil {
		t.Fatal(err)
	}
	if again.Name != "a" || again.Annotations != nil {
		t.Errorf("after the round trip: name %q, annotations %v; want %q and none", again.Name, again.Annotations, "a")
	}
}

// Conversions written the conversion-gen way assign ObjectMeta, so source
// and destination share one annotation map: stashing on the destination,
// and restoring from it, must leave the source's map as it was.
func TestASharedAnnotationMapOfTheSourceIsLeftAlone(t *testing.T) {
	assign := func(in *old, out *hub, s conversion.Scope) error {
		if err := oldToHub(in, out, s); err != nil {
			return err
		}
		out.ObjectMeta = in.ObjectMeta
		return nil
	}
	assignBack := func(in *hub, out *old, s conversion.Scope) error {
		if err := hubToOld(in, out, s); err != nil {
			return err
		}
		out.ObjectMeta = in.ObjectMeta
		return nil
	}
	there := Checked("v1alpha1", "v1", assign, oldLost)
	back := Checked("v1", "v1alpha1", assignBack, hubLost)

	src := &old{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"mine": "1"}}, Extra: "e"}
	var h hub
	if err := Convert(src, &h, there, back); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Annotations[Annotation("v1alpha1")]; !ok {
		t.Fatalf("no stash on the hub object: %v", h.Annotations)
	}
	if len(src.Annotations) != 1 {
		t.Errorf("stashing changed the source's annotations: %v", src.Annotations)
	}
	var again old
	if err := Convert(&h, &again, back, there); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Annotations[Annotation("v1alpha1")]; !ok || again.Extra != "e" {
		t.Errorf("restoring changed the source's annotations (%v) or lost Extra (%q)", h.Annotations, again.Extra)
	}
}
