package conversion

import (
	"go/types"

	"github.com/crdforge/crdforge/generators/internal/gotype"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/dave/jennifer/jen"
)

// printLossy prints the check for data a direction cannot carry: non-zero
// fields the destination lacks, nil pointers it holds as values, and the
// same inside nested pairs. Only directions whose losses the types alone
// tell (model.LossChecked) get one; the runtime converts the others back to
// find out.
func printLossy(f *jen.File, d *model.Direction) {
	var body []jen.Code
	for _, v := range d.SourceOnly {
		body = append(body, jen.If(nonZero(v.Type(), selector("in", []*types.Var{v}))).Block(jen.Return(jen.True())))
	}
	for _, p := range d.NilThrough {
		body = append(body, jen.If(guarded(p, selector("in", p).Op("==").Nil())).Block(jen.Return(jen.True())))
	}
	for _, p := range d.NestedSourceOnly {
		body = append(body, jen.If(guarded(p, nonZero(p[len(p)-1].Type(), selector("in", p)))).Block(jen.Return(jen.True())))
	}
	for _, fc := range d.Fields {
		if fc.Mapping.OptOut {
			continue
		}
		code := lossyCode(fc.Conv, selector("in", fc.Source), 0)
		if len(code) > 0 && hasPointer(parents(fc.Source)) {
			code = []jen.Code{jen.If(nonNil(fc.Source)).Block(code...)}
		}
		body = append(body, code...)
	}
	body = append(body, jen.Return(jen.False()))
	f.Commentf("%s reports whether in holds data the conversion drops.", d.LossyFunc)
	f.Func().Id(d.LossyFunc).Params(jen.Id("in").Op("*").Add(gotype.Qual(d.From))).Bool().Block(body...)
	f.Line()
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

// lossyCode prints statements that return true when converting src drops
// something.
func lossyCode(c *model.Conv, src *jen.Statement, depth int) []jen.Code {
	if !c.Lossy() {
		return nil
	}
	loopVar := loopVars[depth%len(loopVars)]
	switch c.Kind {
	case model.ConvDeref:
		return append([]jen.Code{jen.If(src.Clone().Op("==").Nil()).Block(jen.Return(jen.True()))},
			lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), depth)...)
	case model.ConvPair:
		return []jen.Code{jen.If(jen.Id(c.Dir.LossyFunc).Call(jen.Op("&").Add(src))).Block(jen.Return(jen.True()))}
	case model.ConvPointer:
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), depth)...)}
	case model.ConvAddr:
		return lossyCode(c.Elem, src, depth)
	case model.ConvSlice, model.ConvArray:
		return []jen.Code{jen.For(jen.Id(loopVar).Op(":=").Range().Add(src.Clone())).Block(
			lossyCode(c.Elem, src.Clone().Index(jen.Id(loopVar)), depth+1)...)}
	case model.ConvMap:
		v := "v" + loopVar
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id(v)).Op(":=").Range().Add(src.Clone())).Block(
			lossyCode(c.Elem, jen.Id(v), depth+1)...)}
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
