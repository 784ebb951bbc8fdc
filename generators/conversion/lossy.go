package conversion

import (
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// printLossy prints the check for data a direction cannot carry: non-zero
// fields the destination lacks, nil pointers it holds as values, and the
// same inside nested pairs. Only directions whose losses the types alone
// tell (model.LossChecked) get one; the runtime converts the others back to
// find out.
func printLossy(f *jen.File, d *model.Direction) {
	var body []loss
	for _, v := range d.SourceOnly {
		body = append(body, loss{cond: holdsData(d.From, v, selector("in", []*types.Var{v}))})
	}
	for _, p := range d.NilThrough {
		body = append(body, loss{cond: guarded(p, selector("in", p).Op("==").Nil())})
	}
	for _, p := range d.NestedSourceOnly {
		body = append(body, loss{cond: guarded(p, holdsData(parentStruct(d.From, p), p[len(p)-1], selector("in", p)))})
	}
	for _, fc := range d.Fields {
		if fc.Mapping.OptOut {
			continue
		}
		if drop := dropped(fc.Drop, selector("in", fc.Source)); drop != nil && fc.DropLoses {
			body = append(body, loss{cond: guarded(fc.Source, drop)})
		}
		if fc.LossCarried {
			continue // what its pair drops, d's other fields carry
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

// printLostIn prints the fields where a root direction's lossy_ check
// looks, for the lossless runtime (lossless.LostIn): its sparse stash then
// compares the source with its round trip in those fields alone.
func printLostIn(f *jen.File, d *model.Direction) {
	var paths []jen.Code
	for _, p := range lostIn(d, "") {
		paths = append(paths, jen.Lit(p))
	}
	f.Commentf("%s are the fields where %s looks.", lostInVar(d), d.LossyFunc)
	f.Var().Id(lostInVar(d)).Op("=").Qual(losslessPath, "LostIn").Types(gotype.Qual(d.From)).Call(paths...)
	f.Line()
}

// lostInVar names the variable printLostIn prints.
func lostInVar(d *model.Direction) string {
	return "lostIn_" + strings.TrimPrefix(d.LossyFunc, "lossy_")
}

// lostIn lists the fields printLossy's check reads, as selectors of Go
// field names from d's source type after prefix: every test it prints is
// of a field on one of these paths.
func lostIn(d *model.Direction, prefix string) []string {
	var out []string
	for _, v := range d.SourceOnly {
		out = append(out, prefix+v.Name())
	}
	for _, paths := range [][][]*types.Var{d.NilThrough, d.NestedSourceOnly} {
		for _, p := range paths {
			out = append(out, prefix+fieldPath(p))
		}
	}
	for _, fc := range d.Fields {
		switch {
		case fc.Mapping.OptOut:
		case fc.DropLoses:
			out = append(out, prefix+fieldPath(fc.Source)) // compared whole
		case fc.LossCarried: // the check does not look into it
		default:
			out = append(out, convLostIn(fc.Conv, prefix+fieldPath(fc.Source))...)
		}
	}
	return out
}

// convLostIn lists the fields lossyCode's check of c reads, for a value at
// path: inside a pair's struct, its own check's fields; anything else (a
// pointer, a slice, a map) is checked, and compared, whole.
func convLostIn(c *model.Conv, path string) []string {
	switch {
	case !c.Lossy():
		return nil
	case c.Kind == model.ConvPair:
		return lostIn(c.Dir, path+".")
	case c.Kind == model.ConvAddr:
		return convLostIn(c.Elem, path)
	}
	return []string{path}
}

// fieldPath joins the names of the fields on path with dots.
func fieldPath(path []*types.Var) string {
	names := make([]string, len(path))
	for i, v := range path {
		names[i] = v.Name()
	}
	return strings.Join(names, ".")
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

// holdsData prints the test that field f of struct type parent, at v,
// holds data its JSON shows: not its zero value, or, for a slice or map
// whose tag has no omitempty, not nil, since JSON writes an empty one ({}
// or []) apart from nil (issue 58, item 7: a spoke-only tags: {} was not
// stashed).
func holdsData(parent types.Type, f *types.Var, v *jen.Statement) *jen.Statement {
	switch f.Type().Underlying().(type) {
	case *types.Slice, *types.Map:
		if !omitsEmpty(parent, f) {
			return v.Clone().Op("!=").Nil()
		}
	}
	return nonZero(f.Type(), v)
}

// omitsEmpty reports whether field f of struct type parent has the
// omitempty option, which leaves an empty value out of JSON, as nil.
func omitsEmpty(parent types.Type, f *types.Var) bool {
	st, ok := parent.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == f {
			_, opts, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
			return slices.Contains(strings.Split(opts, ","), "omitempty")
		}
	}
	return false
}

// parentStruct is the struct type that holds the last field of path, a
// path from root: the type of the field before it, through a pointer.
func parentStruct(root types.Type, path []*types.Var) types.Type {
	if len(path) < 2 {
		return root
	}
	t := path[len(path)-2].Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	return t
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
