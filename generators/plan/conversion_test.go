package plan_test

import (
	"go/types"
	"strings"
	"sync"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/generators/plan"
)

// pairsModel builds the model of testdata/pairs once: v1 is the hub, v2 a
// spoke whose fields cover every kind of conversion.
var pairsModel = modelOnce("testdata/pairs")

// modelOnce builds the model of the case in dir the first time it is asked
// for; a case with errors is an error.
func modelOnce(dir string) func() (*model.Model, error) {
	return sync.OnceValues(func() (*model.Model, error) {
		res, err := pipeline.Generate(pipeline.Config{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			return nil, err
		}
		if res.Diags.HasErrors() {
			var msgs []string
			for _, d := range res.Diags.Items() {
				msgs = append(msgs, d.Format(""))
			}
			return nil, errorString(strings.Join(msgs, "\n"))
		}
		return res.Model, nil
	})
}

type errorString string

func (e errorString) Error() string { return string(e) }

// spoke returns the v2 spoke of a kind.
func spoke(t *testing.T, kind string) *model.Spoke {
	t.Helper()
	m, err := pairsModel()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Name == kind && len(k.Spokes) == 1 {
				return k.Spokes[0]
			}
		}
	}
	t.Fatalf("no kind %s with one spoke", kind)
	return nil
}

// pairOf finds a spoke's pair by the spoke type's name.
func pairOf(t *testing.T, s *model.Spoke, name string) *model.TypePair {
	t.Helper()
	for _, tp := range s.Pairs {
		if tp.Spoke.Obj().Name() == name {
			return tp
		}
	}
	t.Fatalf("no pair %s", name)
	return nil
}

func mappingOf(t *testing.T, tp *model.TypePair, field string) *model.Mapping {
	t.Helper()
	for _, m := range tp.Mappings {
		if m.Spoke.Name() == field {
			return m
		}
	}
	t.Fatalf("%s has no mapping for %s", tp.Spoke.Obj().Name(), field)
	return nil
}

func TestFieldConversionsAreClassifiedByType(t *testing.T) {
	spec := pairOf(t, spoke(t, "Thing"), "ThingSpec")
	tests := []struct {
		field             string
		toHub, toSpoke    model.ConvKind
		lossyTo, lossyFro bool // to the hub, back to the spoke
	}{
		{"Same", model.ConvAssign, model.ConvAssign, false, false},
		{"PtrToValue", model.ConvDeref, model.ConvAddr, true, false},
		{"ValueToPtr", model.ConvAddr, model.ConvDeref, false, true},
		// Enum growth is a cast both ways: values are checked by the schema,
		// not by the conversion.
		{"Color", model.ConvCast, model.ConvCast, false, false},
		// Items carry Extra, which v1 lacks.
		{"Items", model.ConvSlice, model.ConvSlice, true, false},
		{"ByName", model.ConvMap, model.ConvMap, true, false},
		// A foreign type with references is deep-copied.
		{"Since", model.ConvDeepCopy, model.ConvDeepCopy, false, false},
		{"Labels", model.ConvMap, model.ConvMap, false, false},
		// A foreign type against a string has no mechanical conversion.
		{"Timeout", model.ConvManual, model.ConvManual, true, true},
		// Moved into a nested struct behind a pointer.
		{"Host", model.ConvAssign, model.ConvAssign, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			m := mappingOf(t, spec, tt.field)
			if m.ToHub.Conv.Kind != tt.toHub || m.ToSpoke.Conv.Kind != tt.toSpoke {
				t.Errorf("kinds = %v, %v; want %v, %v", m.ToHub.Conv.Kind, m.ToSpoke.Conv.Kind, tt.toHub, tt.toSpoke)
			}
			if got := m.ToHub.Conv.Lossy(); got != tt.lossyTo {
				t.Errorf("lossy to the hub = %v, want %v", got, tt.lossyTo)
			}
			if got := m.ToSpoke.Conv.Lossy(); got != tt.lossyFro {
				t.Errorf("lossy to the spoke = %v, want %v", got, tt.lossyFro)
			}
		})
	}
}

func TestPairedStructsConvertThroughTheRightDirection(t *testing.T) {
	s := spoke(t, "Thing")
	items := mappingOf(t, pairOf(t, s, "ThingSpec"), "Items")
	item := pairOf(t, s, "Item")
	if got := items.ToHub.Conv.Elem.Dir; got != item.ToHub {
		t.Errorf("Items to the hub goes through %v, want Item's direction to the hub", got.Func)
	}
	if got := items.ToSpoke.Conv.Elem.Dir; got != item.ToSpoke {
		t.Errorf("Items to the spoke goes through %v, want Item's direction to the spoke", got.Func)
	}
	if item.ToHub.Reverse != item.ToSpoke || item.ToSpoke.Reverse != item.ToHub {
		t.Error("directions are not each other's reverse")
	}
	if item.ToHub.Func != "Convert_v2_Item_To_v1_Item" || item.ToSpoke.AutoFunc != "autoConvert_v1_Item_To_v2_Item" ||
		item.ToHub.LossyFunc != "lossy_v2_Item_To_v1_Item" {
		t.Errorf("names = %s, %s, %s", item.ToHub.Func, item.ToSpoke.AutoFunc, item.ToHub.LossyFunc)
	}
}

func TestMovedFieldsPathsAndWhatTheyLeaveBehind(t *testing.T) {
	spec := pairOf(t, spoke(t, "Thing"), "ThingSpec")
	host := mappingOf(t, spec, "Host")
	if got := pathOf(host.ToHub.Dest); got != "Network.Host" {
		t.Errorf("Host goes to %s", got)
	}
	if got := pathOf(host.ToSpoke.Source); got != "Network.Host" {
		t.Errorf("Host comes from %s", got)
	}
	if host.Whole {
		t.Error("Host is not a whole-struct mapping")
	}
	var nested, nils []string
	for _, p := range spec.ToSpoke.NestedSourceOnly {
		nested = append(nested, pathOf(p))
	}
	for _, p := range spec.ToSpoke.NilThrough {
		nils = append(nils, pathOf(p))
	}
	if strings.Join(nested, ",") != "Network.Proto" {
		t.Errorf("NestedSourceOnly = %v, want the one field of Network nothing maps", nested)
	}
	if strings.Join(nils, ",") != "Network" {
		t.Errorf("NilThrough = %v, want the pointer on the way", nils)
	}
	if len(spec.ToHub.NestedSourceOnly)+len(spec.ToHub.NilThrough) != 0 {
		t.Error("the direction to the hub loses nothing through moves")
	}
}

func TestFieldsWithoutCounterpart(t *testing.T) {
	spec := pairOf(t, spoke(t, "Thing"), "ThingSpec")
	if got := names(spec.ToHub.SourceOnly); got != "SpokeOnly" {
		t.Errorf("to the hub, source-only = %s", got)
	}
	if got := names(spec.ToSpoke.SourceOnly); got != "HubOnly" {
		t.Errorf("to the spoke, source-only = %s", got)
	}
}

func TestLossOfDirections(t *testing.T) {
	thing, secret := spoke(t, "Thing"), spoke(t, "Secret")
	tests := []struct {
		name string
		d    *model.Direction
		want model.Loss
	}{
		// Item.Extra is checked field by field.
		{"Item to the hub", pairOf(t, thing, "Item").ToHub, model.LossChecked},
		{"Item to the spoke", pairOf(t, thing, "Item").ToSpoke, model.LossNone},
		// ThingSpec has a field that needs a hand-written function: only a
		// round trip tells what that function lost.
		{"ThingSpec to the hub", pairOf(t, thing, "ThingSpec").ToHub, model.LossRoundTrip},
		{"Thing to the spoke", pairOf(t, thing, "Thing").ToSpoke, model.LossRoundTrip},
		// An opted-out field is converted by hand: round trip both ways.
		{"SecretSpec to the hub", pairOf(t, secret, "SecretSpec").ToHub, model.LossRoundTrip},
		{"Secret to the spoke", pairOf(t, secret, "Secret").ToSpoke, model.LossRoundTrip},
	}
	for _, tt := range tests {
		if tt.d.Loss != tt.want {
			t.Errorf("%s: loss = %v, want %v", tt.name, tt.d.Loss, tt.want)
		}
	}
	token := mappingOf(t, pairOf(t, secret, "SecretSpec"), "Token")
	if !token.OptOut {
		t.Error("Token is opted out with +k8s:conversion-gen=false")
	}
}

func TestManualFieldsAreListedPerDirection(t *testing.T) {
	spec := pairOf(t, spoke(t, "Thing"), "ThingSpec")
	for _, d := range spec.Directions() {
		fields, reasons := d.NeedsManual()
		if len(fields) != 1 || fields[0].Mapping.Spoke.Name() != "Timeout" {
			t.Fatalf("%s: manual fields = %d", d.Describe(), len(fields))
		}
		if !strings.Contains(reasons[0], "no mechanical conversion") {
			t.Errorf("%s: reason = %q", d.Describe(), reasons[0])
		}
	}
	want := "func Convert_v1_ThingSpec_To_v2_ThingSpec(in *v1.ThingSpec, out *ThingSpec, s conversion.Scope) error"
	if got := plan.Signature(spec.ToSpoke); got != want {
		t.Errorf("signature = %s", got)
	}
}

func pathOf(p []*types.Var) string { return names(p) }

// names joins field names with dots.
func names(fields []*types.Var) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name()
	}
	return strings.Join(out, ".")
}
