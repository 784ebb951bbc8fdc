package plan

import (
	"encoding/json"
	"fmt"
	"go/types"
	"math"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
)

// A conversion narrows when the destination's schema rejects values that the
// source's type and schema allow: a string becomes an enum, an int64 an
// int32 or a field with a Maximum, an optional field a required one that
// has no valid zero value. Converting such a value into the storage version
// would store an object its own schema rejects (the API server validates at
// the version written, not after conversion), and an integer that does not
// fit its Go type would wrap around in any direction; so generated code
// checks the value and fails the conversion with an error naming the field.
// The schemas are controller-tools' own, as the CRD carries them.

// checkNarrowing sets the Check of every field conversion that narrows. An
// integer cast that may not fit and that no Check covers (an element of a
// slice or map, a field without a schema) needs a hand-written function
// instead: generated code never lets a value wrap around.
//
// With full unset, only what decides whether a field needs a hand-written
// function is settled: the checks of integers that may not fit, not those
// the schemas ask for (which take the flattened schema of every type).
func (p *pairer) checkNarrowing(full bool) {
	for _, tp := range p.order {
		if tp.OptOut {
			continue
		}
		for _, d := range tp.Directions() {
			for _, fc := range d.Fields {
				p.narrowField(d, fc, full)
			}
		}
	}
}

// narrowField is checkNarrowing of one field conversion.
func (p *pairer) narrowField(d *model.Direction, fc *model.FieldConv, full bool) {
	var covered *model.Conv
	if !fc.Mapping.OptOut && !fc.Mapping.Whole && (full || narrowsInts(fc.Conv)) {
		fc.Guard, covered = p.narrowing(d, fc, d.ToVersion.Storage)
	}
	walkConv(fc.Conv, func(c *model.Conv) {
		if c != covered && c.Kind == model.ConvCast && intNarrows(c.From, c.To) {
			c.Kind, c.Reason = model.ConvManual, fmt.Sprintf("not every %s fits in %s", p.qualified(c.From), p.qualified(c.To))
		}
	})
}

// relaxUnguarded keeps the schema's checks only where crdforge's own
// ConvertTo and ConvertFrom lead: the directions they reach, through
// hand-written Convert_ functions too (which call their autoConvert_). A
// direction only hand-written entry points call converts values as
// conversion-gen's does, checking no more than its Go types need: its
// callers count on that (Cluster API providers' fuzz tests fill a string
// that became an enum with random values), and crdforge, which writes
// neither the caller nor its tests, warns about none of it.
func (p *pairer) relaxUnguarded(guarded map[*model.Direction]bool) {
	for _, tp := range p.order {
		for _, d := range tp.Directions() {
			if guarded[d] {
				continue
			}
			for _, fc := range d.Fields {
				if fc.Guard != nil {
					fc.Guard, _ = p.narrowing(d, fc, false)
				}
			}
		}
	}
}

// guardedDirs lists the directions crdforge's own ConvertTo and ConvertFrom
// of the spokes lead to, in any pairer (through the generated functions of
// another pairer's pairs too). Call it once the spokes' hand-written
// methods are known.
func guardedDirs(spokes []*model.Spoke) map[*model.Direction]bool {
	guarded := map[*model.Direction]bool{}
	var queue []*model.Direction
	add := func(d *model.Direction) {
		if !guarded[d] {
			guarded[d] = true
			queue = append(queue, d)
		}
	}
	for _, s := range spokes {
		root := s.Pairs[0]
		if s.Generates(root.ToHub) || s.Generates(root.ToSpoke) {
			add(root.ToHub)
			add(root.ToSpoke)
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if !d.Pair.OptOut {
			for _, e := range calls(d) {
				add(e)
			}
		}
	}
	return guarded
}

// walkConv calls visit with c and every conversion inside it.
func walkConv(c *model.Conv, visit func(*model.Conv)) {
	if c == nil {
		return
	}
	visit(c)
	walkConv(c.Elem, visit)
	walkConv(c.Key, visit)
}

// intNarrows reports whether some value of integer type from does not fit
// in integer type to.
// narrowsInts reports whether c casts, itself or inside, an integer into
// one that may not hold it.
func narrowsInts(c *model.Conv) bool {
	found := false
	walkConv(c, func(c *model.Conv) { found = found || (c.Kind == model.ConvCast && intNarrows(c.From, c.To)) })
	return found
}

func intNarrows(from, to types.Type) bool {
	fb, ok1 := from.Underlying().(*types.Basic)
	tb, ok2 := to.Underlying().(*types.Basic)
	if !ok1 || !ok2 || !bothIntegers(fb, tb) || fb.Kind() == tb.Kind() {
		return false
	}
	flo, fhi, fok := intRange(fb, apiextensionsv1.JSONSchemaProps{})
	tlo, thi, tok := intRange(tb, apiextensionsv1.JSONSchemaProps{})
	return !fok || !tok || flo < tlo || fhi > thi
}

// reportNarrowing warns, at the source field, about every narrowing field
// conversion that a generated entry point needs and no hand-written
// Convert_ takes over.
func (p *pairer) reportNarrowing() {
	for _, tp := range p.order {
		if tp.OptOut {
			continue
		}
		for _, d := range tp.Directions() {
			if !d.Needed || d.Manual != nil {
				continue
			}
			for _, fc := range d.Fields {
				if fc.Guard == nil {
					continue
				}
				src := fc.Source[len(fc.Source)-1]
				p.diags.Warnf(src.Pos(), "%s %s.%s narrows to %s %s", d.FromVersion.Name, d.From.Obj().Name(), pathName(fc.Source), d.ToVersion.Name, fc.Guard.Path).
					Note("%s %s allows only %s", d.ToVersion.Name, fc.Guard.Path, fc.Guard.Describe()).
					Note("converting %s fails with an error naming the field for any other value, rather than write one the API server rejects", d.Describe()).
					Help("to convert such values (a default, a mapping), write %s in package %s, setting the field before it calls %s",
						Signature(d), p.spoke.Package.Name, d.AutoFunc)
			}
		}
	}
}

// narrowing returns the check a field conversion needs, or nil, and the
// integer cast the check covers. Without schema, only what the Go types
// cannot hold is checked.
func (p *pairer) narrowing(d *model.Direction, fc *model.FieldConv, schema bool) (*model.Guard, *model.Conv) {
	c := fc.Conv
	srcPtr, dstPtr := false, false
	switch c.Kind {
	case model.ConvAssign, model.ConvCast:
	case model.ConvPointer:
		srcPtr, dstPtr, c = true, true, c.Elem
	case model.ConvDeref:
		srcPtr, c = true, c.Elem
	case model.ConvAddr:
		dstPtr, c = true, c.Elem
	default:
		return nil, nil
	}
	if c.Kind != model.ConvAssign && c.Kind != model.ConvCast {
		return nil, nil
	}
	sb, ok1 := c.From.Underlying().(*types.Basic)
	db, ok2 := c.To.Underlying().(*types.Basic)
	if !ok1 || !ok2 {
		return nil, nil
	}
	dstProp, dstRequired, dstOmitEmpty, ok := p.fieldSchema(d.To, fc.Dest)
	if !ok {
		return nil, nil
	}
	srcProp, _, _, ok := p.fieldSchema(d.From, fc.Source)
	if !ok {
		return nil, nil
	}
	if !schema {
		// Only what is stored must validate: the API server validates an
		// object at the version it was written in, converts it to the
		// storage version and stores it without validating again, so a
		// value the storage version rejects makes a stored object that
		// later updates cannot pass. A read through another version gets
		// the value as is (the API server does not validate conversion
		// results; an enum that gained values reads through an older
		// version as Kubernetes' own APIs do), and failing there would
		// make the object, and every list holding it, unreadable at that
		// version. Only a value that does not fit the Go type, which
		// would wrap around, fails any conversion.
		dstProp, srcProp, dstRequired = apiextensionsv1.JSONSchemaProps{}, apiextensionsv1.JSONSchemaProps{}, false
	}
	chk := &model.Guard{Path: p.jsonPath(d.To, fc.Dest), ZeroOK: !dstPtr && dstOmitEmpty && !dstRequired}
	narrows := false
	if db.Info()&types.IsString != 0 {
		if dstEnum, ok := stringEnum(dstProp.Enum); ok {
			srcEnum, bounded := stringEnum(srcProp.Enum)
			if !bounded || slices.ContainsFunc(srcEnum, func(v string) bool { return !slices.Contains(dstEnum, v) && (v != "" || !chk.ZeroOK) }) {
				chk.Enum, narrows = dstEnum, true
			}
		}
	}
	if db.Info()&types.IsInteger != 0 && sb.Info()&types.IsInteger != 0 {
		srcLo, srcHi, ok1 := intRange(sb, srcProp)
		dstLo, dstHi, ok2 := intRange(db, dstProp)
		if ok1 && ok2 {
			if dstLo > srcLo {
				chk.Min, narrows = &dstLo, true
			}
			if dstHi < srcHi {
				chk.Max, narrows = &dstHi, true
			}
		}
	}
	if srcPtr && !dstPtr && !chk.ZeroOK && !zeroAllowed(db, dstProp, dstRequired, dstOmitEmpty) {
		chk.Required, narrows = true, true
	}
	if !narrows {
		return nil, nil
	}
	if chk.Min != nil || chk.Max != nil {
		return chk, c
	}
	return chk, nil
}

// zeroAllowed reports whether the destination accepts its zero value.
func zeroAllowed(b *types.Basic, prop apiextensionsv1.JSONSchemaProps, required, omitEmpty bool) bool {
	if required && omitEmpty {
		return false // the zero value is omitted, and the field is required
	}
	switch {
	case b.Info()&types.IsString != 0:
		if enum, ok := stringEnum(prop.Enum); ok && !slices.Contains(enum, "") {
			return false
		}
		return prop.MinLength == nil || *prop.MinLength == 0
	case b.Info()&types.IsInteger != 0:
		lo, hi, ok := intRange(b, prop)
		return !ok || (lo <= 0 && hi >= 0)
	}
	return true
}

// stringEnum reads a schema's enum as strings; false when it has none, or
// values of another type.
func stringEnum(enum []apiextensionsv1.JSON) ([]string, bool) {
	if len(enum) == 0 {
		return nil, false
	}
	out := make([]string, 0, len(enum))
	for _, v := range enum {
		var s string
		if err := json.Unmarshal(v.Raw, &s); err != nil {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// intRange is the range of values an integer field may hold: its Go type's,
// narrowed by the schema's minimum and maximum. Unsigned 64-bit types, whose
// range int64 cannot express, report false.
func intRange(b *types.Basic, prop apiextensionsv1.JSONSchemaProps) (lo, hi int64, ok bool) {
	switch b.Kind() {
	case types.Int8:
		lo, hi = math.MinInt8, math.MaxInt8
	case types.Int16:
		lo, hi = math.MinInt16, math.MaxInt16
	case types.Int32:
		lo, hi = math.MinInt32, math.MaxInt32
	case types.Int, types.Int64:
		lo, hi = math.MinInt64, math.MaxInt64
	case types.Uint8:
		lo, hi = 0, math.MaxUint8
	case types.Uint16:
		lo, hi = 0, math.MaxUint16
	case types.Uint32:
		lo, hi = 0, math.MaxUint32
	default:
		return 0, 0, false
	}
	if m := prop.Minimum; m != nil && *m > float64(lo) && *m < float64(hi) {
		v := int64(math.Ceil(*m))
		if prop.ExclusiveMinimum && float64(v) == *m {
			v++
		}
		lo = v
	}
	if m := prop.Maximum; m != nil && *m < float64(hi) && *m > float64(lo) {
		v := int64(math.Floor(*m))
		if prop.ExclusiveMaximum && float64(v) == *m {
			v--
		}
		hi = v
	}
	return lo, hi, true
}

// fieldSchema finds the schema of the field at the end of path, from the
// struct root, as controller-tools builds it (markers on the field and its
// type applied), whether its struct requires it, and whether its JSON tag
// omits the zero value.
func (p *pairer) fieldSchema(root *types.Named, path []*types.Var) (prop apiextensionsv1.JSONSchemaProps, required, omitEmpty, ok bool) {
	if len(path) == 0 {
		return prop, false, false, false
	}
	parent := root
	if len(path) > 1 {
		n, isStruct := namedStruct(deref(path[len(path)-2].Type()))
		if !isStruct {
			return prop, false, false, false
		}
		parent = n
	}
	pkg := p.packageOf(parent)
	if pkg == nil {
		return prop, false, false, false
	}
	field := path[len(path)-1]
	name, omitEmpty, ok := model.JSONName(parent, field)
	if !ok {
		return prop, false, false, false
	}
	ident := crd.TypeIdent{Package: pkg, Name: parent.Obj().Name()}
	if _, known := p.pl.Schemas.Schemata[ident]; !known {
		// Only types a CRD reaches have a schema, built with the CRD; asking
		// for another's would report its schema errors although no CRD
		// holds it.
		return prop, false, false, false
	}
	prop, required, ok = p.fieldSchemaIn(ident, name)
	return prop, required, omitEmpty, ok
}

// fieldSchemaIn is the schema of the field name of the struct type ident as
// the CRD carries it (the markers on its type and on the field applied), and
// whether the struct requires it. Only that field's schema is flattened:
// the narrowing check reads scalar fields, and flattening their struct would
// copy every schema below it, for every struct type of every pair (issue
// 56: a large API group's time and peak memory).
func (p *pairer) fieldSchemaIn(ident crd.TypeIdent, name string) (prop apiextensionsv1.JSONSchemaProps, required, ok bool) {
	st := p.pl.Schemas.Schemata[ident]
	prop, ok = st.Properties[name]
	if !ok {
		return prop, false, false
	}
	required = slices.Contains(st.Required, name)
	if prop.Ref == nil && len(prop.AllOf) == 0 {
		// A scalar of a basic type, its markers inline: nothing to flatten,
		// and no copy to make for a caller that only reads it. Most fields
		// are; flattening copies each at least twice, some 380 MB of garbage
		// at 600 kinds, whose rate while the collector marks raises the
		// peak (issue 56).
		return prop, required, true
	}
	if p.pl.fields == nil {
		p.pl.fields = &crd.Flattener{Parser: p.pl.Schemas, LookupReference: refIdent}
	}
	one := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{name: prop}}
	flat := crd.FlattenEmbedded(p.pl.fields.FlattenSchema(one, ident.Package), ident.Package)
	return flat.Properties[name], required, true
}

// refIdent is the type a schema's $ref in pkg names. controller-tools'
// Flattener defaults to its own lookup only when asked to flatten a type
// first, and the narrowing check flattens single fields' schemas.
func refIdent(ref string, pkg *loader.Package) (crd.TypeIdent, error) {
	name, path, err := crd.RefParts(ref)
	if err != nil || path == "" {
		return crd.TypeIdent{Package: pkg, Name: name}, err
	}
	imported, ok := pkg.Imports()[path]
	if !ok {
		return crd.TypeIdent{}, fmt.Errorf("%s refers to package %s, which %s does not import", ref, path, pkg.PkgPath)
	}
	return crd.TypeIdent{Package: imported, Name: name}, nil
}

// packageOf is the spoke or hub package that declares n, or nil.
func (p *pairer) packageOf(n *types.Named) *loader.Package {
	if n.Obj().Pkg() == nil {
		return nil
	}
	for _, pkg := range []*loader.Package{p.spoke.Package, p.hub.Package} {
		if pkg.PkgPath == n.Obj().Pkg().Path() {
			return pkg
		}
	}
	return nil
}

// jsonPath joins the JSON names of a path of fields from root.
func (p *pairer) jsonPath(root *types.Named, path []*types.Var) string {
	names := make([]string, 0, len(path))
	parent := root
	for _, f := range path {
		name, _, ok := model.JSONName(parent, f)
		if !ok {
			name = f.Name()
		}
		names = append(names, name)
		if n, isStruct := namedStruct(deref(f.Type())); isStruct {
			parent = n
		}
	}
	return strings.Join(names, ".")
}
