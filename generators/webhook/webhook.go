// Package webhook prints the conversion webhook's main: a program that
// imports the API packages and crdforge's runtime, registers every kind whose
// CRD converts through a webhook in a static table, and serves
// ConversionReviews. It builds and runs with no edits.
package webhook

import (
	"bytes"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/crdforge/crdforge/generators/diag"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/output"
	"github.com/crdforge/crdforge/markers"
	"github.com/dave/jennifer/jen"
)

// DefaultMain is where the main goes unless configured otherwise, relative
// to the run's directory.
const DefaultMain = "cmd/webhook/main.go"

const (
	runtimePath  = "github.com/crdforge/crdforge/runtime"
	kruntimePath = "k8s.io/apimachinery/pkg/runtime"
)

// Generator generates the webhook main.
type Generator struct {
	// Main is the main file's path, relative to the run's directory.
	Main string
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "webhook" }

// Generate returns the main, or nothing when no kind needs a webhook.
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	var kinds []*model.Kind
	for _, grp := range m.Groups {
		for _, k := range grp.Kinds {
			if k.Conversion.Strategy == markers.StrategyWebhook && k.Hub != nil {
				kinds = append(kinds, k)
			}
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	mainPath := g.Main
	if mainPath == "" {
		mainPath = DefaultMain
	}
	f := jen.NewFilePathName(path.Join(m.ImportPath, filepath.ToSlash(filepath.Dir(mainPath))), "main")
	f.HeaderComment(output.GoHeader)
	f.ImportAlias(runtimePath, "crdruntime")
	f.ImportAlias(kruntimePath, "kruntime")
	pinAliases(f, kinds)

	var names []string
	for _, k := range kinds {
		names = append(names, k.Name+"."+k.Group)
	}
	f.PackageComment("Command webhook is the conversion webhook of " + m.Project + ". It converts")
	f.PackageComment(strings.Join(names, ", ") + " between their versions")
	f.PackageComment("when the API server asks, through crdforge's runtime: run it with --help for its flags.")

	f.Func().Id("main").Params().Block(
		jen.Id("opts").Op(":=").Qual(runtimePath, "BindFlags").Call(jen.Qual("flag", "CommandLine")),
		jen.Qual("flag", "Parse").Call(),
		jen.Qual("os", "Exit").Call(jen.Qual(runtimePath, "Run").Call(jen.Id("opts"), jen.Id("kinds").Call().Op("..."))),
	)
	f.Line()
	f.Comment("kinds is the static conversion table: every version of every kind, with")
	f.Comment("its hub.")
	var entries []jen.Code
	for _, k := range kinds {
		versions := jen.Dict{}
		for _, v := range k.Versions {
			versions[jen.Lit(v.Name)] = jen.Func().Params().Qual(kruntimePath, "Object").Block(
				jen.Return(jen.New(jen.Qual(v.Package.PkgPath, v.Type.Obj().Name()))),
			)
		}
		entries = append(entries, jen.Values(jen.Dict{
			jen.Id("Group"):    jen.Lit(k.Group),
			jen.Id("Kind"):     jen.Lit(k.Name),
			jen.Id("Hub"):      jen.Lit(k.Hub.Name),
			jen.Id("Versions"): jen.Map(jen.String()).Func().Params().Qual(kruntimePath, "Object").Values(versions),
		}))
	}
	f.Func().Id("kinds").Params().Index().Qual(runtimePath, "Kind").Block(
		jen.Return(jen.Index().Qual(runtimePath, "Kind").Values(entries...)),
	)

	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		diags.Errorf(kinds[0].Pos(), "printing the webhook main: %v", err)
		return nil
	}
	return []output.File{{Path: mainPath, Content: buf.Bytes()}}
}

// pinAliases names every version package after its group and version
// (examplecomv1 for example.com/v1), so that versions of different groups
// never collide and jennifer never invents an alias.
func pinAliases(f *jen.File, kinds []*model.Kind) {
	aliases := map[string]string{}
	var paths []string
	for _, k := range kinds {
		for _, v := range k.Versions {
			if _, ok := aliases[v.Package.PkgPath]; ok {
				continue
			}
			aliases[v.Package.PkgPath] = identifier(k.Group) + identifier(v.Name)
			paths = append(paths, v.Package.PkgPath)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		f.ImportAlias(p, aliases[p])
	}
}

func identifier(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}
