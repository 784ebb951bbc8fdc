// Package webhook prints the conversion webhook's main: a program that
// imports the API packages and crdforge's webhook package, registers every
// kind whose CRD converts through a webhook in a static table, and serves
// ConversionReviews. It builds and runs with no edits.
package webhook

import (
	"bytes"
	"cmp"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/parallel"
	"github.com/crdforge/crdforge/markers"
)

const (
	// codecPkg is the name of the package of generated decoders, a
	// directory beside the main's.
	codecPkg    = "jsoncodec"
	webhookPath = "github.com/crdforge/crdforge/webhook"
	// certmanagePath is the webhook module's --manage-certs.
	certmanagePath = webhookPath + "/certmanage"
	// automigratePath is the webhook module's --migrate-storage.
	automigratePath = webhookPath + "/automigrate"
	kruntimePath    = "k8s.io/apimachinery/pkg/runtime"
)

// mainNames are the names the main declares or imports besides the API
// packages, which no API package's alias may take.
var mainNames = []string{"main", "kinds", "opts", "flag", "os", "webhook", "certmanage", "kruntime", codecPkg, "typedjson", "With", "d", "v", "e", "err", "name", "seen", "data", "obj", "i"}

// The codecs the webhook main can serve objects with.
const (
	// CodecGenerated is a JSON codec generated for the API's types, beside
	// the main (codecFiles): it decodes and encodes without reflection,
	// several times faster than encoding/json on stored objects.
	CodecGenerated = "generated"
	// CodecReflect is the webhook module's reflection codec
	// (encoding/json and sigs.k8s.io/json, as the API server decodes): no
	// generated code to commit, for APIs whose conversion load is small.
	CodecReflect = "reflect"
	// CodecAuto is CodecGenerated while the codec stays within
	// codecBudget, and CodecReflect above it, which generate says (see
	// chooseGenerated).
	CodecAuto = "auto"
)

// Generator generates the webhook main.
type Generator struct {
	// Main is the main file's path, relative to the run's directory.
	Main string
	// Codec is CodecGenerated, CodecReflect or CodecAuto; empty is
	// CodecGenerated.
	Codec string
	// ManageCerts has the main register the webhook module's certmanage
	// (--manage-certs and its flags). It is a setting, not always on,
	// because certmanage links client-go's REST client: a webhook whose
	// certificates cert-manager or crdforge certs keeps stays without it.
	ManageCerts bool
	// MigrateStorage has the main register the webhook module's
	// automigrate (--migrate-storage and its flags), which links
	// client-go's REST and dynamic clients, as ManageCerts does.
	MigrateStorage bool
	// budget is CodecAuto's budget in its tests; 0 is codecBudget.
	budget int
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "webhook" }

// Needs is each kind's strategy: which kinds convert through the webhook.
func (Generator) Needs() model.Options { return model.Options{Strategies: true} }

// Generate returns the main, or nothing when no kind needs a webhook.
//
// In a kubebuilder project it returns the main only when the project's
// go.mod requires crdforge's webhook module (load.WebhookModule): that is
// how a user picks crdforge's standalone webhook. By default the manager
// serves conversions (controller-runtime's handler calls the generated
// ConvertTo and ConvertFrom), and a main importing a module the project
// does not require would break its go build. The main's directory,
// cmd/webhook, is none that kubebuilder scaffolds (its main is cmd/main.go),
// and a hand-written file there is refused, not overwritten, by the output.
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	if kb := m.Kubebuilder; kb != nil && !kb.StandaloneWebhook {
		return nil
	}
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
	mainPath := path.Join(m.ImportPath, filepath.ToSlash(filepath.Dir(g.Main)))
	codecPath := path.Join(mainPath, codecPkg)
	generated := g.Codec != CodecReflect
	if g.Codec == CodecAuto {
		generated = chooseGenerated(kinds, cmp.Or(g.budget, codecBudget), diags)
	}
	var codecs []codecFile
	if generated {
		codecs = codecFiles(codecPath, codecPkg, kinds)
	}
	f := mainFile(m, mainPath, codecPath, kinds, generated, g.ManageCerts, g.MigrateStorage)
	jfiles := []func() (*jen.File, error){func() (*jen.File, error) { return f, nil }}
	for _, c := range codecs {
		jfiles = append(jfiles, c.Print)
	}
	printed, errs := render(jfiles)
	if errs[0] != nil {
		diags.Errorf(kinds[0].Pos(), "printing the webhook main: %v", errs[0])
		return nil
	}
	out := []output.File{{Path: g.Main, Content: printed[0]}}
	for i, c := range codecs {
		if err := errs[1+i]; err != nil {
			diags.Errorf(kinds[0].Pos(), "printing the webhook's codecs (%s): %v", c.Name, err)
			return nil
		}
		out = append(out, output.File{Path: filepath.Join(g.codecDir(), c.Name), Content: printed[1+i]})
	}
	return out
}

// mainFile is the webhook's main package; with generated codecs, it
// imports them from codecPath.
func mainFile(m *model.Model, mainPath, codecPath string, kinds []*model.Kind, generated, manageCerts, migrateStorage bool) *jen.File {
	f := jen.NewFilePathName(mainPath, "main")
	// Like every generated Go file, the main stays out of crdforge's own
	// load (-tags=ignore_autogenerated), so a stale one cannot break it.
	f.HeaderComment("//go:build !ignore_autogenerated")
	f.HeaderComment(output.GoHeader)
	// webhook's name is its own, so it needs no alias; apimachinery's
	// runtime does, being the standard library's name too.
	f.ImportName(webhookPath, "webhook")
	f.ImportAlias(kruntimePath, "kruntime")
	f.ImportName(codecPath, codecPkg)
	pinAliases(f, kinds)

	var names []string
	for _, k := range kinds {
		names = append(names, k.Name+"."+k.Group)
	}
	f.PackageComment("Command webhook is the conversion webhook of " + m.Project + ". It converts")
	f.PackageComment(strings.Join(names, ", ") + " between their versions")
	f.PackageComment("when the API server asks, through crdforge's runtime: run it with --help for its flags.")

	served := jen.Id("kinds").Call()
	if generated {
		served = jen.Qual(codecPath, "With").Call(served)
	}
	body := []jen.Code{jen.Id("opts").Op(":=").Qual(webhookPath, "BindFlags").Call(jen.Qual("flag", "CommandLine"))}
	if manageCerts {
		f.ImportName(certmanagePath, "certmanage")
		body = append(body, jen.Id("opts").Dot("ManageCerts").Call(jen.Qual(certmanagePath, "BindFlags").Call(jen.Qual("flag", "CommandLine"))))
	}
	if migrateStorage {
		// After certmanage's: both take --kubeconfig, which the first
		// defines.
		f.ImportName(automigratePath, "automigrate")
		body = append(body, jen.Id("opts").Dot("MigrateStorage").Call(jen.Qual(automigratePath, "BindFlags").Call(jen.Qual("flag", "CommandLine"))))
	}
	f.Func().Id("main").Params().Block(append(body,
		jen.Qual("flag", "Parse").Call(),
		jen.Qual("os", "Exit").Call(jen.Qual(webhookPath, "Run").Call(jen.Id("opts"), served.Op("..."))),
	)...)
	f.Line()
	f.Comment("kinds is the static conversion table: every version of every kind, with")
	f.Comment("its hub.")
	f.Func().Id("kinds").Params().Index().Qual(webhookPath, "Kind").Block(
		jen.Return(jen.Index().Qual(webhookPath, "Kind").Values(kindEntries(kinds)...)),
	)
	return f
}

// kindEntries are the webhook.Kind values of the conversion table.
func kindEntries(kinds []*model.Kind) []jen.Code {
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
	return entries
}

// render builds and prints files side by side, at most GOMAXPROCS at once,
// and returns each one's bytes and error in files' order. Rendering is
// mostly go/format, and one file of a large tree's codecs took seconds on
// one core; a file's code is built only here, so that no more files' code
// is held at once than are printed (codecFiles).
func render(files []func() (*jen.File, error)) ([][]byte, []error) {
	printed := make([][]byte, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), func(i int) {
		f, err := files[i]()
		if err != nil {
			errs[i] = err
			return
		}
		var buf bytes.Buffer
		errs[i] = f.Render(&buf)
		printed[i] = output.GroupImports(buf.Bytes())
	})
	return printed, errs
}

// codecDir is the directory of the generated codec package, beside the
// main's.
func (g Generator) codecDir() string {
	return filepath.Join(filepath.Dir(g.Main), codecPkg)
}

// Owns is the main's path and those of the codec package's files (see
// codecFiles), so that the file of a package whose types are no longer
// decoded (a version removed) is deleted.
func (g Generator) Owns(m *model.Model) []string {
	if m.Kubebuilder != nil {
		return nil // never delete a main there: it may be the user's
	}
	base := filepath.Join(g.codecDir(), "zz_generated."+codecPkg)
	return []string{g.Main, base + ".go", base + ".*.go"}
}

// pinAliases names every version package after its group and version
// (examplecomv1 for example.com/v1), so that versions of different groups
// never collide and jennifer never invents an alias.
func pinAliases(f *jen.File, kinds []*model.Kind) {
	for p, alias := range aliases(kinds) {
		f.ImportAlias(p, alias)
	}
}

// aliases maps every version package's path to its alias. Whatever the
// package's own name (webhook, say), its alias is <group><version>. In the
// rare case that this spells a name the main uses itself, a Go keyword or
// predeclared name, or the alias of another group's version (a.bc and ab.c
// both give abcv1), a number sets it apart, given in path order so that the
// output stays the same run after run.
func aliases(kinds []*model.Kind) map[string]string {
	base := map[string]string{}
	var paths []string
	for _, k := range kinds {
		for _, v := range k.Versions {
			if _, ok := base[v.Package.PkgPath]; ok {
				continue
			}
			base[v.Package.PkgPath] = identifier(k.Group) + identifier(v.Name)
			paths = append(paths, v.Package.PkgPath)
		}
	}
	sort.Strings(paths)
	taken := map[string]bool{}
	for _, n := range mainNames {
		taken[n] = true
	}
	out := map[string]string{}
	for _, p := range paths {
		alias := base[p]
		for n := 2; taken[alias] || token.IsKeyword(alias) || types.Universe.Lookup(alias) != nil; n++ {
			alias = base[p] + "_" + strconv.Itoa(n)
		}
		taken[alias] = true
		out[p] = alias
	}
	return out
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

// Scaffold says the webhook's main only gets a project going: a main of the
// user's at its path is left alone, and none is generated.
func (Generator) Scaffold() bool { return true }
