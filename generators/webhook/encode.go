package webhook

import (
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/internal/gotype"
)

// encoder returns the name of n's encoder, planning it when it is new, or
// false when n is no struct type the generated code encodes itself.
func (c *codecGen) encoder(n *types.Named) (string, bool) {
	if name, ok := c.encFuncs[n]; ok {
		return name, name != ""
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok || reflectOnly(n) || n.TypeArgs().Len() > 0 || n.Obj().Pkg() == nil || !n.Obj().Exported() {
		c.encFuncs[n] = ""
		return "", false
	}
	fields, ok := jsonFields(st)
	if !ok {
		c.encFuncs[n] = ""
		return "", false
	}
	for _, fl := range fields {
		if _, ok := omitTest(fl, jen.Id("x")); !ok {
			c.encFuncs[n] = ""
			return "", false
		}
	}
	name := c.funcName("encode", n)
	c.encFuncs[n] = name
	c.encQueue = append(c.encQueue, n)
	return name, true
}

// printEncoder prints the encoder of n: its fields in order, as
// encoding/json writes them. Every member is written with a comma before
// it; the first one's becomes the object's brace.
func (c *codecGen) printEncoder(n *types.Named) {
	c.printStructEncoder(n, c.encFuncs[n], jen.Commentf("%s appends a %s encoded.", c.encFuncs[n], n.Obj().Name()), nil, false)
}

// printStructEncoder prints an encoder of n named name. With pass (the
// members a data decoder passes), it takes the bytes each passed member
// came in as, transcoded, and writes those where it has them, and the
// members that hold members passed with their own such encoder; with meta
// (a root's), it takes the writer of the object's metadata too
// (encodeMetaFrom).
func (c *codecGen) printStructEncoder(n *types.Named, name string, comment jen.Code, pass map[string]passStep, meta bool) {
	fields, _ := jsonFields(n.Underlying().(*types.Struct))
	body := []jen.Code{
		jen.Var().Err().Error(),
		jen.Id("mark").Op(":=").Len(jen.Id("b")),
	}
	for _, fl := range fields {
		val := jen.Id("v")
		for _, p := range fl.path {
			val = val.Dot(p.Name())
		}
		write := c.encodeMember(fl, val)
		if step, ok := pass[fl.name]; ok {
			write = c.encodePassed(fl, val, step, write)
		}
		if meta && isRootMeta(fl) {
			write = encodeMetaFrom(c.encode(fl.path[0].Type(), val, 0))
		}
		body = append(body, write...)
	}
	body = append(body, closeObject()...)
	params := []jen.Code{jen.Id("b").Index().Byte(), jen.Id("v").Op("*").Add(c.typeExpr(n))}
	if len(pass) > 0 {
		params = append(params, jen.Id("raw").Index().Index().Byte())
	}
	if meta {
		params = append(params, jen.Id("meta").Add(metaWriter()))
	}
	c.add(n, comment, jen.Func().Id(name).Params(params...).Params(jen.Index().Byte(), jen.Error()).Block(body...))
}

// encodePassed returns the statements that append member fl, val being its
// value, that a data decoder passes (step): from raw, transcoded, where raw
// has it (left out again when omitempty and raw is empty: null, [] or {}),
// and else as write, the encoder's statements, do; or, for a member that
// holds members passed, with its own encoder of passed members.
func (c *codecGen) encodePassed(fl jsonField, val *jen.Statement, step passStep, write []jen.Code) []jen.Code {
	key := jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(`,"`+fl.name+`":`).Op("..."))
	if step.enc != "" {
		return []jen.Code{key, jen.If(
			jen.List(jen.Id("b"), jen.Err()).Op("=").Id(step.enc).Call(jen.Id("b"), jen.Op("&").Add(val), jen.Id("raw")),
			jen.Err().Op("!=").Nil(),
		).Block(jen.Return(jen.Id("b"), jen.Err()))}
	}
	raw := jen.Id("raw").Index(jen.Lit(step.index))
	cond := raw.Clone().Op("!=").Nil()
	passed := []jen.Code{key, jen.Id("b").Op("=").Append(jen.Id("b"), raw.Clone().Op("..."))}
	if fl.omitEmpty && emptyTest(fl.path[0].Type(), val.Clone()) != nil {
		passed = []jen.Code{jen.If(jen.Op("!").Qual(typedjsonPath, "EmptyRaw").Call(raw.Clone())).Block(passed...)}
	}
	return []jen.Code{jen.If(cond).Block(passed...).Else().Block(write...)}
}

// encodeMetaFrom returns the statements that append the root's metadata
// with meta, the webhook's writer of the metadata the object came in with
// (Codec.EncodeData), and, where it passes none, with enc, the encoder's
// statements. The data decoder decoded of it only the stash, so that only
// meta has it whole; the webhook writes it straight into the object's
// bytes rather than splice it into them after.
func encodeMetaFrom(enc []jen.Code) []jen.Code {
	return []jen.Code{
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(`,"metadata":`).Op("...")),
		jen.If(jen.Id("meta").Op("!=").Nil()).Block(
			jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Id("meta").Call(jen.Id("b")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
		).Else().Block(enc...),
	}
}

// metaWriter is the type of EncodeData's writer of the metadata.
func metaWriter() *jen.Statement {
	return jen.Func().Params(jen.Index().Byte()).Params(jen.Index().Byte(), jen.Error())
}

// encodeMember returns the statements that append member fl of val's
// struct, val being its value, unless omitempty or omitzero leave it out.
func (c *codecGen) encodeMember(fl jsonField, val *jen.Statement) []jen.Code {
	t := fl.path[len(fl.path)-1].Type()
	write := []jen.Code{
		jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(`,"`+fl.name+`":`).Op("...")),
	}
	write = append(write, c.encode(t, val, 0)...)
	if omit, _ := omitTest(fl, val); omit != nil {
		return []jen.Code{jen.If(jen.Op("!").Parens(omit)).Block(write...)}
	}
	return write
}

// encode returns the statements that append val, an addressable t, to b,
// returning on an error; depth names nested variables apart.
func (c *codecGen) encode(t types.Type, val *jen.Statement, depth int) []jen.Code {
	appendTo := func(call jen.Code) []jen.Code { return []jen.Code{jen.Id("b").Op("=").Add(call)} }
	try := func(call jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err()))}
	}
	tj := func(name string, args ...jen.Code) *jen.Statement {
		return jen.Qual(typedjsonPath, name).Call(append([]jen.Code{jen.Id("b")}, args...)...)
	}
	if u, ok := t.(*types.Pointer); ok {
		elem := jen.Op("*").Add(val.Clone())
		return []jen.Code{jen.If(val.Clone().Op("==").Nil()).Block(
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit("null").Op("...")),
		).Else().Block(c.encode(u.Elem(), elem, depth+1)...)}
	}
	if isNamed(t, metav1Path, "Time") {
		return appendTo(tj("AppendTime", jen.Op("&").Add(val)))
	}
	if isNamed(t, intstrPath, "IntOrString") {
		return try(tj("AppendIntOrString", jen.Op("&").Add(val)))
	}
	if isNamed(t, resourcePath, "Quantity") {
		return try(tj("AppendQuantity", jen.Op("&").Add(val)))
	}
	if reflectOnly(t) {
		if hasMethod(t, "MarshalJSON") && !hasMethod(t, "MarshalJSONTo") && valueMethod(t, "MarshalJSON") {
			return try(tj("AppendMarshal", val))
		}
		return try(tj("AppendReflect", jen.Op("&").Add(val)))
	}
	if n, ok := t.(*types.Named); ok {
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			if name, ok := c.encoder(n); ok {
				return try(jen.Id(name).Call(jen.Id("b"), jen.Op("&").Add(val)))
			}
			return try(tj("AppendReflect", jen.Op("&").Add(val)))
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return appendTo(tj("AppendString", val))
		case u.Info()&types.IsBoolean != 0:
			return appendTo(tj("AppendBool", val))
		case u.Info()&types.IsInteger != 0 && u.Info()&types.IsUnsigned != 0:
			return appendTo(tj("AppendUint", val))
		case u.Info()&types.IsInteger != 0:
			return appendTo(tj("AppendInt", val))
		}
	case *types.Slice:
		if !isByte(u.Elem()) {
			return try(tj("AppendSlice", val, c.encElemFunc(u.Elem(), false)))
		}
	case *types.Map:
		if isString(u.Key()) && !reflectOnly(u.Key()) {
			if isString(u.Elem()) && !reflectOnly(u.Elem()) {
				return appendTo(tj("AppendStringMap", val))
			}
			return try(tj("AppendMap", val, c.encElemFunc(u.Elem(), true)))
		}
	}
	return try(tj("AppendReflect", jen.Op("&").Add(val)))
}

// encElemFunc is the encoder of a slice's elements or a map's values: a
// struct type's own, or a literal function for any other type. A map's
// values are copies that encoding/json could not address, so methods on
// their pointers are not theirs: those go to the reflection codec by value.
func (c *codecGen) encElemFunc(t types.Type, mapValue bool) jen.Code {
	if n, ok := t.(*types.Named); ok && !reflectOnly(n) {
		if name, ok := c.encoder(n); ok {
			return jen.Id(name)
		}
	}
	var body []jen.Code
	if mapValue && reflectOnly(t) && !valueMethod(t, "MarshalJSON") {
		body = []jen.Code{jen.Return(jen.Qual(typedjsonPath, "AppendReflect").Call(jen.Id("b"), jen.Op("*").Id("e")))}
	} else {
		body = append([]jen.Code{jen.Var().Err().Error()}, c.encode(t, jen.Parens(jen.Op("*").Id("e")), 0)...)
		body = append(body, jen.Return(jen.Id("b"), jen.Err()))
	}
	return jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id("e").Op("*").Add(c.typeExpr(t))).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// emptyTest is encoding/json's omitempty test of val, a t: false, 0, "",
// nil, and no elements; nil for a struct, which is never empty.
func emptyTest(t types.Type, val *jen.Statement) jen.Code {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return jen.Len(val).Op("==").Lit(0)
		case u.Info()&types.IsBoolean != 0:
			return jen.Op("!").Add(val)
		case u.Info()&types.IsNumeric != 0:
			return val.Op("==").Lit(0)
		}
	case *types.Pointer, *types.Interface:
		return val.Op("==").Nil()
	case *types.Slice, *types.Map:
		return jen.Len(val).Op("==").Lit(0)
	case *types.Array:
		return jen.Lit(u.Len() == 0)
	}
	return nil
}

// omitTest is the condition on which encoding/json leaves member fl, val
// being its value, out: empty (omitempty), zero (omitzero), or either;
// nil when it writes the member always. ok is false when the generated
// code does not decide it (zeroTest). Where one test implies the other it
// is the one written, so that no condition says a thing twice (vet's
// "redundant and" on a pointer's nil tests).
func omitTest(fl jsonField, val *jen.Statement) (cond jen.Code, ok bool) {
	t := fl.path[len(fl.path)-1].Type()
	var empty jen.Code
	if fl.omitEmpty {
		empty = emptyTest(t, val.Clone())
	}
	if !fl.omitZero {
		return empty, true
	}
	if empty != nil && zeroIsEmpty(t) {
		return empty, true
	}
	zero := zeroTest(t, val.Clone())
	switch {
	case zero == nil:
		return nil, false
	case empty == nil || isNilable(t):
		// A pointer's zero test tests nil first, as its empty test does.
		return zero, true
	}
	return jen.Add(empty).Op("||").Add(zero), true
}

// zeroIsEmpty reports whether every zero value of t, as omitzero judges
// it, is empty, as omitempty does: a t without IsZero (gotype.ZeroMethod) whose
// zero value is empty, not a struct or an array.
func zeroIsEmpty(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Interface, *types.Slice, *types.Map:
		return !gotype.ZeroMethod(t)
	}
	return false
}

// zeroTest is encoding/json's omitzero test of val, a t (the isZero its
// typeFields chooses): the IsZero() bool of t, or of *t (val being
// addressable, as every member is), after a nil test when t is a pointer;
// else whether val is its type's zero value. It is nil when the generated
// code does not decide it: an interface with IsZero, which encoding/json
// calls unless the interface holds a nil pointer of any type; floats,
// whose negative zero is not zero there; structs and arrays.
func zeroTest(t types.Type, val *jen.Statement) jen.Code {
	if gotype.ZeroMethod(t) {
		switch t.Underlying().(type) {
		case *types.Interface:
			return nil
		case *types.Pointer:
			return val.Clone().Op("==").Nil().Op("||").Add(val).Dot("IsZero").Call()
		}
		return val.Dot("IsZero").Call()
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&(types.IsString|types.IsBoolean|types.IsInteger) != 0 {
			return jen.Qual(typedjsonPath, "IsZero").Call(val)
		}
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map:
		return val.Op("==").Nil()
	}
	return nil
}

// isNilable reports whether t is a pointer or an interface, whose empty
// and zero tests begin with a nil test.
func isNilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return true
	}
	return false
}

// valueMethod reports whether t itself, not only *t, has the method.
func valueMethod(t types.Type, name string) bool {
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}
