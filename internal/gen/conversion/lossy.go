package conversion

import (
	"go/types"

	"github.com/crdforge/crdforge/internal/gotype"
	"github.com/crdforge/crdforge/internal/model"
	"github.com/dave/jennifer/jen"
)

// printLossy prints the check for data a direction cannot carry: non-zero
// fields the destination lacks, nil pointers it holds as values, and the
// same inside nested pairs. Only directions whose losses the types alone
// tell (model.LossChecked) get one; the runtime converts the others back to
// find out.
func printLossy(f *jen.File, d *model.Direction) {
	var body []loss
	for _, v := range d.SourceOnly {
		body = append(body, loss{cond: nonZero(v.Type(), selector("in", []*types.Var{v}))})
	}
	for _, p := range d.NilThrough {
		body = append(body, loss{cond: guarded(p, selector("in", p).Op("==").Nil())})
	}
	for _, p := range d.NestedSourceOnly {
		body = append(body, loss{cond: guarded(p, nonZero(p[len(p)-1].Type(), selector("in", p)))})
	}
	for _, fc := range d.Fields {
		if fc.Mapping.OptOut {
			continue
		}
		code := lossyCode(fc.Conv, selector("in", fc.Source), 0)
		if len(code) > 0 && hasPointer(parents(fc.Source)) {
			code = []loss{{code: jen.If(nonNil(fc.Source)).Block(stmts(code)...)}}
		}
		body = append(body, code...)
	}
	// The last test is the function's result: no if that returns true
	// before a return false.
	last := jen.False()
	if n := len(body); n > 0 && body[n-1].cond != nil {
		body, last = body[:n-1], body[n-1].cond
	}
	f.Commentf("%s reports whether in holds data the conversion drops.", d.LossyFunc)
	f.Func().Id(d.LossyFunc).Params(jen.Id("in").Op("*").Add(gotype.Qual(d.From))).Bool().Block(
		append(stmts(body), jen.Return(last))...)
	f.Line()
}

// A loss is one statement of a lossy_ function: "if cond { return true }"
// when cond is set, else code.
type loss struct {
	cond, code *jen.Statement
}

// stmts prints ls.
func stmts(ls []loss) []jen.Code {
	out := make([]jen.Code, len(ls))
	for i, l := range ls {
		if l.cond != nil {
			out[i] = jen.If(l.cond).Block(jen.Return(jen.True()))
		} else {
			out[i] = l.code
		}
	}
	return out
}

// guarded prefixes cond with non-nil tests of the pointers on the way to
// the value at path.
func guarded(path []*types.Var, cond *jen.Statement) *jen.Statement {
	if guard := nonNil(path); guard != nil {
		return guard.Op("&&").Add(cond)
	}
	return cond
}

var loopVars = []string{"i", "j", "k", "l", "m", "n"}

// lossyCode is the statements that return true when converting src drops
// something.
func lossyCode(c *model.Conv, src *jen.Statement, depth int) []loss {
	if !c.Lossy() {
		return nil
	}
	loopVar := loopVars[depth%len(loopVars)]
	switch c.Kind {
	case model.ConvDeref:
		return append([]loss{{cond: src.Clone().Op("==").Nil()}}, lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), depth)...)
	case model.ConvPair:
		return []loss{{cond: jen.Id(c.Dir.LossyFunc).Call(jen.Op("&").Add(src))}}
	case model.ConvPointer:
		return []loss{{code: jen.If(src.Clone().Op("!=").Nil()).Block(stmts(lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), depth))...)}}
	case model.ConvAddr:
		return lossyCode(c.Elem, src, depth)
	case model.ConvSlice, model.ConvArray:
		return []loss{{code: jen.For(jen.Id(loopVar).Op(":=").Range().Add(src.Clone())).Block(
			stmts(lossyCode(c.Elem, src.Clone().Index(jen.Id(loopVar)), depth+1))...)}}
	case model.ConvMap:
		v := "v" + loopVar
		return []loss{{code: jen.For(jen.List(jen.Id("_"), jen.Id(v)).Op(":=").Range().Add(src.Clone())).Block(
			stmts(lossyCode(c.Elem, jen.Id(v), depth+1))...)}}
	}
	return nil
}

// nonZero prints a test that a value of t is not its zero value: a
// comparison where Go has one, reflection for the rest.
func nonZero(t types.Type, v *jen.Statement) *jen.Statement {
	switch t.Underlying().(type) {
	case *types.Basic:
		return v.Clone().Op("!=").Add(zero(t))
	case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		return v.Clone().Op("!=").Nil()
	case *types.Slice, *types.Map:
		return jen.Len(v.Clone()).Op("!=").Lit(0)
	}
	if _, named := t.(*types.Named); named && types.Comparable(t) {
		return v.Clone().Op("!=").Parens(zero(t))
	}
	return jen.Op("!").Qual("reflect", "ValueOf").Call(jen.Op("&").Add(v)).Dot("Elem").Call().Dot("IsZero").Call()
}
