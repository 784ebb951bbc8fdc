package conversion

import (
	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
)

// A field whose JSON leaves out, on one side only, values the other side's
// writes (model.Drop, generators/plan/jsondrops.go) converts them to what
// JSON reads back, nil, so that a conversion in memory gives what the API
// server would hold; where the destination's JSON drops them, the lossy_
// check reports them, and the stash keeps them for the way back.

// dropCode is the statement that sets dst, the converted value, to nil
// where the destination's JSON would leave it out.
func dropCode(d model.Drop, dst *jen.Statement) []jen.Code {
	if cond := dropped(d, dst); cond != nil {
		return []jen.Code{jen.If(cond).Block(dst.Clone().Op("=").Nil())}
	}
	return nil
}

// dropped is the test that v holds a value d drops, an empty, non-nil
// slice or map; nil when d drops nothing.
func dropped(d model.Drop, v *jen.Statement) *jen.Statement {
	if d == model.DropEmpty {
		return v.Clone().Op("!=").Nil().Op("&&").Len(v.Clone()).Op("==").Lit(0)
	}
	return nil
}
