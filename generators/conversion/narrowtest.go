package conversion

import (
	"fmt"
	"go/types"
	"math"
	"math/big"
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// NarrowingFillFuncsName is the generated function that fills the fields
// whose conversion narrows (model.Guard) with values both versions accept:
// the round-trip tests use it, so that a narrowing the author accepted does
// not turn them red with values the conversion rightly refuses.
const NarrowingFillFuncsName = "crdforgeNarrowingFillFuncs"

const randfillPath = "sigs.k8s.io/randfill"

// narrowed is a field whose conversion checks its value: the direction
// that checks it and the field conversion with its check.
type narrowed struct {
	d  *model.Direction
	fc *model.FieldConv
	// owner is the struct that holds the source field; field is that field.
	owner *types.Named
	field *types.Var
}

// narrowings returns the checked fields of the spokes' pairs whose
// generated autoConvert_ holds the check, in the order the pairs and their
// fields come.
func narrowings(spokes []*model.Spoke) []narrowed {
	var out []narrowed
	seen := map[*model.TypePair]bool{}
	for _, s := range spokes {
		for _, tp := range s.Pairs {
			if seen[tp] || tp.OptOut {
				continue
			}
			seen[tp] = true
			for _, d := range tp.Directions() {
				if manual, _ := d.NeedsManual(); !d.Emit || len(manual) > 0 {
					continue
				}
				for _, fc := range d.Fields {
					if n, ok := narrowedField(d, fc); ok {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}

// narrowedField describes fc's check, when it has one that a fill function
// can satisfy: on a string or integer field, or a pointer to one, of a
// named struct.
func narrowedField(d *model.Direction, fc *model.FieldConv) (narrowed, bool) {
	if fc.Guard == nil {
		return narrowed{}, false
	}
	owner, field, ok := fillable(d.From, fc.Source, fc.Guard)
	if !ok {
		return narrowed{}, false
	}
	return narrowed{d: d, fc: fc, owner: owner, field: field}, true
}

// fillable returns the struct that holds the field at path from root, and
// the field, when a fill function can give it a value chk accepts.
func fillable(root *types.Named, path []*types.Var, chk *model.Guard) (*types.Named, *types.Var, bool) {
	if len(path) == 0 {
		return nil, nil, false
	}
	owner := root
	if len(path) > 1 {
		n, ok := types.Unalias(pointee(path[len(path)-2].Type())).(*types.Named)
		if !ok {
			return nil, nil, false
		}
		owner = n
	}
	field := path[len(path)-1]
	b, ok := pointee(field.Type()).Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsString|types.IsInteger) == 0 || chk.Enum != nil && b.Info()&types.IsString == 0 {
		return nil, nil, false
	}
	return owner, field, true
}

// pointee is t, or what it points to.
func pointee(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// fillTarget is a field a fill function sets to a value chk accepts.
type fillTarget struct {
	owner *types.Named
	field *types.Var
	chk   *model.Guard
}

// fillTargets are the checked fields, and, on the other side of each
// conversion, the fields they convert to: random objects of the destination
// version hold what its schema accepts, as the API server's objects do, and
// those convert back.
func fillTargets(ns []narrowed) []fillTarget {
	var out []fillTarget
	add := func(t fillTarget) {
		if !slices.ContainsFunc(out, func(u fillTarget) bool { return u.owner == t.owner && u.field == t.field }) {
			out = append(out, t)
		}
	}
	for _, n := range ns {
		add(fillTarget{n.owner, n.field, n.fc.Guard})
		if owner, field, ok := fillable(n.d.To, n.fc.Dest, n.fc.Guard); ok {
			add(fillTarget{owner, field, n.fc.Guard})
		}
	}
	return out
}

// printNarrowingFillFuncs prints NarrowingFillFuncsName: for each struct
// with fill targets, a randfill function that fills it as usual and then
// sets each target to an accepted value.
func printNarrowingFillFuncs(f *jen.File, ns []narrowed) {
	var owners []*types.Named
	byOwner := map[*types.Named][]fillTarget{}
	for _, t := range fillTargets(ns) {
		if byOwner[t.owner] == nil {
			owners = append(owners, t.owner)
		}
		byOwner[t.owner] = append(byOwner[t.owner], t)
	}
	funcs := make([]jen.Code, 0, len(owners))
	for _, o := range owners {
		body := []jen.Code{jen.Id("c").Dot("FillNoCustom").Call(jen.Id("s"))}
		for _, t := range byOwner[o] {
			body = append(body, setAccepted(t))
		}
		funcs = append(funcs, jen.Line().Func().Params(jen.Id("s").Op("*").Add(gotype.Qual(o)), jen.Id("c").Qual(randfillPath, "Continue")).Block(body...))
	}
	funcs = append(funcs, jen.Line())
	f.Commentf("%s fills each field whose conversion narrows, on both", NarrowingFillFuncsName)
	f.Comment("sides, with a value both versions accept, so that the round trips test")
	f.Comment("what converts; the TestNarrowing_ tests check that other values fail.")
	f.Commentf("Where the package has %s, those come after these and win", FillFuncsName)
	f.Comment("for the types they fill.")
	f.Func().Id(NarrowingFillFuncsName).Params().Index().Any().Block(
		jen.Return(jen.Index().Any().Values(funcs...)),
	)
	f.Line()
}

// setAccepted sets the target field of s to a random value its check
// accepts; an optional pointer stays nil when the filler left it nil.
func setAccepted(n fillTarget) jen.Code {
	chk, t := n.chk, pointee(n.field.Type())
	sel := jen.Id("s").Dot(n.field.Name())
	var val *jen.Statement
	switch {
	case chk.Enum != nil:
		vals := make([]jen.Code, len(chk.Enum))
		for i, v := range chk.Enum {
			vals[i] = jen.Lit(v)
		}
		val = as(t, jen.Index().String().Values(vals...).Index(jen.Id("c").Dot("Intn").Call(jen.Lit(len(chk.Enum)))))
	case chk.Min != nil || chk.Max != nil:
		lo, span := acceptedRange(chk, t.Underlying().(*types.Basic))
		val = as(t, jen.Lit(int(lo)).Op("+").Id("c").Dot("Int63n").Call(jen.Lit(int(span))))
	}
	_, ptr := n.field.Type().(*types.Pointer)
	switch {
	case !ptr && val != nil:
		return sel.Op("=").Add(val)
	case !ptr:
		return jen.Null()
	case val == nil: // required, nothing else to satisfy
		return jen.If(sel.Clone().Op("==").Nil()).Block(sel.Clone().Op("=").New(gotype.Expr(t)))
	case chk.Required:
		return jen.Block(jen.Id("v").Op(":=").Add(val), sel.Clone().Op("=").Op("&").Id("v"))
	}
	return jen.If(sel.Clone().Op("!=").Nil()).Block(jen.Op("*").Add(sel.Clone()).Op("=").Add(val))
}

// as converts v, a string or an int64, to t, unless t is that type.
func as(t types.Type, v *jen.Statement) *jen.Statement {
	if b, ok := t.(*types.Basic); ok && (b.Kind() == types.String || b.Kind() == types.Int64) {
		return v
	}
	return gotype.Expr(t).Call(v)
}

// acceptedRange is the lowest value the check accepts and how many values
// from there a fill draws, within what the field's type holds. A side the
// check leaves open draws at most 2^31 values beyond the other: near the
// bound that matters, as a user's values are.
func acceptedRange(chk *model.Guard, b *types.Basic) (lo, span int64) {
	tmin, tmax := typeRange(b)
	l, h := big.NewInt(tmin), big.NewInt(tmax)
	if chk.Min != nil && *chk.Min > tmin {
		l.SetInt64(*chk.Min)
	}
	if chk.Max != nil && *chk.Max < tmax {
		h.SetInt64(*chk.Max)
	}
	const open = 1 << 31
	switch {
	case chk.Min == nil && chk.Max != nil:
		if w := new(big.Int).Sub(h, big.NewInt(open)); w.Cmp(l) > 0 {
			l = w
		}
	case chk.Max == nil && chk.Min != nil:
		if w := new(big.Int).Add(l, big.NewInt(open)); w.Cmp(h) < 0 {
			h = w
		}
	}
	n := new(big.Int).Sub(h, l)
	n.Add(n, big.NewInt(1))
	if !n.IsInt64() {
		return l.Int64(), math.MaxInt64
	}
	return l.Int64(), n.Int64()
}

// typeRange is the range of an integer type that int64 can hold.
func typeRange(b *types.Basic) (lo, hi int64) {
	switch b.Kind() {
	case types.Int8:
		return math.MinInt8, math.MaxInt8
	case types.Int16:
		return math.MinInt16, math.MaxInt16
	case types.Int32:
		return math.MinInt32, math.MaxInt32
	case types.Uint8:
		return 0, math.MaxUint8
	case types.Uint16:
		return 0, math.MaxUint16
	case types.Uint32:
		return 0, math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		return 0, math.MaxInt64
	}
	return math.MinInt64, math.MaxInt64
}

// printNarrowingTests prints, for each direction with checked fields, a
// test that sets each such field, in an object otherwise filled with
// accepted values, to one the destination refuses, and expects the
// direction's autoConvert_ to fail naming the field.
func printNarrowingTests(f *jen.File, ns []narrowed, userFill bool) {
	var dirs []*model.Direction
	byDir := map[*model.Direction][]narrowed{}
	for _, n := range ns {
		if byDir[n.d] == nil {
			dirs = append(dirs, n.d)
		}
		byDir[n.d] = append(byDir[n.d], n)
	}
	for _, d := range dirs {
		var cases []jen.Code
		for _, n := range byDir[d] {
			if c := refusedCase(n); c != nil {
				cases = append(cases, c)
			}
		}
		if len(cases) == 0 {
			continue
		}
		printNarrowingTest(f, d, cases, userFill)
	}
}

func printNarrowingTest(f *jen.File, d *model.Direction, cases []jen.Code, userFill bool) {
	in := gotype.Qual(d.From)
	fills := jen.Id(NarrowingFillFuncsName).Call()
	if userFill {
		fills = jen.Append(fills, jen.Id(FillFuncsName).Call().Op("..."))
	}
	name := "TestNarrowing_" + d.AutoFunc[len("autoConvert_"):]
	f.Commentf("%s checks that a value %s does not allow", name, d.ToVersion.Name)
	f.Comment("fails the conversion with an error naming its field, rather than being")
	f.Comment("written.")
	f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("fill").Op(":=").Qual(randfillPath, "New").Call().Dot("NilChance").Call(jen.Lit(0)).Dot("Funcs").Call(
			jen.Append(jen.Qual(conversionTestPath, "DefaultFillFuncs").Call(), fills.Op("...")).Op("...")),
		jen.For(jen.List(jen.Id("_"), jen.Id("tc")).Op(":=").Range().Index().Struct(
			jen.Id("field").String(),
			jen.Id("set").Func().Params(jen.Id("in").Op("*").Add(in.Clone())),
			jen.Id("want").String(),
		).Values(append(cases, jen.Line())...)).Block(
			jen.Id("in").Op(":=").New(in.Clone()),
			jen.Id("fill").Dot("Fill").Call(jen.Id("in")),
			jen.Id("tc").Dot("set").Call(jen.Id("in")),
			jen.Id("err").Op(":=").Id(d.AutoFunc).Call(jen.Id("in"), jen.New(gotype.Qual(d.To)), jen.Nil()),
			jen.If(jen.Id("err").Op("==").Nil().Op("||").Op("!").Qual("strings", "Contains").Call(jen.Id("err").Dot("Error").Call(), jen.Id("tc").Dot("want"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("%s: got %v, want an error with %q"), jen.Id("tc").Dot("field"), jen.Id("err"), jen.Id("tc").Dot("want")),
			),
		),
	)
	f.Line()
}

// refusedCase is the test case that sets n's field to a value its check
// refuses, with the start of the error expected; nil when the field's
// type holds no such value.
func refusedCase(n narrowed) jen.Code {
	chk, d := n.fc.Guard, n.d
	where := fmt.Sprintf("field %s (%s %s.%s): %s ", chk.Path, d.FromVersion.Name, d.From.Obj().Name(), pathString(n.fc.Source), d.ToVersion.Name)
	t := pointee(n.field.Type())
	_, ptr := n.field.Type().(*types.Pointer)
	var bad *jen.Statement
	want := where + "allows only " + chk.Describe()
	switch {
	case chk.Enum != nil:
		v := "crdforge-refused"
		for slices.Contains(chk.Enum, v) {
			v += "-"
		}
		bad = jen.Lit(v)
	case chk.Min != nil || chk.Max != nil:
		tmin, tmax := typeRange(t.Underlying().(*types.Basic))
		switch {
		case chk.Min != nil && *chk.Min > tmin && (!chk.ZeroOK || *chk.Min-1 != 0):
			bad = jen.Lit(int(*chk.Min - 1))
		case chk.Max != nil && *chk.Max < tmax && (!chk.ZeroOK || *chk.Max+1 != 0):
			bad = jen.Lit(int(*chk.Max + 1))
		}
	}
	var set []jen.Code
	for i, p := range parents(n.fc.Source) { // allocate what the path goes through
		if pt, ok := p.Type().(*types.Pointer); ok {
			sel := selector("in", n.fc.Source[:i+1])
			set = append(set, jen.If(sel.Clone().Op("==").Nil()).Block(sel.Clone().Op("=").New(gotype.Expr(pt.Elem()))))
		}
	}
	sel := selector("in", n.fc.Source)
	switch {
	case bad != nil && ptr:
		set = append(set, jen.Id("v").Op(":=").Add(gotype.Expr(t).Call(bad)), sel.Op("=").Op("&").Id("v"))
	case bad != nil:
		set = append(set, sel.Op("=").Add(bad))
	case chk.Required && ptr:
		set = append(set, sel.Op("=").Nil())
		want = where + "requires a value"
	default:
		return nil
	}
	return jen.Line().Values(jen.Lit(pathString(n.fc.Source)), jen.Func().Params(jen.Id("in").Op("*").Add(gotype.Qual(d.From))).Block(set...), jen.Lit(want))
}
