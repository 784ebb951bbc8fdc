package conversion

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// convert prints statements that set dst from src. A value that converts
// by sharing memory (model.Conv.SameMemory) is assigned or read as the
// destination type; everything else is converted part by part into new
// memory.
func convert(c *model.Conv, src, dst *jen.Statement) []jen.Code {
	if c.SameMemory() {
		return []jen.Code{share(c, src, dst)}
	}
	switch c.Kind {
	case model.ConvCast:
		// Integers of different sizes: model.Guard guards the narrowing ones.
		return []jen.Code{dst.Clone().Op("=").Add(gotype.Expr(c.To)).Parens(src)}
	case model.ConvPair:
		return []jen.Code{errCheck(jen.Id(c.Dir.Func).Call(jen.Op("&").Add(src), jen.Op("&").Add(dst), jen.Id("s")))}
	case model.ConvFunc:
		// A hand-written function of a peer package, or one generated in
		// another package's conversion file, which this one imports.
		path, name := c.Callee()
		return []jen.Code{errCheck(jen.Qual(path, name).Call(jen.Op("&").Add(src), jen.Op("&").Add(dst), jen.Id("s")))}
	case model.ConvPointer:
		return nilable(src, dst,
			jen.Op("*").Id("out").Op("=").New(gotype.Expr(c.Elem.To)),
			elem(c.Elem, jen.Op("**").Id("in"), jen.Op("**").Id("out")))
	case model.ConvDeref:
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			inOut(src, dst),
			elem(c.Elem, jen.Op("**").Id("in"), jen.Op("*").Id("out")),
		).Else().Block(dst.Clone().Op("=").Add(zero(c.To)))}
	case model.ConvAddr:
		// A value becomes a pointer: the pointer is new, what it points to
		// may share memory like any other value.
		return []jen.Code{jen.Block(
			inOut(src, dst),
			jen.Op("*").Id("out").Op("=").New(gotype.Expr(c.Elem.To)),
			elem(c.Elem, jen.Op("*").Id("in"), jen.Op("**").Id("out")),
		)}
	case model.ConvSlice:
		return nilable(src, dst, jen.Op("*").Id("out").Op("=").Make(gotype.Expr(c.To), jen.Len(jen.Op("*").Id("in"))),
			jen.For(jen.Id("i").Op(":=").Range().Op("*").Id("in")).Block(convert(c.Elem, jen.Parens(jen.Op("*").Id("in")).Index(jen.Id("i")), jen.Parens(jen.Op("*").Id("out")).Index(jen.Id("i")))...))
	case model.ConvArray:
		return []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Add(src.Clone())).Block(
			convert(c.Elem, src.Clone().Index(jen.Id("i")), dst.Clone().Index(jen.Id("i")))...,
		)}
	case model.ConvMap:
		return nilable(src, dst,
			jen.Op("*").Id("out").Op("=").Make(gotype.Expr(c.To), jen.Len(jen.Op("*").Id("in"))),
			jen.For(jen.List(jen.Id("key"), jen.Id("val")).Op(":=").Range().Op("*").Id("in")).Block(mapEntry(c)...))
	}
	return []jen.Code{jen.Commentf("WARNING: no conversion for %s", c.Reason)}
}

// share prints the conversion of a value that shares memory with its
// source: an assignment between the same types, a cast between basic types
// of one kind, and otherwise a read of the source's memory as the
// destination type, which model.Conv.SameMemory allows only where the two
// have one layout. The result shares the source's slices, maps and
// pointers, as conversion-gen's does.
func share(c *model.Conv, src, dst *jen.Statement) jen.Code {
	switch {
	case types.Identical(c.From, c.To):
		return dst.Clone().Op("=").Add(src)
	case c.Kind == model.ConvCast:
		return dst.Clone().Op("=").Add(gotype.Expr(c.To)).Parens(src)
	}
	if _, ok := c.To.(*types.Pointer); ok {
		return dst.Clone().Op("=").Parens(gotype.Expr(c.To)).Parens(unsafePointer(src))
	}
	return dst.Clone().Op("=").Op("*").Parens(jen.Op("*").Add(gotype.Expr(c.To))).Parens(unsafePointer(jen.Op("&").Add(src)))
}

// unsafePointer prints unsafe.Pointer(p).
func unsafePointer(p *jen.Statement) *jen.Statement {
	return jen.Qual("unsafe", "Pointer").Call(p)
}

// inOut binds in and out to pointers to src and dst, for the statements of
// a nested conversion.
func inOut(src, dst *jen.Statement) jen.Code {
	return jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst))
}

// nilable prints the conversion of a value that can be nil: nil stays nil,
// otherwise body runs with in and out bound.
func nilable(src, dst *jen.Statement, body ...jen.Code) []jen.Code {
	return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(append([]jen.Code{inOut(src, dst)}, body...)...).
		Else().Block(dst.Clone().Op("=").Nil())}
}

// mapEntry converts one map entry, key and val, into *out.
func mapEntry(c *model.Conv) []jen.Code {
	key := jen.Id("key")
	if c.Key.Kind == model.ConvCast {
		key = gotype.Expr(c.Key.To).Parens(jen.Id("key"))
	}
	if c.Elem.Kind == model.ConvAssign {
		return []jen.Code{jen.Parens(jen.Op("*").Id("out")).Index(key).Op("=").Id("val")}
	}
	loop := []jen.Code{jen.Var().Id("newVal").Add(gotype.Expr(c.Elem.To))}
	loop = append(loop, convert(c.Elem, jen.Id("val"), jen.Id("newVal"))...)
	return append(loop, jen.Parens(jen.Op("*").Id("out")).Index(key).Op("=").Id("newVal"))
}

// elem converts the element behind pointers held in in/out locals. Only an
// index on a dereference needs parentheses.
func elem(c *model.Conv, src, dst *jen.Statement) jen.Code {
	if c.Kind == model.ConvArray && !c.SameMemory() {
		src, dst = jen.Parens(src), jen.Parens(dst)
	}
	return jen.Add(convert(c, src, dst)...)
}

// zero prints the zero value of t.
func zero(t types.Type) *jen.Statement {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			if _, named := t.(*types.Named); named {
				return gotype.Expr(t).Parens(jen.Lit(""))
			}
			return jen.Lit("")
		case u.Info()&types.IsBoolean != 0:
			return jen.False()
		default:
			return jen.Lit(0)
		}
	case *types.Struct, *types.Array:
		return gotype.Expr(t).Values()
	}
	return jen.Nil()
}
