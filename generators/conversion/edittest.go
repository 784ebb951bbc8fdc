package conversion

import (
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
)

// An edit is a field of the spoke's root object that the generated
// round-trip test changes between hub → spoke and spoke → hub, as a client
// writing at the spoke's version would (conversiontest.Edit): path leads
// from the root struct to the field through struct values.
type edit struct {
	path []*types.Var
	// json is the field's JSON path, for messages: spec.schedule.
	json string
}

// maxEditDepth bounds how far into nested structs edits are looked for.
const maxEditDepth = 3

// spokeEdits picks the first field both versions hold through an exact
// conversion (the same value both ways, no check) and the first field only
// the spoke holds (stashed on the hub), each of a basic type, reached from
// the root through struct fields (no pointer, slice or map on the way) of
// pairs whose conversions are all generated. A spoke with hand-written
// entry points gets none: their stash is theirs.
func spokeEdits(s *model.Spoke) []edit {
	if s.ConvertTo != nil || s.ConvertFrom != nil || s.NoEntryPoints {
		return nil
	}
	var both, only *edit
	var walk func(tp *model.TypePair, path []*types.Var, json string, depth int)
	walk = func(tp *model.TypePair, path []*types.Var, json string, depth int) {
		if depth > maxEditDepth || !generatedBothWays(tp) {
			return
		}
		for _, m := range tp.Mappings {
			name, _, ok := model.JSONName(tp.Spoke, m.Spoke)
			if m.OptOut || m.Whole || !ok {
				continue
			}
			p := append(append([]*types.Var{}, path...), m.Spoke)
			switch {
			case both == nil && exact(m):
				both = &edit{p, json + name}
			case m.ToHub.Conv.Kind == model.ConvPair && isStruct(m.Spoke.Type()):
				walk(m.ToHub.Conv.Dir.Pair, p, json+name+".", depth+1)
			}
		}
		for _, f := range tp.ToHub.SourceOnly {
			if name, _, ok := model.JSONName(tp.Spoke, f); only == nil && ok && basic(f.Type()) {
				only = &edit{append(append([]*types.Var{}, path...), f), json + name}
			}
		}
	}
	walk(s.Pairs[0], nil, "", 0)
	var out []edit
	for _, e := range []*edit{both, only} {
		if e != nil {
			out = append(out, *e)
		}
	}
	return out
}

// generatedBothWays says crdforge writes both of tp's conversions, with
// nothing hand-written inside.
func generatedBothWays(tp *model.TypePair) bool {
	for _, d := range tp.Directions() {
		if manual, _ := d.NeedsManual(); d.Manual != nil || len(manual) > 0 || !d.Emit {
			return false
		}
	}
	return !tp.OptOut
}

// exact says m carries a basic value unchanged both ways, unchecked.
func exact(m *model.Mapping) bool {
	for _, fc := range []*model.FieldConv{m.ToHub, m.ToSpoke} {
		if fc == nil || fc.Guard != nil || fc.Conv.Kind != model.ConvAssign && fc.Conv.Kind != model.ConvCast {
			return false
		}
	}
	return len(m.HubPath) > 0 && basic(m.Spoke.Type()) && basic(m.HubPath[len(m.HubPath)-1].Type())
}

func basic(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsString|types.IsInteger|types.IsBoolean) != 0
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// printEdits is the Pair's Edits: one conversiontest.Edit per edit, whose
// Apply fills the field of the spoke object with a random value.
func printEdits(spoke string, edits []edit) jen.Code {
	vals := make([]jen.Code, 0, len(edits))
	for _, e := range edits {
		sel := jen.Id("o").Assert(jen.Op("*").Id(spoke))
		for _, f := range e.path {
			sel = sel.Dot(f.Name())
		}
		apply := jen.Func().Params(jen.Id("o").Qual(ctrlConversionPath, "Convertible"), jen.Id("fill").Func().Params(jen.Any())).Block(
			jen.Id("fill").Call(jen.Op("&").Add(sel)),
		)
		vals = append(vals, jen.Line().Values(jen.Dict{
			jen.Id("Field"): jen.Lit(strings.TrimPrefix(e.json, ".")),
			jen.Id("Apply"): apply,
		}))
	}
	return jen.Index().Qual(conversionTestPath, "Edit").Values(append(vals, jen.Line())...)
}
