package conversion

import (
	"fmt"
	"go/types"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
)

// checkCode prints the check of a narrowing field conversion (see
// model.Guard): a value the destination's schema rejects fails the
// conversion with an error that names the field, its JSON path and what the
// destination allows, instead of being written. The webhook answers Failed
// with the message, naming the object. The happy path compares values and
// allocates nothing.
func checkCode(d *model.Direction, fc *model.FieldConv) []jen.Code {
	chk := fc.Guard
	if chk == nil {
		return nil
	}
	src := selector("in", fc.Source)
	_, srcPtr := fc.Source[len(fc.Source)-1].Type().(*types.Pointer)
	val := src.Clone()
	if srcPtr {
		val = jen.Op("*").Add(src.Clone())
	}
	where := fmt.Sprintf("field %s (%s %s.%s)", chk.Path, d.FromVersion.Name, d.From.Obj().Name(), pathString(fc.Source))
	var code []jen.Code
	if bad := badValue(chk, val); bad != nil {
		verb := "%d"
		if chk.Enum != nil {
			verb = "%q"
		}
		if srcPtr {
			bad = src.Clone().Op("!=").Nil().Op("&&").Parens(bad)
		}
		code = append(code, jen.If(bad).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(
			jen.Lit(fmt.Sprintf("%s: %s allows only %s, not %s", where, d.ToVersion.Name, chk.Describe(), verb)), val.Clone()))))
	}
	if chk.Required && srcPtr {
		code = append(code, jen.If(src.Clone().Op("==").Nil()).Block(jen.Return(jen.Qual("fmt", "Errorf").Call(
			jen.Lit(fmt.Sprintf("%s: %s requires a value (%s), and this %s object has none", where, d.ToVersion.Name, chk.Describe(), d.FromVersion.Name))))))
	}
	if len(code) == 0 || !hasPointer(parents(fc.Source)) {
		return code
	}
	return []jen.Code{jen.If(nonNil(fc.Source)).Block(code...)}
}

// badValue is the condition under which val fails the check's enum or
// bounds; nil when the check has neither.
func badValue(chk *model.Guard, val *jen.Statement) *jen.Statement {
	var bad *jen.Statement
	or := func(c *jen.Statement) {
		if bad == nil {
			bad = c
		} else {
			bad = bad.Op("||").Add(c)
		}
	}
	if chk.Enum != nil {
		var not *jen.Statement
		allowed := chk.Enum
		if chk.ZeroOK {
			allowed = append([]string{""}, allowed...)
		}
		// Each value once: an enum may list "" (or a value twice) beside
		// the zero ZeroOK lets through, and go vet rejects a repeated
		// operand of &&.
		seen := map[string]bool{}
		for _, v := range allowed {
			if seen[v] {
				continue
			}
			seen[v] = true
			c := val.Clone().Op("!=").Lit(v)
			if not == nil {
				not = c
			} else {
				not = not.Op("&&").Add(c)
			}
		}
		or(not)
	}
	if chk.Min != nil {
		or(val.Clone().Op("<").Lit(int(*chk.Min)))
	}
	if chk.Max != nil {
		or(val.Clone().Op(">").Lit(int(*chk.Max)))
	}
	// An optional field's zero is its absence, which the schema accepts:
	// exempt it, where the bounds would not already let it through.
	zeroOutside := (chk.Min != nil && *chk.Min > 0) || (chk.Max != nil && *chk.Max < 0)
	if bad != nil && chk.ZeroOK && chk.Enum == nil && zeroOutside {
		bad = val.Clone().Op("!=").Lit(0).Op("&&").Parens(bad)
	}
	return bad
}
