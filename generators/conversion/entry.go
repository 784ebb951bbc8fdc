package conversion

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// printEntry prints the spoke's ConvertTo (for the direction to the hub) or
// ConvertFrom (from the hub): a type check of the hub object, then one call
// into the lossless runtime with both directions of the root pair, which
// converts and keeps the round trip exact. The destination's apiVersion and
// kind are its version's.
func printEntry(f *jen.File, d *model.Direction) {
	root := d.Pair
	spoke, hubName := root.Spoke.Obj().Name(), root.Hub.Obj().Name()
	sv, hv := root.SpokeVersion.Name, root.HubVersion.Name
	toHub := d == root.ToHub
	method, recv, raw, other, failure := "ConvertTo", "src", "dstRaw", "dst", "converting "+sv+" "+spoke
	doc := fmt.Sprintf("ConvertTo converts this %s to the hub version, %s.", spoke, hv)
	if !toHub {
		method, recv, raw, other, failure = "ConvertFrom", "dst", "srcRaw", "src", "converting to "+sv+" "+spoke
		doc = fmt.Sprintf("ConvertFrom converts a hub (%s) %s to this version, %s.", hv, hubName, sv)
	}
	dstName := "dst"
	f.Comment(doc)
	f.Func().Params(jen.Id(recv).Op("*").Id(spoke)).Id(method).Params(jen.Id(raw).Qual(ctrlConversionPath, "Hub")).Error().Block(
		jen.List(jen.Id(other), jen.Id("ok")).Op(":=").Id(raw).Assert(jen.Op("*").Add(gotype.Qual(root.Hub))),
		jen.If(jen.Op("!").Id("ok")).Block(
			jen.Return(jen.Qual("fmt", "Errorf").Call(jen.Lit(failure+": the hub is *"+hv+"."+hubName+", not %T"), jen.Id(raw))),
		),
		// The Convert_ functions leave TypeMeta alone, as conversion-gen's
		// do; the entry point says what the converted object is.
		jen.Id(dstName).Dot("TypeMeta").Op("=").Qual(metav1Path, "TypeMeta").Values(jen.Dict{
			jen.Id("APIVersion"): jen.Lit(d.ToVersion.Kind.Group + "/" + d.ToVersion.Name),
			jen.Id("Kind"):       jen.Lit(d.ToVersion.Kind.Name),
		}),
		jen.Return(jen.Qual(losslessPath, "Convert").Call(jen.Id("src"), jen.Id("dst"), jen.Line().Add(direction(d)), jen.Line().Add(direction(d.Reverse)))),
	)
	if !toHub {
		f.Var().Id("_").Qual(ctrlConversionPath, "Convertible").Op("=").Op("&").Id(spoke).Values()
	}
	f.Line()
}

// direction prints the lossless runtime's description of a root direction:
// its versions, its Convert_ function and how it can lose data.
func direction(d *model.Direction) jen.Code {
	args := []jen.Code{jen.Lit(d.FromVersion.Name), jen.Lit(d.ToVersion.Name), jen.Id(d.Func)}
	switch d.Loss {
	case model.LossChecked:
		return jen.Qual(losslessPath, "Checked").Call(append(args, jen.Id(d.LossyFunc))...).Dot("LostIn").Call(jen.Id(lostInVar(d)))
	case model.LossRoundTrip:
		return jen.Qual(losslessPath, "RoundTrip").Call(args...)
	}
	return jen.Qual(losslessPath, "Lossless").Call(args...)
}
