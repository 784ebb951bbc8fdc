// Package minimums says what crdforge's generated code needs of the module
// it is written into, and checks that module's go.mod against it: a go
// directive or a Kubernetes requirement below it surfaces otherwise only when
// `go mod tidy` raises it, or the build fails.
package minimums

import (
	"go/token"
	"go/version"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/crdforge/crdforge/internal/diag"
)

// Needs is what code importing one of crdforge's lean modules needs of the
// module it is in: at least that lean module's go directive and
// requirements, which go mod tidy would raise the module to.
type Needs struct {
	// Module is the lean module the code imports.
	Module string
	// Go is the lowest go directive, such as "1.21".
	Go string
	// Require are the lowest versions of the modules it shares with
	// Kubernetes projects.
	Require []module.Version
}

// The modules whose versions a Kubernetes project picks, and that
// crdforge's lean modules require too.
const (
	APIMachinery      = "k8s.io/apimachinery"
	ControllerRuntime = "sigs.k8s.io/controller-runtime"
)

// The one place that states the minimums, each its module's go.mod (a test
// holds each to its go.mod). Generated conversions and their tests import
// the runtime; a generated webhook main imports the webhook module.
var (
	Runtime = Needs{
		Module:  "github.com/crdforge/crdforge/runtime",
		Go:      "1.21",
		Require: []module.Version{{Path: APIMachinery, Version: "v0.29.0"}, {Path: ControllerRuntime, Version: "v0.16.0"}},
	}
	Webhook = Needs{
		Module:  "github.com/crdforge/crdforge/webhook",
		Go:      "1.21",
		Require: []module.Version{{Path: APIMachinery, Version: "v0.29.0"}, {Path: ControllerRuntime, Version: "v0.16.0"}},
	}
)

// below is one line of go.mod that is lower than the code needs.
type below struct {
	// what is lower, as the warning says it; found and want the versions.
	what, found, want string
	// fix raises it: a go get argument, or, for a version that a replace
	// directive sets, a go mod edit flag.
	fix      string
	line     *modfile.Line
	replaced bool
}

// together is what needs ask together: the highest go version, the highest
// version of each module required, and the modules that ask, sorted.
func together(needs []Needs) (wantGo string, want map[string]string, modules []string) {
	want = map[string]string{}
	for _, n := range needs {
		if wantGo == "" || version.Compare("go"+n.Go, "go"+wantGo) > 0 {
			wantGo = n.Go
		}
		modules = append(modules, n.Module)
		for _, r := range n.Require {
			if want[r.Path] == "" || semver.Compare(r.Version, want[r.Path]) > 0 {
				want[r.Path] = r.Version
			}
		}
	}
	slices.Sort(modules)
	return wantGo, want, slices.Compact(modules)
}

// Check returns one warning for the go.mod at path, whose content is given,
// when its go directive or a requirement is below what needs ask together:
// at the first such line, naming each version found and the one needed,
// and the command that raises them all. A go.mod that does not parse gets
// none (the load that used it said what is wrong), nor does a requirement
// replaced by a directory (its version says nothing) or by another module,
// or one go.mod does not have (go mod tidy adds it at the version needed).
func Check(path string, content []byte, needs []Needs) (diag.Diagnostic, bool) {
	mf, err := modfile.Parse(path, content, nil)
	if err != nil || len(needs) == 0 {
		return diag.Diagnostic{}, false
	}
	wantGo, want, modules := together(needs)
	// go get go@1.22 would write the latest 1.22.x; the first release is
	// enough.
	getGo := "go@" + wantGo
	if strings.Count(wantGo, ".") == 1 {
		getGo += ".0"
	}
	var lows []below
	switch {
	case mf.Go == nil: // the go command reads go 1.16 then
		lows = append(lows, below{what: "no go directive", want: wantGo, fix: getGo, line: mf.Module.Syntax})
	case version.Compare("go"+mf.Go.Version, "go"+wantGo) < 0:
		lows = append(lows, below{what: "go", found: mf.Go.Version, want: wantGo, fix: getGo, line: mf.Go.Syntax})
	}
	for _, r := range mf.Require {
		least, ok := want[r.Mod.Path]
		if !ok {
			continue
		}
		low := below{what: r.Mod.Path, found: r.Mod.Version, want: least, fix: r.Mod.Path + "@" + least, line: r.Syntax}
		if rep := replacement(mf, r.Mod); rep != nil {
			if rep.New.Version == "" || rep.New.Path != r.Mod.Path {
				continue
			}
			low.found, low.line, low.replaced = rep.New.Version, rep.Syntax, true
			low.fix = "-replace=" + r.Mod.Path + "=" + r.Mod.Path + "@" + least
		}
		if semver.Compare(low.found, least) < 0 {
			lows = append(lows, low)
		}
	}
	if len(lows) == 0 {
		return diag.Diagnostic{}, false
	}
	slices.SortStableFunc(lows, func(a, b below) int { return a.line.Start.Line - b.line.Start.Line })
	var found, get, edit []string
	for _, l := range lows {
		found = append(found, strings.TrimSpace(l.what+" "+l.found)+" (needs "+l.want+")")
		if l.replaced {
			edit = append(edit, l.fix)
		} else {
			get = append(get, l.fix)
		}
	}
	get = append(get, lockstep(mf, lows)...)
	var commands []string
	if len(get) > 0 {
		commands = append(commands, "`go get "+strings.Join(get, " ")+"`")
	}
	if len(edit) > 0 {
		commands = append(commands, "`go mod edit "+strings.Join(edit, " ")+"`")
	}
	first := lows[0].line.Start
	return diag.Diagnostic{
		Pos:      token.Position{Filename: path, Line: first.Line, Column: first.LineRune},
		Severity: diag.Warning,
		Msg:      "go.mod is below the versions crdforge's generated code needs",
		Notes: []diag.Note{
			{Kind: diag.KindNote, Text: strings.Join(found, ", ")},
			{Kind: diag.KindNote, Text: "generated code imports " + strings.Join(modules, " and ") + "; go mod tidy would raise them alone"},
			{Kind: diag.KindHelp, Text: "run " + strings.Join(commands, " and ") + " before building"},
		},
	}, true
}

// replacement is the replace directive that applies to m, if any.
func replacement(mf *modfile.File, m module.Version) *modfile.Replace {
	var out *modfile.Replace
	for _, r := range mf.Replace {
		if r.Old.Path == m.Path && (r.Old.Version == "" || r.Old.Version == m.Version) {
			if out == nil || r.Old.Version != "" { // a versioned replace wins
				out = r
			}
		}
	}
	return out
}

// lockstep lists, as go get arguments, the other k8s.io modules go.mod
// requires at apimachinery's minor version, when apimachinery is among lows:
// Kubernetes releases them together (api, client-go, apiextensions-apiserver,
// ...), and one raised alone does not build against the others.
func lockstep(mf *modfile.File, lows []below) []string {
	i := slices.IndexFunc(lows, func(l below) bool { return l.what == APIMachinery && !l.replaced })
	if i < 0 {
		return nil
	}
	minor, want := semver.MajorMinor(lows[i].found), lows[i].want
	var out []string
	for _, r := range mf.Require {
		if strings.HasPrefix(r.Mod.Path, "k8s.io/") && r.Mod.Path != APIMachinery &&
			semver.MajorMinor(r.Mod.Version) == minor && replacement(mf, r.Mod) == nil {
			out = append(out, r.Mod.Path+"@"+want)
		}
	}
	return out
}
