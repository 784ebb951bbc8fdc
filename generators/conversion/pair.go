package conversion

import (
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// errCheck wraps a call returning error: if err := call; err != nil { return err }.
func errCheck(call *jen.Statement) *jen.Statement {
	return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
}

// printDirection prints a pair's autoConvert_ function in one direction,
// its lossy_ check when the direction has one and, unless a hand-written
// function takes over or a field needs one, its Convert_ wrapper.
func printDirection(f *jen.File, d *model.Direction) {
	tp := d.Pair
	params := jen.Params(jen.Id("in").Op("*").Add(gotype.Qual(d.From)), jen.Id("out").Op("*").Add(gotype.Qual(d.To)), jen.Id("s").Qual(conversionPath, "Scope"))
	if tp.OptOut {
		if d.Manual != nil {
			f.Commentf("%s is hand-written: +k8s:conversion-gen=false opts %s out.", d.Func, tp.Spoke.Obj().Name())
		} else {
			f.Commentf("%s is not generated: +k8s:conversion-gen=false opts %s out; write it by hand.", d.Func, tp.Spoke.Obj().Name())
		}
		f.Line()
		return
	}
	if !d.Emit {
		f.Commentf("%s is not generated: nothing generated calls it (the entry points are hand-written), and it would call conversions written by hand that do not exist.", d.AutoFunc)
		f.Line()
		return
	}
	f.Func().Id(d.AutoFunc).Add(params.Clone()).Error().Block(autoBody(d)...)
	f.Line()

	if d.Loss == model.LossChecked && d.LossyCalled {
		printLossy(f, d)
	}
	fields, _ := d.NeedsManual()
	switch {
	case d.Manual != nil:
		f.Commentf("%s is hand-written.", d.Func)
		f.Line()
	case len(fields) > 0 && d.Needed:
		f.Commentf("%s is not generated: write it by hand (see the warnings above).", d.Func)
		f.Line()
	case len(fields) > 0:
		f.Commentf("%s is not generated: in.%s needs converting by hand, and nothing generated calls it.", d.Func, pathString(fields[0].Source))
		f.Line()
	default:
		f.Commentf("%s converts %s %s to %s %s.", d.Func, d.FromVersion.Name, d.From.Obj().Name(), d.ToVersion.Name, d.To.Obj().Name())
		f.Comment("Like conversion-gen's, its result may share memory with in.")
		f.Func().Id(d.Func).Add(params).Error().Block(
			jen.Return(jen.Id(d.AutoFunc).Call(jen.Id("in"), jen.Id("out"), jen.Id("s"))),
		)
		f.Line()
	}
}

// autoBody is the body of an autoConvert_ function: the root's metadata,
// then every field, then notes on fields with no counterpart.
func autoBody(d *model.Direction) []jen.Code {
	if d.SameLayout {
		return []jen.Code{
			jen.Commentf("%s %s and %s %s have one memory layout, and every field converts by copying: out shares in's memory.",
				d.FromVersion.Name, d.From.Obj().Name(), d.ToVersion.Name, d.To.Obj().Name()),
			jen.Op("*").Id("out").Op("=").Op("*").Parens(jen.Op("*").Add(gotype.Qual(d.To))).Parens(unsafePointer(jen.Id("in"))),
			jen.Return(jen.Nil()),
		}
	}
	var body []jen.Code
	for _, meta := range d.Pair.Meta {
		// As conversion-gen writes it, which hand-written conversions count
		// on (Cluster API's drop a data annotation from the source and
		// expect it gone from the destination): ObjectMeta (or a list's
		// ListMeta) assigned, maps shared, and TypeMeta left to whoever
		// asked for the conversion (a webhook sets the version it was asked
		// for).
		body = append(body, jen.Id("out").Dot(meta).Op("=").Id("in").Dot(meta))
	}
	for _, fc := range d.Fields {
		body = append(body, checkCode(d, fc)...)
		body = append(body, fieldCode(fc)...)
	}
	for _, f := range d.SourceOnly {
		body = append(body, jen.Commentf("in.%s has no counterpart in %s: a hand-written %s converts it, or the stash keeps it.", f.Name(), d.ToVersion.Name, d.Func))
	}
	return append(body, jen.Return(jen.Nil()))
}

// fieldCode converts one field: the value at the source path, guarded by
// the pointers on the way (a nil one gives the destination its zero value),
// into the destination path, allocating the pointers on the way.
func fieldCode(fc *model.FieldConv) []jen.Code {
	if fc.Mapping.OptOut {
		return []jen.Code{jen.Commentf("in.%s is opted out with +k8s:conversion-gen=false.", fc.Mapping.Spoke.Name())}
	}
	if ok, reason := fc.Conv.Manual(); ok {
		return []jen.Code{jen.Commentf("WARNING: in.%s requires manual conversion: %s", pathString(fc.Source), reason)}
	}
	if fc.Conv.Kind == model.ConvPair && (len(fc.Source) == 0 || len(fc.Dest) == 0) {
		// A struct converted whole to or from the enclosing struct.
		return []jen.Code{errCheck(jen.Id(fc.Conv.Dir.Func).Call(addr("in", fc.Source), addr("out", fc.Dest), jen.Id("s")))}
	}
	var code []jen.Code
	for i, f := range parents(fc.Dest) {
		if p, ok := f.Type().(*types.Pointer); ok {
			at := selector("out", fc.Dest[:i+1])
			code = append(code, jen.If(at.Clone().Op("==").Nil()).Block(at.Clone().Op("=").New(gotype.Expr(p.Elem()))))
		}
	}
	dst := selector("out", fc.Dest)
	stmts := append(convert(fc.Conv, selector("in", fc.Source), dst), dropCode(fc.Drop, dst)...)
	if !hasPointer(parents(fc.Source)) {
		return append(code, stmts...)
	}
	last := fc.Dest[len(fc.Dest)-1]
	return append(code, jen.If(nonNil(fc.Source)).Block(stmts...).Else().Block(dst.Clone().Op("=").Add(zero(last.Type()))))
}

// parents is a path without its last field: the structs on the way.
func parents(path []*types.Var) []*types.Var {
	if len(path) == 0 {
		return nil
	}
	return path[:len(path)-1]
}

// selector prints root.A.B.C for a path of fields.
func selector(root string, path []*types.Var) *jen.Statement {
	s := jen.Id(root)
	for _, f := range path {
		s = s.Dot(f.Name())
	}
	return s
}

// addr prints a pointer to the value at path: root itself, a pointer, for
// the empty path.
func addr(root string, path []*types.Var) *jen.Statement {
	if len(path) == 0 {
		return jen.Id(root)
	}
	return jen.Op("&").Add(selector(root, path))
}

func pathString(path []*types.Var) string {
	names := make([]string, len(path))
	for i, f := range path {
		names[i] = f.Name()
	}
	return strings.Join(names, ".")
}

func hasPointer(path []*types.Var) bool {
	for _, f := range path {
		if _, ok := f.Type().(*types.Pointer); ok {
			return true
		}
	}
	return false
}

// nonNil prints the test that every pointer on the way to the value at path
// from in is set.
func nonNil(path []*types.Var) *jen.Statement {
	var out *jen.Statement
	for i, f := range parents(path) {
		if _, ok := f.Type().(*types.Pointer); !ok {
			continue
		}
		test := selector("in", path[:i+1]).Op("!=").Nil()
		if out == nil {
			out = test
		} else {
			out = out.Op("&&").Add(test)
		}
	}
	return out
}
