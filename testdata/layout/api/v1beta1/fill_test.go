package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/layout/api/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs gives the round-trip tests values both versions
// accept: modes v1 allows, counts an int32 holds.
func conversionFillFuncs() []any {
	modes := []string{"", "A", "B"}
	return []any{
		func(n *Narrowed, c randfill.Continue) { n.Mode = Mode(modes[c.Intn(len(modes))]) },
		func(n *v1.Narrowed, c randfill.Continue) { n.Mode = v1.Mode(modes[c.Intn(len(modes))]) },
		func(r *v1.Resized, c randfill.Continue) { r.Count = int64(c.Int31()) - int64(c.Int31()) },
	}
}
