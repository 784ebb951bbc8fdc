package webhook

import (
	"cmp"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// Passing members through. Take a member of a kind's root object (status,
// most often) that every version whose decoder keeps the metadata
// (keepsMeta) holds in one JSON form, and that every conversion copies as
// it is. It need not be decoded into one version's Go value, copied and
// encoded again. The webhook writes it from the request's tokens with a
// generated transcoder (typedjson's Transcode), which writes what that
// decoding and encoding would. Such a member is passed: DecodeData skips it
// (typedjson.Pass), and EncodeData writes the transcoded bytes in its place.

// passMember is a member a kind's versions pass: a member of the root
// object (parent empty), or a member of the root's member parent, a value
// struct that not every version holds in one JSON form (spec, most often)
// but whose conversions are generated, and copy the member as it is.
type passMember struct{ parent, name string }

func (m passMember) String() string {
	if m.parent == "" {
		return m.name
	}
	return m.parent + "." + m.name
}

// passMembers lists the members of k's root objects that the versions
// keeping metadata pass, sorted, at most maxPass. A member passes when:
//   - it is a value struct the codecs transcode, not omitted when zero, or
//     a slice or map of what they transcode;
//   - it has one JSON form in all of those versions;
//   - every conversion between one of them and the hub copies it as it is
//     (model.Conv.SameMemory, no guard).
//
// It is at the root, or one level down in a member whose conversions are
// generated (nestedPassable).
func (c *codecGen) passMembers(k *model.Kind) []passMember {
	if k.Hub == nil || !keepsMeta(k, k.Hub) {
		return nil
	}
	// Every version passing has a DecodeData and an EncodeData: both
	// are its root type's decoder and encoder, with members passed.
	for _, v := range k.Versions {
		_, dec := c.decoder(v.Type)
		_, enc := c.encoder(v.Type)
		if keepsMeta(k, v) && (!dec || !enc) {
			return nil
		}
	}
	hubFields, _ := jsonFields(k.Hub.Type.Underlying().(*types.Struct))
	var members []passMember
	for _, fl := range hubFields {
		if c.passable(k, fl) {
			members = append(members, passMember{name: fl.name})
			continue
		}
		for _, child := range c.nestedPassable(k, fl) {
			members = append(members, passMember{parent: fl.name, name: child})
		}
	}
	slices.SortFunc(members, func(a, b passMember) int {
		return cmp.Or(cmp.Compare(a.parent, b.parent), cmp.Compare(a.name, b.name))
	})
	if len(members) > maxPass {
		members = members[:maxPass]
	}
	return members
}

// maxPass is typedjson's bound on the members one object passes.
const maxPass = 4

// passable reports whether the hub's root member fl passes in every version
// of k that keeps metadata.
func (c *codecGen) passable(k *model.Kind, fl jsonField) bool {
	if !plainMember(fl) {
		return false
	}
	n, ok := fl.path[0].Type().(*types.Named)
	if !ok || !c.transcodable(n) {
		return false
	}
	for _, s := range k.Spokes {
		if !keepsMeta(k, s.Version) {
			continue
		}
		sf, ok := memberNamed(s.Version.Type, fl.name)
		if !ok {
			return false
		}
		// The conversions first: most members that differ differ there,
		// and a shape walks every type the member reaches.
		root := s.Pairs[0]
		if !copies(root.ToHub, sf.path[0], fl.path[0]) || !copies(root.ToSpoke, fl.path[0], sf.path[0]) || !c.sameShape(sf, fl) {
			return false
		}
	}
	_, ok = c.transcoder(n)
	return ok
}

// nestedPassable lists the JSON names of the members of the hub's root
// member parent that pass in every version of k that keeps metadata. In
// every one of those versions, parent is a value struct of a generated
// decoder and encoder. The root's conversions convert it with the generated
// conversions of its pair: a hand-written Convert_ function may read any
// member, so there is none. And those conversions copy the members as they
// are.
func (c *codecGen) nestedPassable(k *model.Kind, parent jsonField) []string {
	hubParent, ok := c.dataStruct(parent)
	if !ok {
		return nil
	}
	hubFields, _ := jsonFields(hubParent.Underlying().(*types.Struct))
	var names []string
	for _, fl := range hubFields {
		if plainMember(fl) && c.transcodesWhole(fl.path[0].Type()) {
			names = append(names, fl.name)
		}
	}
	for _, s := range k.Spokes {
		if len(names) == 0 {
			break
		}
		if !keepsMeta(k, s.Version) {
			continue
		}
		sp, ok := memberNamed(s.Version.Type, parent.name)
		if _, isData := c.dataStruct(sp); !ok || !isData {
			return nil
		}
		root := s.Pairs[0]
		toHub, toSpoke := pairConv(root.ToHub, sp.path[0], parent.path[0]), pairConv(root.ToSpoke, parent.path[0], sp.path[0])
		if toHub == nil || toSpoke == nil {
			return nil
		}
		names = slices.DeleteFunc(names, func(name string) bool {
			hf, _ := memberNamed(hubParent, name)
			sf, ok := memberNamed(toHub.From, name)
			return !ok || !copies(toHub, sf.path[0], hf.path[0]) || !copies(toSpoke, hf.path[0], sf.path[0]) || !c.sameShape(sf, hf)
		})
	}
	// Only now are the transcoders planned: a member that does not pass
	// needs none.
	return slices.DeleteFunc(names, func(name string) bool {
		hf, _ := memberNamed(hubParent, name)
		return c.memberTranscoder(hf.path[0].Type()) == nil
	})
}

// plainMember reports whether fl is a struct's own field, not one of an
// embedded struct's, and not omitted when zero (omitzero, which a
// transcoder does not judge).
func plainMember(fl jsonField) bool {
	return len(fl.path) == 1 && !fl.path[0].Embedded() && !fl.omitZero
}

// memberNamed finds the member of n's JSON object named name, when it is
// a plain one (plainMember).
func memberNamed(n *types.Named, name string) (jsonField, bool) {
	fields, _ := jsonFields(n.Underlying().(*types.Struct))
	i := slices.IndexFunc(fields, func(f jsonField) bool { return f.name == name })
	if i < 0 || !plainMember(fields[i]) {
		return jsonField{}, false
	}
	return fields[i], true
}

// dataStruct returns the type of fl when fl is a plain member whose value
// is a struct of a generated decoder and encoder, whose members the
// codecs can pass.
func (c *codecGen) dataStruct(fl jsonField) (*types.Named, bool) {
	if !plainMember(fl) {
		return nil, false
	}
	n, ok := fl.path[0].Type().(*types.Named)
	if !ok || reflectOnly(n) || isSpecialLeaf(n) {
		return nil, false
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return nil, false
	}
	_, dec := c.decoder(n)
	_, enc := c.encoder(n)
	return n, dec && enc
}

// sameShape reports whether two members are written alike.
func (c *codecGen) sameShape(a, b jsonField) bool {
	ta, tb := a.path[0].Type(), b.path[0].Type()
	neverEmpty := emptyTest(ta, jen.Id("v")) == nil
	return (a.omitEmpty == b.omitEmpty || neverEmpty) &&
		c.shape(ta, map[types.Type]bool{}) == c.shape(tb, map[types.Type]bool{})
}

// pairConv returns the direction through which d converts field from of
// its source into field to of its destination, when that is the generated
// conversion of their type pair, with nothing hand-written in it.
func pairConv(d *model.Direction, from, to *types.Var) *model.Direction {
	for _, fc := range d.Fields {
		if len(fc.Source) != 1 || fc.Source[0] != from || len(fc.Dest) != 1 || fc.Dest[0] != to {
			continue
		}
		if fc.Mapping.OptOut || fc.Guard != nil || fc.Conv.Kind != model.ConvPair {
			return nil
		}
		if dir := fc.Conv.Dir; dir.Manual == nil && !dir.WrongSignature && !dir.Pair.OptOut {
			return dir
		}
		return nil
	}
	return nil
}

// copies reports whether direction d converts field from of its source
// into field to of its destination by copying it as it is.
func copies(d *model.Direction, from, to *types.Var) bool {
	for _, fc := range d.Fields {
		if len(fc.Source) == 1 && fc.Source[0] == from && len(fc.Dest) == 1 && fc.Dest[0] == to {
			return !fc.Mapping.OptOut && fc.Guard == nil && fc.Conv.SameMemory()
		}
	}
	return false
}

// shape describes how the codecs write a t: two types of one shape are
// written alike by their encoders. Structs are their members in order;
// a type the codecs leave to the reflection codec or to methods of its own
// (Time, Quantity, ...) is its name, so only the same type has its shape.
func (c *codecGen) shape(t types.Type, walking map[types.Type]bool) string {
	if n, ok := t.(*types.Named); ok {
		st, isStruct := n.Underlying().(*types.Struct)
		switch {
		case reflectOnly(n) || walking[n]:
			return types.TypeString(t, nil)
		case !isStruct:
			// A named string, number, slice or map is written as what
			// it is named for.
			return c.shape(n.Underlying(), walking)
		}
		if _, ok := c.encoder(n); !ok {
			return types.TypeString(t, nil)
		}
		walking[n] = true
		defer delete(walking, n)
		fields, _ := jsonFields(st)
		var b strings.Builder
		b.WriteString("{")
		for _, f := range fields {
			b.WriteString(f.name)
			if f.omitEmpty {
				b.WriteString(",omitempty")
			}
			if f.omitZero {
				b.WriteString(",omitzero")
			}
			b.WriteString(":" + c.memberShape(f, walking) + ";")
		}
		return b.String() + "}"
	}
	switch u := t.(type) {
	case *types.Basic:
		return u.Name()
	case *types.Pointer:
		return "*" + c.shape(u.Elem(), walking)
	case *types.Slice:
		return "[]" + c.shape(u.Elem(), walking)
	case *types.Map:
		return "map[" + c.shape(u.Key(), walking) + "]" + c.shape(u.Elem(), walking)
	case *types.Alias:
		return c.shape(types.Unalias(u), walking)
	}
	return types.TypeString(t, nil)
}

// memberShape is the shape of member f's type; of an omitzero member whose
// type has an IsZero of its own (gotype.ZeroMethod), which decides what is left
// out, the type's name, so that only the same type has its shape.
func (c *codecGen) memberShape(f jsonField, walking map[types.Type]bool) string {
	t := f.path[len(f.path)-1].Type()
	if f.omitZero && gotype.ZeroMethod(t) {
		return types.TypeString(t, nil)
	}
	return c.shape(t, walking)
}

// transcodable reports whether n is a struct type with a generated decoder
// and encoder, which a transcoder can be printed for: one that can name the
// type of every field, to decode a value into a variable of it.
func (c *codecGen) transcodable(n *types.Named) bool {
	_, dec := c.decoder(n)
	_, enc := c.encoder(n)
	if !dec || !enc || isSpecialLeaf(n) {
		return false
	}
	fields, _ := jsonFields(n.Underlying().(*types.Struct))
	for _, fl := range fields {
		if !nameable(fl.path[len(fl.path)-1].Type()) {
			return false
		}
	}
	return true
}

// nameable reports whether typeExpr prints t itself, rather than any: no
// unnamed struct, interface with methods, channel or function, and no named
// type the codec package cannot name (unexported, or generic) in it.
func nameable(t types.Type) bool {
	switch u := t.(type) {
	case *types.Named:
		return u.TypeArgs().Len() == 0 && (u.Obj().Pkg() == nil || u.Obj().Exported())
	case *types.Alias:
		return nameable(types.Unalias(u))
	case *types.Basic:
		return true
	case *types.Pointer:
		return nameable(u.Elem())
	case *types.Slice:
		return nameable(u.Elem())
	case *types.Array:
		return nameable(u.Elem())
	case *types.Map:
		return nameable(u.Key()) && nameable(u.Elem())
	case *types.Interface:
		return u.Empty()
	}
	return false
}

// transcoder returns the name of n's transcoder, planning it when it is
// new, or false when n is not transcodable.
func (c *codecGen) transcoder(n *types.Named) (string, bool) {
	if name, ok := c.transFuncs[n]; ok {
		return name, name != ""
	}
	if !c.transcodable(n) {
		c.transFuncs[n] = ""
		return "", false
	}
	name := c.funcName("transcode", n)
	c.transFuncs[n] = name
	c.transQueue = append(c.transQueue, n)
	return name, true
}

// transcodesWhole reports whether a member of type t has a transcoder
// (memberTranscoder), without planning one.
func (c *codecGen) transcodesWhole(t types.Type) bool {
	if m, ok := t.(*types.Map); ok {
		k, basic := m.Key().(*types.Basic)
		if !basic || k.Kind() != types.String {
			return false
		}
		t = m.Elem()
		if isString(t) && !reflectOnly(t) {
			return true
		}
	} else if s, ok := t.(*types.Slice); ok {
		t = s.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || reflectOnly(n) {
		return false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct && c.transcodable(n)
}

// memberTranscoder returns the transcoder of a member of type t, a
// typedjson.Transcoder. It returns nil when t is none that the codecs
// transcode whole, as the generated decoder and encoder read and write
// them: a struct type with a transcoder, or an unnamed slice or map of such
// (or, for a map, of strings), keyed by strings.
func (c *codecGen) memberTranscoder(t types.Type) jen.Code {
	if name := c.structTranscoder(t); name != "" {
		return jen.Id(name)
	}
	switch u := t.(type) {
	case *types.Slice:
		if name := c.elemTranscoder(t); name != "" {
			return jen.Qual(typedjsonPath, "SliceTranscoder").Call(jen.Id(name))
		}
	case *types.Map:
		if k, basic := u.Key().(*types.Basic); !basic || k.Kind() != types.String {
			return nil
		}
		if isString(u.Elem()) && !reflectOnly(u.Elem()) {
			return jen.Qual(typedjsonPath, "StringMapTranscoder")
		}
		if name := c.structTranscoder(u.Elem()); name != "" {
			return jen.Qual(typedjsonPath, "MapTranscoder").Call(jen.Id(name))
		}
	}
	return nil
}

// isSpecialLeaf reports whether typedjson decodes and encodes t itself.
func isSpecialLeaf(t types.Type) bool {
	return isNamed(t, metav1Path, "Time") || isNamed(t, intstrPath, "IntOrString") || isNamed(t, resourcePath, "Quantity")
}

// printTranscoder prints the transcoder of n (see typedjson's Transcode):
// where each field's value is, then each field as n's encoder writes it.
func (c *codecGen) printTranscoder(n *types.Named) {
	fields, _ := jsonFields(n.Underlying().(*types.Struct))
	enc, _ := c.encoder(n)
	typ := c.typeExpr(n)
	var cases []jen.Code
	for i, fl := range fields {
		at := jen.Id("at").Index(jen.Lit(i))
		cases = append(cases, jen.Case(jen.Lit(fl.name)).Block(
			jen.If(at.Clone().Op("!=").Lit(0)).Block(jen.Return(jen.Id("b"), jen.Qual(typedjsonPath, "ErrFallback"))),
			at.Clone().Op("=").Id("d").Dot("Mark").Call().Op("+").Lit(1),
		))
	}
	body := []jen.Code{
		jen.If(jen.Id("d").Dot("Null").Call()).Block(
			jen.Var().Id("zero").Add(typ.Clone()),
			jen.Return(jen.Id(enc).Call(jen.Id("b"), jen.Op("&").Id("zero"))),
		),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Begin").Call(jen.LitRune('{')), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
	}
	if len(fields) > 0 {
		body = append(body, jen.Var().Id("at").Index(jen.Lit(len(fields))).Int())
	}
	body = append(body,
		jen.For(jen.Id("d").Dot("More").Call()).Block(
			// A struct without fields (kubebuilder's empty Status) reads
			// no name: Go refuses a variable declared and not used.
			jen.List(jen.Id(nameVar(len(cases) > 0)), jen.Err()).Op(":=").Id("d").Dot("Name").Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
			jen.Do(func(s *jen.Statement) {
				if len(cases) > 0 {
					s.Switch(jen.String().Call(jen.Id("name"))).Block(cases...)
				}
			}),
			jen.If(jen.Err().Op(":=").Id("d").Dot("Skip").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
		),
		jen.If(jen.Err().Op(":=").Id("d").Dot("End").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err())),
		jen.Id("end").Op(":=").Id("d").Dot("Mark").Call(),
		jen.Var().Err().Error(),
		jen.Id("mark").Op(":=").Len(jen.Id("b")),
	)
	for i, fl := range fields {
		body = append(body, c.transcodeField(fl, jen.Id("at").Index(jen.Lit(i))))
	}
	body = append(body, jen.Id("d").Dot("Seek").Call(jen.Id("end")))
	body = append(body, closeObject()...)
	c.add(n, jen.Commentf("%s appends the %s d reads as %s would write it decoded.", c.transFuncs[n], n.Obj().Name(), enc),
		jen.Func().Id(c.transFuncs[n]).Params(jen.Id("d").Op("*").Qual(typedjsonPath, "Decoder"), jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(body...))
}

// nameVar is the variable a transcoder reads a member's name into: the
// blank identifier when no case reads it.
func nameVar(used bool) string {
	if used {
		return "name"
	}
	return "_"
}

// transcodeField prints the transcoding of field fl, whose value is at the
// mark at (plus one; 0 when the object lacks it, and the field is zero).
func (c *codecGen) transcodeField(fl jsonField, at *jen.Statement) jen.Code {
	t := fl.path[len(fl.path)-1].Type()
	key := jen.Id("b").Op("=").Append(jen.Id("b"), jen.Lit(`,"`+fl.name+`":`).Op("..."))
	fail := jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id("b"), jen.Err()))
	seek := jen.Id("d").Dot("Seek").Call(at.Clone().Op("-").Lit(1))
	// Zero, or decoded into a variable: as the encoder writes the field.
	viaValue := func(decode bool) []jen.Code {
		code := []jen.Code{jen.Var().Id("x").Add(c.typeExpr(t))}
		if decode {
			code = append(code, seek.Clone(), c.decode(t, jen.Op("&").Id("x"), 0), fail.Clone())
		}
		return append(code, c.encodeMember(fl, jen.Id("x"))...)
	}
	var direct []jen.Code
	omittable := fl.omitEmpty || fl.omitZero
	// A string or an integer is left out when empty or zero, which the
	// transcoder tells, but for an IsZero of its own, which only its
	// value can be asked.
	byValue := fl.omitZero && gotype.ZeroMethod(t)
	switch {
	case c.structTranscoder(t) != "" && !fl.omitZero:
		direct = []jen.Code{seek, key, jen.List(jen.Id("b"), jen.Err()).Op("=").Id(c.structTranscoder(t)).Call(jen.Id("d"), jen.Id("b")), fail}
	case c.elemTranscoder(t) != "" && !fl.omitZero:
		call := jen.Qual(typedjsonPath, "TranscodeSlice").Call(jen.Id("d"), jen.Id("b"), jen.Id(c.elemTranscoder(t)))
		direct = omitWhen(fl.omitEmpty, "n", jen.Int(), jen.Id("n").Op("==").Lit(0), seek, key, call, fail)
	case isNamed(t, metav1Path, "Time") && !fl.omitZero:
		direct = []jen.Code{seek, key, jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(typedjsonPath, "TranscodeTime").Call(jen.Id("d"), jen.Id("b")), fail}
	case isTimePointer(t) && !fl.omitZero:
		call := jen.Qual(typedjsonPath, "TranscodeTimePointer").Call(jen.Id("d"), jen.Id("b"))
		direct = omitWhen(fl.omitEmpty, "null", jen.Bool(), jen.Id("null"), seek, key, call, fail)
	case isString(t) && !reflectOnly(t) && !byValue:
		call := jen.Qual(typedjsonPath, "TranscodeString").Call(jen.Id("d"), jen.Id("b"))
		direct = omitWhen(omittable, "empty", jen.Bool(), jen.Id("empty"), seek, key, call, fail)
	case isSignedInt(t) && !reflectOnly(t) && !byValue:
		bits, _ := signedInt(t)
		call := jen.Qual(typedjsonPath, "TranscodeInt").Call(jen.Id("d"), jen.Id("b"), jen.Lit(bits))
		direct = omitWhen(omittable, "zero", jen.Bool(), jen.Id("zero"), seek, key, call, fail)
	default:
		direct = viaValue(true)
	}
	return jen.If(at.Clone().Op("==").Lit(0)).Block(viaValue(false)...).Else().Block(direct...)
}

// omitWhen prints a transcoding by call, which returns b, a result named
// result, of resultType, and an error, after seek and key: when omit, the
// member is left out again where test on the result says so.
func omitWhen(omit bool, result string, resultType, test, seek, key, call, fail jen.Code) []jen.Code {
	if !omit {
		return []jen.Code{seek, key, jen.List(jen.Id("b"), jen.Id("_"), jen.Err()).Op("=").Add(call), fail}
	}
	return []jen.Code{
		seek, jen.Id("start").Op(":=").Len(jen.Id("b")), key,
		jen.Var().Id(result).Add(resultType),
		jen.List(jen.Id("b"), jen.Id(result), jen.Err()).Op("=").Add(call),
		fail,
		jen.If(test).Block(jen.Id("b").Op("=").Id("b").Index(jen.Empty(), jen.Id("start"))),
	}
}

// structTranscoder names the transcoder of t when t is a struct type that
// has one.
func (c *codecGen) structTranscoder(t types.Type) string {
	n, ok := t.(*types.Named)
	if !ok || reflectOnly(n) {
		return ""
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return ""
	}
	name, _ := c.transcoder(n)
	return name
}

func isSignedInt(t types.Type) bool {
	_, ok := signedInt(t)
	return ok
}

func isTimePointer(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), metav1Path, "Time")
}

// elemTranscoder names the transcoder of the elements of t when t is an
// unnamed slice (a slice type of its own may have methods) of a struct type
// that has one.
func (c *codecGen) elemTranscoder(t types.Type) string {
	if s, ok := t.(*types.Slice); ok {
		return c.structTranscoder(s.Elem())
	}
	return ""
}

// closeObject ends an object whose members were each written with a comma
// before it, from mark: the first comma becomes the brace. It returns err,
// which every error returned before it set.
func closeObject() []jen.Code {
	return []jen.Code{
		jen.If(jen.Len(jen.Id("b")).Op("==").Id("mark")).Block(
			jen.Return(jen.Append(jen.Id("b"), jen.LitRune('{'), jen.LitRune('}')), jen.Nil()),
		),
		jen.Id("b").Index(jen.Id("mark")).Op("=").LitRune('{'),
		jen.Return(jen.Append(jen.Id("b"), jen.LitRune('}')), jen.Err()),
	}
}
