package v1

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// full is a Gauge whose every slice, map and pointer holds a nil element
// beside a set one, so that a copy that drops, shares or dereferences a nil
// one shows.
func full() *Gauge {
	q := func(s string) *resource.Quantity { v := resource.MustParse(s); return &v }
	tm := func(h int) *metav1.Time { v := metav1.NewTime(time.Date(2024, 1, 2, h, 0, 0, 0, time.UTC)); return &v }
	is := intstr.FromString("x")
	item := func() *Item { return &Item{Name: "i", Tags: []string{"t"}} }
	stamp := func() *Stamp { return &Stamp{Note: "n", Refs: []string{"r"}} }
	qr, tr, ir, sr := q("1"), tm(1), item(), stamp()
	qs := []*resource.Quantity{q("2"), nil}
	g := &Gauge{ObjectMeta: metav1.ObjectMeta{Name: "g"}}
	g.Spec = GaugeSpec{
		Quantities:    []*resource.Quantity{q("1"), nil},
		Times:         []*metav1.Time{tm(1), nil},
		Ints:          []*intstr.IntOrString{&is, nil},
		Items:         []*Item{item(), nil},
		Stamps:        []*Stamp{stamp(), nil},
		QuantityMap:   map[string]*resource.Quantity{"a": q("1"), "nil": nil},
		TimeMap:       map[string]*metav1.Time{"a": tm(1), "nil": nil},
		IntMap:        map[string]*intstr.IntOrString{"a": &is, "nil": nil},
		ItemMap:       map[string]*Item{"a": item(), "nil": nil},
		StampMap:      map[string]*Stamp{"a": stamp(), "nil": nil},
		QuantityRef:   &qr,
		TimeRef:       &tr,
		ItemRef:       &ir,
		StampRef:      &sr,
		QuantityGrid:  [][]*resource.Quantity{{q("3"), nil}, nil},
		QuantityLists: map[string][]*resource.Quantity{"a": {q("4"), nil}, "nil": nil},
		QuantityRefs:  &qs,
		TimeMaps:      []map[string]*metav1.Time{{"a": tm(2), "nil": nil}, nil},
		Amounts:       Amounts{q("5"), nil},
		AmountMap:     AmountMap{"a": q("6"), "nil": nil},
		Quantity:      q("7"),
		Limits:        []resource.Quantity{*q("8")},
		Requests:      map[string]resource.Quantity{"a": *q("9")},
		Start:         tm(3),
	}
	return g
}

// TestDeepCopyKeepsNilElements checks that every nil element, value and
// target is copied as nil, the rest as equal values.
func TestDeepCopyKeepsNilElements(t *testing.T) {
	orig := full()
	c, ok := orig.DeepCopyObject().(*Gauge)
	if !ok || !reflect.DeepEqual(c, orig) {
		t.Fatalf("the copy differs from the original:\n%+v\n%+v", c, orig)
	}
	var empty *resource.Quantity
	ref := &empty
	s := GaugeSpec{QuantityRef: ref}
	if got := s.DeepCopy(); got.QuantityRef == nil || *got.QuantityRef != nil || got.QuantityRef == ref {
		t.Errorf("a pointer to a nil pointer copies as %v, want a new pointer to nil", got.QuantityRef)
	}
}

// TestDeepCopySharesNothing changes every pointer target of the copy and
// checks that the original is as it was.
func TestDeepCopySharesNothing(t *testing.T) {
	orig := full()
	c := orig.DeepCopy()
	sp := &c.Spec
	later := metav1.NewTime(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	sp.Quantities[0].Add(resource.MustParse("1"))
	*sp.Times[0] = later
	*sp.Ints[0] = intstr.FromInt32(1)
	sp.Items[0].Tags[0] = "changed"
	sp.Stamps[0].Refs[0] = "changed"
	sp.QuantityMap["a"].Add(resource.MustParse("1"))
	*sp.TimeMap["a"] = later
	*sp.IntMap["a"] = intstr.FromInt32(1)
	sp.ItemMap["a"].Tags[0] = "changed"
	sp.StampMap["a"].Refs[0] = "changed"
	(*sp.QuantityRef).Add(resource.MustParse("1"))
	**sp.TimeRef = later
	(*sp.ItemRef).Tags[0] = "changed"
	(*sp.StampRef).Refs[0] = "changed"
	sp.QuantityGrid[0][0].Add(resource.MustParse("1"))
	sp.QuantityLists["a"][0].Add(resource.MustParse("1"))
	(*sp.QuantityRefs)[0].Add(resource.MustParse("1"))
	*sp.TimeMaps[0]["a"] = later
	sp.Amounts[0].Add(resource.MustParse("1"))
	sp.AmountMap["a"].Add(resource.MustParse("1"))
	sp.Quantity.Add(resource.MustParse("1"))
	sp.Limits[0].Add(resource.MustParse("1"))
	*sp.Start = later
	if want := full(); !reflect.DeepEqual(orig, want) {
		t.Errorf("changing the copy changed the original:\n%+v\nwant\n%+v", orig.Spec, want.Spec)
	}
}
