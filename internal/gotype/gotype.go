// Package gotype prints a go/types type as jennifer code, for the
// generators that write Go: every name qualified by its package's path, so
// that jennifer imports it under the file's alias.
package gotype

import (
	"fmt"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// Qual names a named type from the file's point of view.
func Qual(n *types.Named) *jen.Statement {
	if n.Obj().Pkg() == nil {
		return jen.Id(n.Obj().Name())
	}
	return jen.Qual(n.Obj().Pkg().Path(), n.Obj().Name())
}

// Expr prints a type. An unnamed struct keeps its fields' tags: a struct
// type with other tags would be another type.
func Expr(t types.Type) *jen.Statement {
	switch t := t.(type) {
	case *types.Named:
		return Qual(t)
	case *types.Alias:
		return Expr(types.Unalias(t))
	case *types.Basic:
		return jen.Id(t.Name())
	case *types.Pointer:
		return jen.Op("*").Add(Expr(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(Expr(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(Expr(t.Elem()))
	case *types.Map:
		return jen.Map(Expr(t.Key())).Add(Expr(t.Elem()))
	case *types.Struct:
		fields := make([]jen.Code, 0, t.NumFields())
		for i := range t.NumFields() {
			f := t.Field(i)
			field := Expr(f.Type())
			if !f.Embedded() {
				field = jen.Id(f.Name()).Add(field)
			}
			if tag := t.Tag(i); tag != "" {
				field.Op(rawTag(tag))
			}
			fields = append(fields, field)
		}
		return jen.Struct(fields...)
	}
	panic(fmt.Sprintf("crdforge: no type expression for %s", t))
}

// rawTag is a field tag as its author most likely wrote it, in back quotes,
// or quoted when it holds a back quote.
func rawTag(tag string) string {
	if strconv.CanBackquote(tag) {
		return "`" + tag + "`"
	}
	return strconv.Quote(tag)
}
