package plan

import (
	"fmt"
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
)

// findManual looks for hand-written Convert_ functions in the spoke package
// and checks their signatures.
func (p *pairer) findManual() {
	scope := p.spoke.Package.Types.Scope()
	for _, tp := range p.order {
		for _, d := range tp.Directions() {
			obj := scope.Lookup(d.Func)
			if obj == nil {
				continue
			}
			fn, ok := obj.(*types.Func)
			if !ok || !validSignature(fn, d) {
				p.diags.Errorf(obj.Pos(), "%s has the wrong signature", d.Func).
					Help("want %s", Signature(d))
				d.WrongSignature = true
				continue
			}
			d.Manual = fn
			asConversionGen(d, p.metav1Funcs)
		}
	}
}

// asConversionGen makes the autoConvert_ of a direction with a hand-written
// Convert_ convert what conversion-gen's would, and no more: the
// hand-written function was written against conversion-gen's output, which
// leaves a field between a pointer and a value (*T and T, optional and
// required) to it, with a warning comment. Converting such a field anyway
// (a nil pointer made a pointer to a zero value) would change what that
// function's author gets: Cluster API's sets an optional reference only
// when it is defined, and would find it set already.
//
// conversion-gen does convert the pointer shapes that metav1, one of its
// default peer packages, has functions for (Convert_Pointer_string_To_string,
// Convert_int32_To_Pointer_int32, ...): those stay, with the same meaning.
func asConversionGen(d *model.Direction, metav1Funcs map[[2]string]bool) {
	for _, f := range d.Fields {
		shape := f.Conv.Find(func(c *model.Conv) (bool, bool) {
			switch c.Kind {
			case model.ConvDeref, model.ConvAddr:
				return !metav1Funcs[funcKey(c.From, c.To)], true
			case model.ConvPair, model.ConvFunc, model.ConvManual:
				return false, true // converted by a function, or not at all
			}
			return false, false
		})
		if shape == nil {
			continue
		}
		f.Conv = &model.Conv{Kind: model.ConvManual, From: f.Conv.From, To: f.Conv.To,
			Reason: fmt.Sprintf("conversion-gen converts no pointer to a value or back (%s to %s), so %s converts it", typeString(shape.From), typeString(shape.To), d.Func)}
	}
}

// typeString names a type for a comment, its package by its name.
func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// reportManual tells, for every conversion a generated entry point needs
// that needs a hand-written function the author has not written yet, which
// field needs it, why, and the exact signature to write. Conversions nothing
// generated needs (the entry points are hand-written) are not reported: the
// author's own code converts. A root opted out of generated conversion, with
// nothing written in its place, is reported once, at the root type.
func (p *pairer) reportManual(spokes []*model.Spoke) {
	for _, s := range spokes {
		root := s.Pairs[0]
		if root.OptOut && !s.Convertible() {
			p.diags.Warnf(root.Pos, "%s %s is opted out with +k8s:conversion-gen=false: crdforge writes no ConvertTo or ConvertFrom", s.Version.Name, root.Spoke.Obj().Name()).
				Note("until they exist it converts neither through crdforge's webhook nor its round-trip tests").
				Help("write %s and %s in package %s, or the two methods of controller-runtime's conversion.Convertible",
					root.ToHub.Func, root.ToSpoke.Func, p.spoke.Package.Name)
		}
	}
	for _, tp := range p.order {
		for _, d := range tp.Directions() {
			if (!d.Needed && len(d.WantedBy) == 0) || d.Manual != nil || d.WrongSignature {
				continue
			}
			if tp.OptOut {
				if !tp.Root() {
					w := p.diags.Warnf(tp.Pos, "%s is opted out with +k8s:conversion-gen=false", tp.Spoke.Obj().Name()).
						Help("write %s in package %s", Signature(d), p.spoke.Package.Name)
					if until := servedNone(d); until != "" {
						w.Note("%s", until)
					}
				}
				continue
			}
			fields, reasons := d.NeedsManual()
			for i, f := range fields {
				w := p.diags.Warnf(f.Mapping.Pos, "in.%s requires manual conversion (%s)", f.Mapping.Spoke.Name(), d.Describe()).
					Note("%s", reasons[i]).
					Help("write %s in package %s", Signature(d), p.spoke.Package.Name).
					// Without the call, every other field is left for the
					// author to convert too, and one forgotten reaches only
					// the stash.
					Help("have it call %s(in, out, s) first, which converts every other field, then convert in.%s", d.AutoFunc, f.Mapping.Spoke.Name())
				if until := servedNone(d); until != "" {
					w.Note("%s", until)
				}
			}
		}
	}
}

// handWrittenFuncs indexes the hand-written conversion functions of the
// spoke and hub packages, conversion-gen's way: any top-level
// Convert_<a>_<A>_To_<b>_<B>(in *A, out *B, s conversion.Scope) error, whatever
// A and B are, converts every value of A into B.
func (pl *planner) handWrittenFuncs(pkgs ...*loader.Package) map[[2]string]*types.Func {
	out := map[[2]string]*types.Func{}
	for _, pkg := range pkgs {
		for key, fn := range pl.convertFuncsOf(pkg) {
			if _, taken := out[key]; !taken {
				out[key] = fn
			}
		}
	}
	return out
}

// convertFuncsOf indexes one package's hand-written conversion functions,
// once: every spoke's peers include nearly every root.
func (pl *planner) convertFuncsOf(pkg *loader.Package) map[[2]string]*types.Func {
	if funcs, ok := pl.convertFuncs[pkg]; ok {
		return funcs
	}
	if pl.convertFuncs == nil {
		pl.convertFuncs = map[*loader.Package]map[[2]string]*types.Func{}
	}
	out := map[[2]string]*types.Func{}
	pl.convertFuncs[pkg] = out
	if pkg.Types == nil {
		return out // a root a run for CRDs alone left unchecked declares no Convert_ (load.CheckAPIs)
	}
	scope := pkg.Types.Scope()
	for _, name := range scope.Names() {
		fn, ok := scope.Lookup(name).(*types.Func)
		if !ok || !strings.HasPrefix(name, "Convert_") || !strings.Contains(name, "_To_") {
			continue
		}
		in, to, ok := conversionParams(fn)
		if !ok {
			continue
		}
		if key := funcKey(in, to); out[key] == nil {
			out[key] = fn
		}
	}
	return out
}

// metav1Path is the package of ObjectMeta, and of conversion functions
// between pointers and values of basic types that conversion-gen uses.
const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// metav1ConversionFuncs indexes metav1's Convert_ functions by the types
// they convert, as handWrittenFuncs does, when pkg imports metav1.
func metav1ConversionFuncs(pkg *loader.Package) map[[2]string]bool {
	out := map[[2]string]bool{}
	for _, imp := range pkg.Types.Imports() {
		if imp.Path() != metav1Path {
			continue
		}
		for _, name := range imp.Scope().Names() {
			if fn, ok := imp.Scope().Lookup(name).(*types.Func); ok && strings.HasPrefix(name, "Convert_") {
				if in, out2, ok := conversionParams(fn); ok {
					out[funcKey(in, out2)] = true
				}
			}
		}
	}
	return out
}

// conversionParams returns A and B of func(in *A, out *B, s conversion.Scope)
// error.
func conversionParams(fn *types.Func) (in, out types.Type, ok bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() != nil || sig.Params().Len() != 3 || sig.Results().Len() != 1 {
		return nil, nil, false
	}
	pin, ok1 := sig.Params().At(0).Type().(*types.Pointer)
	pout, ok2 := sig.Params().At(1).Type().(*types.Pointer)
	scope, ok3 := sig.Params().At(2).Type().(*types.Named)
	if !ok1 || !ok2 || !ok3 || scope.Obj().Name() != "Scope" || scope.Obj().Pkg() == nil || scope.Obj().Pkg().Path() != "k8s.io/apimachinery/pkg/conversion" ||
		!types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
		return nil, nil, false
	}
	return pin.Elem(), pout.Elem(), true
}

// Signature is the exact declaration a hand-written conversion must have, as
// written in the spoke package.
func Signature(d *model.Direction) string {
	return fmt.Sprintf("func %s(in *%s, out *%s, s conversion.Scope) error", d.Func, spokeView(d, d.From), spokeView(d, d.To))
}

// spokeView names a type of the pair as the spoke package sees it.
func spokeView(d *model.Direction, n *types.Named) string {
	if n == d.Pair.Spoke {
		return n.Obj().Name()
	}
	return d.Pair.HubVersion.Package.Name + "." + n.Obj().Name()
}

func validSignature(fn *types.Func, d *model.Direction) bool {
	in, out, ok := conversionParams(fn)
	return ok && types.Identical(in, d.From) && types.Identical(out, d.To)
}
