package plan_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/diag"
)

// decisions is the model of testdata/decisions, planned as the conversion
// generator asks, built once for every table test of this package's
// decisions: v1 is every kind's hub and storage version, v2 a spoke whose
// kinds each hold the cases of one decision (PairingSpec, FieldSpec,
// LossSpec, NarrowSpec, NoCounterpartSpec, and a kind per strategy case),
// v3 the spoke of Beta, whose Ref v2 holds, and common a struct v2 copies.
var decisions = sync.OnceValues(func() (*model.Model, *diag.List) {
	res, err := pipeline.Model(pipeline.Config{Dir: "testdata/decisions", Patterns: []string{"./..."}, Only: []string{"conversion"}})
	if err != nil {
		panic(err)
	}
	return res.Model, res.Diags
})

// decided returns the planned model, failing on any error: every case is
// one the planning settles, with warnings at most.
func decided(t *testing.T) (*model.Model, *diag.List) {
	t.Helper()
	m, diags := decisions()
	if diags.HasErrors() || m == nil {
		var msgs []string
		for _, d := range diags.Items() {
			msgs = append(msgs, d.Format(""))
		}
		t.Fatalf("testdata/decisions does not plan cleanly:\n%s", strings.Join(msgs, "\n"))
	}
	return m, diags
}

// kindOf finds a kind of the model by name.
func kindOf(t *testing.T, m *model.Model, name string) *model.Kind {
	t.Helper()
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if k.Name == name {
				return k
			}
		}
	}
	t.Fatalf("no kind %s", name)
	return nil
}

// pairNamed finds the pair whose spoke struct is spoke, in the spoke
// package of version ver ("v2", "v3").
func pairNamed(m *model.Model, ver, spoke string) *model.TypePair {
	for pkg, tps := range m.Pairs {
		if pkg.Name != ver {
			continue
		}
		for _, tp := range tps {
			if tp.Spoke.Obj().Name() == spoke && tp.HubVersion.Name != "metav1" {
				return tp
			}
		}
	}
	return nil
}

// v2Mapping finds the mapping of a v2 field, "Struct.Field".
func v2Mapping(t *testing.T, m *model.Model, field string) *model.Mapping {
	t.Helper()
	typ, name, _ := strings.Cut(field, ".")
	tp := pairNamed(m, "v2", typ)
	if tp == nil {
		t.Fatalf("no v2 pair %s", typ)
	}
	for _, mp := range tp.Mappings {
		if mp.Spoke.Name() == name {
			return mp
		}
	}
	t.Fatalf("%s has no mapping %s", typ, name)
	return nil
}

// convKinds names the conversion kinds for failure messages.
var convKinds = map[model.ConvKind]string{
	model.ConvAssign: "Assign", model.ConvCast: "Cast", model.ConvDeepCopy: "DeepCopy", model.ConvPair: "Pair",
	model.ConvPointer: "Pointer", model.ConvDeref: "Deref", model.ConvAddr: "Addr", model.ConvSlice: "Slice",
	model.ConvArray: "Array", model.ConvMap: "Map", model.ConvManual: "Manual", model.ConvFunc: "Func",
	model.ConvSameLayout: "SameLayout",
}

// losses names the losses for failure messages.
var losses = map[model.Loss]string{model.LossNone: "None", model.LossChecked: "Checked", model.LossRoundTrip: "RoundTrip"}
