package plan

import (
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// findHandWritten finds the Hub, ConvertTo and ConvertFrom methods an author
// wrote (kubebuilder's multiversion tutorial, or `kubebuilder create webhook
// --conversion` scaffolds them). They take over from the generated ones, as
// hand-written Convert_ functions do: crdforge generates none of them, and
// says once, at the method, what the generated one would do instead.
func (pl *planner) findHandWritten(diags *diag.List) {
	for _, g := range pl.Groups {
		for _, k := range g.Kinds {
			if k.Hub == nil || len(k.Spokes) == 0 {
				continue
			}
			k.HubMethod = model.DeclaredMethod(k.Hub.Type, "Hub")
			for _, s := range k.Spokes {
				root := s.Pairs[0]
				s.ConvertTo = model.DeclaredMethod(s.Version.Type, "ConvertTo")
				s.ConvertFrom = model.DeclaredMethod(s.Version.Type, "ConvertFrom")
				for _, f := range []*types.Func{s.ConvertTo, s.ConvertFrom} {
					if f != nil && s.Foreign == nil && !isConvertibleMethod(f) {
						s.Foreign = f
					}
				}
				if f := s.Foreign; f != nil {
					// Another framework's methods: the names are taken,
					// so crdforge writes neither entry point, and says
					// so once, as for an opted-out root.
					diags.Warnf(f.Pos(), "%s %s's %s is not controller-runtime's", s.Version.Name, k.Name, f.Name()).
						Note("so crdforge generates neither ConvertTo nor ConvertFrom for %s %s, nor its round-trip test; its Convert_ functions are generated for your code to call", s.Version.Name, k.Name).
						Note("until it implements controller-runtime's conversion.Convertible, it converts neither through crdforge's webhook nor through controller-runtime's").
						Help("give it controller-runtime's signature: func (*%s) %s", k.Name, convertibleSignature(f.Name()))
					continue
				}
				for _, e := range []struct {
					method *types.Func
					d      *model.Direction
				}{{s.ConvertTo, root.ToHub}, {s.ConvertFrom, root.ToSpoke}} {
					if e.method != nil {
						diags.Warnf(e.method.Pos(), "%s %s has a hand-written %s, so crdforge generates none", s.Version.Name, k.Name, e.method.Name()).
							Note("the generated one converts %s with %s (hand-written Convert_ functions included) and keeps round trips exact by stashing what %s cannot hold",
								e.d.Describe(), e.d.Func, e.d.ToVersion.Name).
							Help("delete this method to use it")
					}
				}
			}
		}
	}
}

// isConvertibleMethod reports whether f, a ConvertTo or ConvertFrom method,
// has the signature of controller-runtime's conversion.Convertible:
// one conversion.Hub parameter and an error result.
func isConvertibleMethod(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 1 {
		return false
	}
	hub, ok := sig.Params().At(0).Type().(*types.Named)
	if !ok || hub.Obj().Pkg() == nil || hub.Obj().Pkg().Path() != conversionPkg || hub.Obj().Name() != "Hub" {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// conversionPkg is controller-runtime's conversion package.
const conversionPkg = "sigs.k8s.io/controller-runtime/pkg/conversion"

// convertibleSignature is how conversion.Convertible declares method name.
func convertibleSignature(name string) string {
	param := "dst"
	if name == "ConvertFrom" {
		param = "src"
	}
	return name + "(" + param + " conversion.Hub) error"
}
