package conversion

import (
	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/gotype"
)

// TestFileName is the name of the generated round-trip tests in each spoke
// package.
const TestFileName = "zz_generated.conversion_test.go"

// FillFuncsName is the function an author may write in a _test.go file of a
// spoke package to give the round-trip tests randfill functions that make
// valid inputs, when a hand-written conversion rejects some values.
const FillFuncsName = "conversionFillFuncs"

// printRoundTripTest prints a spoke's round-trip test and fuzz target,
// filled with the author's fill functions (userFill) and those that keep
// narrowed fields to accepted values (narrowing), the author's last.
func printRoundTripTest(f *jen.File, s *model.Spoke, userFill, narrowing bool) {
	root := s.Pairs[0]
	spoke := root.Spoke.Obj().Name()
	suffix := s.Version.Name + "_" + spoke
	edits := spokeEdits(s)
	pair := func(edits []edit) jen.Code {
		return jen.Qual(conversionTestPath, "Pair").Values(jen.DictFunc(func(d jen.Dict) {
			d[jen.Id("Spoke")] = jen.Func().Params().Qual(ctrlConversionPath, "Convertible").Block(jen.Return(jen.Op("&").Id(spoke).Values()))
			d[jen.Id("Hub")] = jen.Func().Params().Qual(ctrlConversionPath, "Hub").Block(jen.Return(jen.Op("&").Add(gotype.Qual(root.Hub)).Values()))
			if fills := fillFuncs(userFill, narrowing); fills != nil {
				d[jen.Id("FillFuncs")] = fills
			}
			if len(edits) > 0 {
				d[jen.Id("Edits")] = printEdits(spoke, edits)
			}
		}))
	}
	f.Commentf("TestRoundTrip_%s converts random %s %ss to the hub (%s) and back, and", suffix, s.Version.Name, spoke, root.HubVersion.Name)
	if len(edits) == 0 {
		f.Comment("random hub objects to this version and back, and checks that nothing changes.")
	} else {
		f.Comment("random hub objects to this version and back, and checks that nothing changes;")
		f.Comment("then edits fields of this version between two conversions, as its clients do,")
		f.Comment("and checks that each edit wins over the stash and changes nothing else.")
	}
	f.Comment("CRDFORGE_ROUNDTRIP_ITERATIONS sets how many objects each direction tries.")
	f.Func().Id("TestRoundTrip_" + suffix).Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Qual(conversionTestPath, "RoundTrip").Call(jen.Id("t"), pair(edits)),
	)
	f.Line()
	f.Commentf("FuzzRoundTrip_%s is TestRoundTrip_%s as a go test -fuzz target.", suffix, suffix)
	f.Func().Id("FuzzRoundTrip_" + suffix).Params(jen.Id("f").Op("*").Qual("testing", "F")).Block(
		jen.Qual(conversionTestPath, "FuzzRoundTrip").Call(jen.Id("f"), pair(nil)),
	)
	f.Line()
}

// fillFuncs are the fill functions of the package's tests: the author's
// (userFill) after those that keep narrowed fields to accepted values
// (narrowing); nil when there are none.
func fillFuncs(userFill, narrowing bool) jen.Code {
	switch {
	case narrowing && userFill:
		return jen.Append(jen.Id(NarrowingFillFuncsName).Call(), jen.Id(FillFuncsName).Call().Op("..."))
	case narrowing:
		return jen.Id(NarrowingFillFuncsName).Call()
	case userFill:
		return jen.Id(FillFuncsName).Call()
	}
	return nil
}
