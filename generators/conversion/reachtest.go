package conversion

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
	"github.com/crdforge/crdforge/markers"
)

// reachDirections are the directions of the spokes' pairs whose
// hand-written Convert_ must carry fields crdforge cannot pair
// (model.Direction.ByHand), each once, in the order the pairs come.
func reachDirections(spokes []*model.Spoke) []*model.Direction {
	var out []*model.Direction
	seen := map[*model.TypePair]bool{}
	for _, s := range spokes {
		for _, tp := range s.Pairs {
			if !seen[tp] && tp.ToHub.Manual != nil && len(tp.ToHub.ByHand) > 0 {
				out = append(out, tp.ToHub)
			}
			seen[tp] = true
		}
	}
	return out
}

// printReachTests prints, for each direction of reachDirections, a test
// that checks with conversiontest.Reaches that each field of its ByHand
// changes the hub struct: a field the hand-written function forgets
// converts to nothing, and the round trips cannot tell, since the stash
// brings it back.
func printReachTests(f *jen.File, spokes []*model.Spoke, userFill, narrowing bool) {
	for _, d := range reachDirections(spokes) {
		name := d.ReachTestName()
		f.Commentf("%s checks that the hand-written", name)
		f.Commentf("%s carries each field of %s %s", d.Func, d.FromVersion.Name, d.From.Obj().Name())
		f.Commentf("that %s has no field of the same name for: one it forgets converts to", d.ToVersion.Name)
		f.Comment("nothing, and only the stash keeps its value.")
		reach := jen.Dict{
			jen.Id("Convert"): jen.Id(d.Func),
			jen.Id("Func"):    jen.Lit(d.Func),
			jen.Id("Fields"):  jen.Index().Qual(conversionTestPath, "ReachField").Types(jen.Id(d.From.Obj().Name())).Values(reachFields(d)...),
		}
		if fills := fillFuncs(userFill, narrowing); fills != nil {
			reach[jen.Id("FillFuncs")] = fills
		}
		f.Func().Id(name).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
			jen.Qual(conversionTestPath, "Reaches").Call(jen.Id("t"),
				jen.Qual(conversionTestPath, "Reach").Types(jen.Id(d.From.Obj().Name()), gotype.Qual(d.To)).Values(reach)),
		)
		f.Line()
	}
}

// reachFields are the conversiontest.ReachField values of d's ByHand.
func reachFields(d *model.Direction) []jen.Code {
	out := make([]jen.Code, 0, len(d.ByHand)+1)
	for _, fv := range d.ByHand {
		out = append(out, jen.Line().Values(jen.Dict{
			jen.Id("Name"): jen.Lit(reachName(d, fv)),
			jen.Id("Field"): jen.Func().Params(jen.Id("s").Op("*").Id(d.From.Obj().Name())).Any().Block(
				jen.Return(jen.Op("&").Id("s").Dot(fv.Name())),
			),
			jen.Id("Help"): jen.Lit(reachHelp(d, fv)),
		}))
	}
	return append(out, jen.Line())
}

// reachName names a field in messages by its Go and JSON names:
// v1alpha1 OrderSpec.Customer (customer).
func reachName(d *model.Direction, fv *types.Var) string {
	name := fmt.Sprintf("%s %s.%s", d.FromVersion.Name, d.From.Obj().Name(), fv.Name())
	if json, _, ok := model.JSONName(d.From, fv); ok {
		name += " (" + json + ")"
	}
	return name
}

// reachHelp says what to write when fv reaches nothing.
func reachHelp(d *model.Direction, fv *types.Var) string {
	return fmt.Sprintf("set the %s field it belongs in from in.%s in %s, or name that field with +%s=<path> on it (then %s, which %s calls first, converts it), or mark it +%s if it lives in %s only",
		d.ToVersion.Name, fv.Name(), d.Func, markers.HubFieldName, d.AutoFunc, d.Func, markers.NoCounterpartName, d.FromVersion.Name)
}
