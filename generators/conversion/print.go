package conversion

import (
	"fmt"
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/dave/jennifer/jen"
)

// errCheck wraps a call returning error: if err := call; err != nil { return err }.
func errCheck(call *jen.Statement) *jen.Statement {
	return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
}

// convertCall calls a pair's public conversion in a direction.
func convertCall(tp *model.TypePair, toHub bool, in, out jen.Code) *jen.Statement {
	return jen.Id(tp.FuncName(toHub)).Call(in, out, jen.Id("s"))
}

// printEntry prints the spoke's ConvertTo (toHub) or ConvertFrom: convert,
// stash what the other side cannot hold, restore what an earlier conversion
// the other way stashed.
func printEntry(f *jen.File, s *model.Spoke, root *model.TypePair, toHub bool) {
	spoke, hub := root.Spoke.Obj().Name(), qual(root.Hub)
	sv, hv := s.Version.Name, root.HubVersion.Name
	method, recv, raw, other, failure := "ConvertTo", "src", "dstRaw", "dst", "converting "+sv+" "+spoke
	doc := fmt.Sprintf("ConvertTo converts this %s to the hub version, %s.", spoke, hv)
	if !toHub {
		method, recv, raw, other, failure = "ConvertFrom", "dst", "srcRaw", "src", "converting to "+sv+" "+spoke
		doc = fmt.Sprintf("ConvertFrom converts a hub (%s) %s to this version, %s.", hv, root.Hub.Obj().Name(), sv)
	}
	f.Comment(doc)
	f.Func().Params(jen.Id(recv).Op("*").Id(spoke)).Id(method).Params(jen.Id(raw).Qual(ctrlConversionPath, "Hub")).Error().Block(
		jen.List(jen.Id(other), jen.Id("ok")).Op(":=").Id(raw).Assert(jen.Op("*").Add(hub)),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(failure+": the hub is *"+hv+"."+root.Hub.Obj().Name()+", not %T"), jen.Id(raw))),
		),
		jen.Var().Id("s").Qual(conversionPath, "Scope"),
		errCheck(convertCall(root, toHub, jen.Id("src"), jen.Id("dst"))),
		stashAndRestore(root, toHub),
		jen.Return(jen.Nil()),
	)
	if !toHub {
		f.Var().Id("_").Qual(ctrlConversionPath, "Convertible").Op("=").Op("&").Id(spoke).Values()
	}
	f.Line()
}

// stashAndRestore prints, after the conversion src → dst, the code that
// keeps the round trip exact:
//
//  1. drop a stale stash of src's own version from dst;
//  2. when the direction can lose data, convert dst back, and if that does
//     not give src's data again, stash src in dst's annotations;
//  3. when dst's version stashed data on src earlier, restore it.
func stashAndRestore(root *model.TypePair, toHub bool) jen.Code {
	srcVersion, dstVersion := root.SpokeVersion.Name, root.HubVersion.Name
	srcType, dstType := jen.Id(root.Spoke.Obj().Name()), qual(root.Hub)
	lossy, dstLossy := root.LossyToHub, root.LossyToSpoke
	if !toHub {
		srcVersion, dstVersion = dstVersion, srcVersion
		srcType, dstType = dstType, srcType
		lossy, dstLossy = dstLossy, lossy
	}
	meta := jen.Op("&").Id("dst").Dot("ObjectMeta")
	// Keys are constant expressions: no string is built per call.
	srcKey := jen.Qual(runtimePath, "StashAnnotationPrefix").Op("+").Lit(srcVersion)
	dstKey := jen.Qual(runtimePath, "StashAnnotationPrefix").Op("+").Lit(dstVersion)
	var code []jen.Code
	code = append(code,
		jen.Comment("A stash of "+srcVersion+" data on a "+srcVersion+" object is stale: drop it."),
		jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(runtimePath, "Unstash").Call(meta, srcKey.Clone(), jen.Nil()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)
	if lossy && !root.Dynamic(toHub) {
		code = append(code,
			jen.Comment("Stash what "+dstVersion+" cannot hold."),
			jen.If(jen.Id(root.LossyFuncName(toHub)).Call(jen.Id("src"))).Block(
				jen.Id("data").Op(":=").Op("*").Id("src"),
				jen.List(jen.Id("data").Dot("TypeMeta"), jen.Id("data").Dot("ObjectMeta")).Op("=").List(jen.Qual(metav1Path, "TypeMeta").Values(), jen.Qual(metav1Path, "ObjectMeta").Values()),
				errCheck(jen.Qual(runtimePath, "Stash").Call(meta, srcKey.Clone(), jen.Op("&").Id("data"))),
			),
		)
	} else if lossy {
		code = append(code,
			jen.Comment("Stash what "+dstVersion+" cannot hold, when converting back would lose it."),
			jen.Var().Id("back").Add(srcType.Clone()),
			errCheck(convertCall(root, !toHub, jen.Id("dst"), jen.Op("&").Id("back"))),
			jen.If(jen.Op("!").Qual(runtimePath, "SameData").Call(jen.Id("src"), jen.Op("&").Id("back"))).Block(
				jen.Id("data").Op(":=").Op("*").Id("src"),
				jen.List(jen.Id("data").Dot("TypeMeta"), jen.Id("data").Dot("ObjectMeta")).Op("=").List(jen.Qual(metav1Path, "TypeMeta").Values(), jen.Qual(metav1Path, "ObjectMeta").Values()),
				errCheck(jen.Qual(runtimePath, "Stash").Call(meta, srcKey.Clone(), jen.Op("&").Id("data"))),
			),
		)
	}
	if !dstLossy {
		code = append(code,
			jen.Comment(dstVersion+" data is never stashed: drop a stale stash."),
			jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(runtimePath, "Unstash").Call(meta, dstKey.Clone(), jen.Nil()), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
		return jen.Block(code...)
	}
	code = append(code,
		jen.Comment("Restore the "+dstVersion+" data an earlier conversion from "+dstVersion+" stashed, where it was not changed since."),
		jen.If(jen.Qual(runtimePath, "HasStash").Call(meta, dstKey.Clone())).Block(
			jen.Var().Id("saved").Add(dstType.Clone()),
			jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(runtimePath, "Unstash").Call(meta, dstKey.Clone(), jen.Op("&").Id("saved")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err()),
			),
			jen.Var().Id("through").Add(srcType.Clone()),
			jen.Var().Id("base").Add(dstType.Clone()),
			errCheck(convertCall(root, !toHub, jen.Op("&").Id("saved"), jen.Op("&").Id("through"))),
			errCheck(convertCall(root, toHub, jen.Op("&").Id("through"), jen.Op("&").Id("base"))),
			jen.Qual(runtimePath, "Restore").Call(jen.Id("dst"), jen.Op("&").Id("base"), jen.Op("&").Id("saved")),
		),
	)
	return jen.Block(code...)
}

// printLossy prints the check for data a direction cannot carry: non-zero
// fields the destination lacks, nil pointers it holds as values, and the
// same inside nested pairs. Only directions whose losses the types alone
// tell get one; the others convert back to find out.
func printLossy(f *jen.File, tp *model.TypePair, toHub bool) {
	if !tp.Lossy(toHub) || tp.Dynamic(toHub) {
		return
	}
	in := jen.Op("*").Id(tp.Spoke.Obj().Name())
	if !toHub {
		in = jen.Op("*").Add(qual(tp.Hub))
	}
	var body []jen.Code
	for _, f := range tp.SourceOnly(toHub) {
		body = append(body, jen.If(nonZero(f.Type(), jen.Id("in").Dot(f.Name()))).Block(jen.Return(jen.True())))
	}
	if !toHub {
		for _, p := range tp.MovedThrough {
			body = append(body, jen.If(guarded(p[:len(p)-1], selector(p).Op("==").Nil())).Block(jen.Return(jen.True())))
		}
		for _, p := range tp.NestedHubOnly {
			last := p[len(p)-1]
			body = append(body, jen.If(guarded(p[:len(p)-1], nonZero(last.Type(), selector(p)))).Block(jen.Return(jen.True())))
		}
	}
	for _, m := range tp.Mappings {
		c, src := m.ToHub, jen.Id("in").Dot(m.Spoke.Name())
		if !toHub {
			c, src = m.ToSpoke, selector(m.HubPath)
		}
		code := lossyCode(c, src, toHub, 0)
		if !toHub && len(code) > 0 && hasPointer(m.HubPath[:len(m.HubPath)-1]) {
			code = []jen.Code{jen.If(guarded(m.HubPath[:len(m.HubPath)-1], jen.True())).Block(code...)}
		}
		body = append(body, code...)
	}
	body = append(body, jen.Return(jen.False()))
	f.Commentf("%s reports whether in holds data the conversion drops.", tp.LossyFuncName(toHub))
	f.Func().Id(tp.LossyFuncName(toHub)).Params(jen.Id("in").Add(in)).Bool().Block(body...)
	f.Line()
}

// selector prints in.A.B.C for a path of fields.
func selector(path []*types.Var) *jen.Statement {
	s := jen.Id("in")
	for _, f := range path {
		s = s.Dot(f.Name())
	}
	return s
}

func hasPointer(path []*types.Var) bool {
	for _, f := range path {
		if _, ok := f.Type().(*types.Pointer); ok {
			return true
		}
	}
	return false
}

// guarded prefixes cond with non-nil tests of the pointers along path.
func guarded(path []*types.Var, cond *jen.Statement) *jen.Statement {
	var out *jen.Statement
	for i, f := range path {
		if _, ok := f.Type().(*types.Pointer); ok {
			test := selector(path[:i+1]).Op("!=").Nil()
			if out == nil {
				out = test
			} else {
				out = out.Op("&&").Add(test)
			}
		}
	}
	if out == nil {
		return cond
	}
	return out.Op("&&").Add(cond)
}

var loopVars = []string{"i", "j", "k", "l", "m", "n"}

// lossyCode prints statements that return true when converting src drops
// something.
func lossyCode(c *model.Conv, src *jen.Statement, toHub bool, depth int) []jen.Code {
	if !c.Lossy(toHub) {
		return nil
	}
	loopVar := loopVars[depth%len(loopVars)]
	switch c.Kind {
	case model.ConvDeref:
		return append([]jen.Code{jen.If(src.Clone().Op("==").Nil()).Block(jen.Return(jen.True()))},
			lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), toHub, depth)...)
	case model.ConvPair:
		return []jen.Code{jen.If(jen.Id(c.Pair.LossyFuncName(toHubOf(c))).Call(jen.Op("&").Add(src))).Block(jen.Return(jen.True()))}
	case model.ConvPointer:
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(lossyCode(c.Elem, jen.Parens(jen.Op("*").Add(src)), toHub, depth)...)}
	case model.ConvAddr:
		return lossyCode(c.Elem, src, toHub, depth)
	case model.ConvSlice, model.ConvArray:
		return []jen.Code{jen.For(jen.Id(loopVar).Op(":=").Range().Add(src.Clone())).Block(
			lossyCode(c.Elem, src.Clone().Index(jen.Id(loopVar)), toHub, depth+1)...)}
	case model.ConvMap:
		v := "v" + loopVar
		return []jen.Code{jen.For(jen.List(jen.Id("_"), jen.Id(v)).Op(":=").Range().Add(src.Clone())).Block(
			lossyCode(c.Elem, jen.Id(v), toHub, depth+1)...)}
	}
	return nil
}

// nonZero prints a test that a value of t is not its zero value.
func nonZero(t types.Type, v *jen.Statement) *jen.Statement {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return v.Clone().Op("!=").Add(zero(t))
	case *types.Pointer, *types.Interface, *types.Signature, *types.Chan:
		return v.Clone().Op("!=").Nil()
	case *types.Slice, *types.Map:
		return jen.Len(v.Clone()).Op("!=").Lit(0)
	default:
		_ = u
		return jen.Op("!").Qual(runtimePath, "IsZero").Call(jen.Op("&").Add(v))
	}
}

// printPair prints a pair's autoConvert_ function in a direction and, unless
// a hand-written one takes over or a field needs one, its Convert_ wrapper.
func printPair(f *jen.File, tp *model.TypePair, toHub bool) {
	in, out := jen.Op("*").Id(tp.Spoke.Obj().Name()), jen.Op("*").Add(qual(tp.Hub))
	from, to := tp.SpokeVersion.Name, tp.HubVersion.Name
	if !toHub {
		in, out = out, in
		from, to = to, from
	}
	params := jen.Params(jen.Id("in").Add(in), jen.Id("out").Add(out), jen.Id("s").Qual(conversionPath, "Scope"))
	if tp.OptOut {
		if tp.Manual(toHub) != nil {
			f.Commentf("%s is hand-written: +k8s:conversion-gen=false opts %s out.", tp.FuncName(toHub), tp.Spoke.Obj().Name())
		} else {
			f.Commentf("%s is not generated: +k8s:conversion-gen=false opts %s out; write it by hand.", tp.FuncName(toHub), tp.Spoke.Obj().Name())
		}
		f.Line()
		return
	}

	var body []jen.Code
	if tp.Root() {
		v := tp.HubVersion
		if !toHub {
			v = tp.SpokeVersion
		}
		body = append(body,
			jen.Id("out").Dot("TypeMeta").Op("=").Qual(metav1Path, "TypeMeta").Values(jen.Dict{
				jen.Id("APIVersion"): jen.Lit(v.Kind.Group + "/" + v.Name),
				jen.Id("Kind"):       jen.Lit(v.Kind.Name),
			}),
			jen.Id("in").Dot("ObjectMeta").Dot("DeepCopyInto").Call(jen.Op("&").Id("out").Dot("ObjectMeta")),
		)
	}
	for _, m := range tp.Mappings {
		body = append(body, mappingCode(m, toHub, from, to)...)
	}
	only := tp.HubOnly
	if toHub {
		only = tp.SpokeOnly
	}
	for _, f := range only {
		body = append(body, jen.Commentf("in.%s has no counterpart in %s: a hand-written %s converts it, or the stash keeps it.", f.Name(), to, tp.FuncName(toHub)))
	}
	body = append(body, jen.Return(jen.Nil()))
	f.Func().Id(tp.AutoFuncName(toHub)).Add(params.Clone()).Error().Block(body...)
	f.Line()

	printLossy(f, tp, toHub)
	fields, _ := tp.NeedsManual(toHub)
	switch {
	case tp.Manual(toHub) != nil:
		f.Commentf("%s is hand-written.", tp.FuncName(toHub))
		f.Line()
	case len(fields) > 0:
		f.Commentf("%s is not generated: write it by hand (see the warnings above).", tp.FuncName(toHub))
		f.Line()
	default:
		f.Commentf("%s converts %s %s to %s %s.", tp.FuncName(toHub), from, nameOf(tp, toHub, true), to, nameOf(tp, toHub, false))
		f.Func().Id(tp.FuncName(toHub)).Add(params).Error().Block(
			jen.Return(jen.Id(tp.AutoFuncName(toHub)).Call(jen.Id("in"), jen.Id("out"), jen.Id("s"))),
		)
		f.Line()
	}
}

func nameOf(tp *model.TypePair, toHub, source bool) string {
	if toHub == source {
		return tp.Spoke.Obj().Name()
	}
	return tp.Hub.Obj().Name()
}

// mappingCode converts one field in a direction.
func mappingCode(m *model.Mapping, toHub bool, from, to string) []jen.Code {
	name := m.Spoke.Name()
	if m.OptOut {
		return []jen.Code{jen.Commentf("in.%s is opted out with +k8s:conversion-gen=false.", name)}
	}
	c := m.ToSpoke
	if toHub {
		c = m.ToHub
	}
	if ok, reason := c.Manual(); ok {
		src := name
		if !toHub {
			src = hubPathString(m)
		}
		return []jen.Code{jen.Commentf("WARNING: in.%s requires manual conversion: %s", src, reason)}
	}
	if len(m.HubPath) == 0 {
		// The spoke field's struct converts to the enclosing hub struct.
		if toHub {
			return []jen.Code{errCheck(convertCall(c.Pair, true, jen.Op("&").Id("in").Dot(name), jen.Id("out")))}
		}
		return []jen.Code{errCheck(convertCall(c.Pair, false, jen.Id("in"), jen.Op("&").Id("out").Dot(name)))}
	}
	if toHub {
		var code []jen.Code
		dst := jen.Id("out")
		for i, f := range m.HubPath {
			dst = dst.Clone().Dot(f.Name())
			if i < len(m.HubPath)-1 {
				if p, ok := f.Type().(*types.Pointer); ok {
					code = append(code, jen.If(dst.Clone().Op("==").Nil()).Block(dst.Clone().Op("=").New(typeExpr(p.Elem()))))
				}
			}
		}
		return append(code, convert(c, jen.Id("in").Dot(name), dst)...)
	}
	src := jen.Id("in")
	var guards []jen.Code
	for i, f := range m.HubPath {
		src = src.Clone().Dot(f.Name())
		if _, ok := f.Type().(*types.Pointer); ok && i < len(m.HubPath)-1 {
			guards = append(guards, src.Clone().Op("!=").Nil())
		}
	}
	stmts := convert(c, src, jen.Id("out").Dot(name))
	if len(guards) == 0 {
		return stmts
	}
	cond := guards[0]
	for _, g := range guards[1:] {
		cond = jen.Add(cond).Op("&&").Add(g)
	}
	return []jen.Code{jen.If(cond).Block(stmts...).Else().Block(jen.Id("out").Dot(name).Op("=").Add(zero(m.Spoke.Type())))}
}

func hubPathString(m *model.Mapping) string {
	s := ""
	for i, f := range m.HubPath {
		if i > 0 {
			s += "."
		}
		s += f.Name()
	}
	return s
}

// convert prints statements that set dst from src.
func convert(c *model.Conv, src, dst *jen.Statement) []jen.Code {
	switch c.Kind {
	case model.ConvAssign:
		return []jen.Code{dst.Clone().Op("=").Add(src)}
	case model.ConvCast:
		return []jen.Code{dst.Clone().Op("=").Add(typeExpr(c.To)).Parens(src)}
	case model.ConvDeepCopy:
		return []jen.Code{src.Clone().Dot("DeepCopyInto").Call(jen.Op("&").Add(dst))}
	case model.ConvPair:
		return []jen.Code{errCheck(jen.Id(c.Pair.FuncName(toHubOf(c))).Call(jen.Op("&").Add(src), jen.Op("&").Add(dst), jen.Id("s")))}
	case model.ConvPointer:
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst)),
			jen.Op("*").Id("out").Op("=").New(typeExpr(c.Elem.To)),
			elem(c.Elem, jen.Op("**").Id("in"), jen.Op("**").Id("out")),
		).Else().Block(dst.Clone().Op("=").Nil())}
	case model.ConvDeref:
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst)),
			elem(c.Elem, jen.Op("**").Id("in"), jen.Op("*").Id("out")),
		).Else().Block(dst.Clone().Op("=").Add(zero(c.To)))}
	case model.ConvAddr:
		return []jen.Code{jen.Block(
			jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst)),
			jen.Op("*").Id("out").Op("=").New(typeExpr(c.Elem.To)),
			elem(c.Elem, jen.Op("*").Id("in"), jen.Op("**").Id("out")),
		)}
	case model.ConvSlice:
		inner := jen.For(jen.Id("i").Op(":=").Range().Op("*").Id("in")).Block(convert(c.Elem, jen.Parens(jen.Op("*").Id("in")).Index(jen.Id("i")), jen.Parens(jen.Op("*").Id("out")).Index(jen.Id("i")))...)
		if c.Elem.Kind == model.ConvAssign {
			inner = jen.Copy(jen.Op("*").Id("out"), jen.Op("*").Id("in"))
		}
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst)),
			jen.Op("*").Id("out").Op("=").Make(typeExpr(c.To), jen.Len(jen.Op("*").Id("in"))),
			inner,
		).Else().Block(dst.Clone().Op("=").Nil())}
	case model.ConvArray:
		return []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Add(src.Clone())).Block(
			convert(c.Elem, src.Clone().Index(jen.Id("i")), dst.Clone().Index(jen.Id("i")))...,
		)}
	case model.ConvMap:
		key := jen.Id("key")
		if c.Key.Kind == model.ConvCast {
			key = typeExpr(c.Key.To).Parens(jen.Id("key"))
		}
		var loop []jen.Code
		if c.Elem.Kind == model.ConvAssign {
			loop = []jen.Code{jen.Parens(jen.Op("*").Id("out")).Index(key).Op("=").Id("val")}
		} else {
			loop = append(loop, jen.Var().Id("newVal").Add(typeExpr(c.Elem.To)))
			loop = append(loop, convert(c.Elem, jen.Id("val"), jen.Id("newVal"))...)
			loop = append(loop, jen.Parens(jen.Op("*").Id("out")).Index(key).Op("=").Id("newVal"))
		}
		return []jen.Code{jen.If(src.Clone().Op("!=").Nil()).Block(
			jen.List(jen.Id("in"), jen.Id("out")).Op(":=").List(jen.Op("&").Add(src), jen.Op("&").Add(dst)),
			jen.Op("*").Id("out").Op("=").Make(typeExpr(c.To), jen.Len(jen.Op("*").Id("in"))),
			jen.For(jen.List(jen.Id("key"), jen.Id("val")).Op(":=").Range().Op("*").Id("in")).Block(loop...),
		).Else().Block(dst.Clone().Op("=").Nil())}
	}
	return []jen.Code{jen.Commentf("WARNING: no conversion for %s", c.Reason)}
}

// elem converts the element behind pointers held in in/out locals. Only a
// method call or an index on a dereference needs parentheses.
func elem(c *model.Conv, src, dst *jen.Statement) jen.Code {
	if c.Kind == model.ConvDeepCopy || c.Kind == model.ConvArray {
		src, dst = jen.Parens(src), jen.Parens(dst)
	}
	return jen.Add(convert(c, src, dst)...)
}

// toHubOf tells the direction of a pair conversion from its source type.
func toHubOf(c *model.Conv) bool {
	n, ok := c.From.(*types.Named)
	return ok && n.Obj() == c.Pair.Spoke.Obj()
}

// zero prints the zero value of t.
func zero(t types.Type) *jen.Statement {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			if _, named := t.(*types.Named); named {
				return typeExpr(t).Parens(jen.Lit(""))
			}
			return jen.Lit("")
		case u.Info()&types.IsBoolean != 0:
			return jen.False()
		default:
			return jen.Lit(0)
		}
	case *types.Struct, *types.Array:
		return typeExpr(t).Values()
	}
	return jen.Nil()
}
