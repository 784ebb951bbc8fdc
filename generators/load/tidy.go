package load

import (
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/crdforge/crdforge/internal/diag"
)

// The go command's messages for a go.mod that lacks what the code imports:
// a newcomer runs crdforge before `go mod tidy`, and each missing
// requirement comes back as a list error plus a type error at every import
// of it ("could not import ... (invalid package name: \"\")", "use of
// unimported package"). The go command has no structured form of this
// (packages.Error carries text only), so the messages are matched; should
// the go command reword them, the errors pass through unchanged, as before.
var untidy = []string{
	"no required module provides package",
	"missing go.sum entry",
	"updates to go.mod needed",
}

// untidyModule reports whether the load failed because a module's
// requirements are incomplete, with the go.mod to tidy and the packages
// missing, sorted.
func (r *Result) untidyModule(all []*packages.Package) (gomod string, missing []string) {
	for _, p := range all {
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError || !slices.ContainsFunc(untidy, func(s string) bool { return strings.Contains(e.Msg, s) }) {
				continue
			}
			if pkg := missingPackage(e.Msg); pkg != "" && !slices.Contains(missing, pkg) {
				missing = append(missing, pkg)
			}
			if gomod == "" {
				gomod = r.goMod()
			}
		}
	}
	slices.Sort(missing)
	return gomod, missing
}

// missingPackage reads the import path out of "no required module provides
// package P; ..." or "missing go.sum entry for module providing package P".
func missingPackage(msg string) string {
	_, rest, ok := strings.Cut(msg, "package ")
	if !ok {
		return ""
	}
	return strings.TrimRight(strings.FieldsFunc(rest, func(r rune) bool { return r == ';' || r == ' ' || r == '\n' || r == '(' })[0], ":")
}

// goMod is the go.mod of the roots' main module.
func (r *Result) goMod() string {
	if m := r.mainModule(); m != nil && m.GoMod != "" {
		return m.GoMod
	}
	return "go.mod"
}

// mainModule is the roots' module, if the load knows it.
func (r *Result) mainModule() *packages.Module {
	for _, root := range r.Roots {
		if root.Module != nil && root.Module.GoMod != "" {
			return root.Module
		}
	}
	return nil
}

// tidyHint is the one diagnostic that replaces every error an untidy go.mod
// causes. modPath is the module's path: a missing package under it is
// missing from the module itself (API packages copied without a package of
// their module that they import), which `go mod tidy` cannot fix.
func tidyHint(gomod, modPath string, missing []string) diag.Diagnostic {
	var own, others []string
	for _, m := range missing {
		if modPath != "" && (m == modPath || strings.HasPrefix(m, modPath+"/")) {
			own = append(own, m)
		} else {
			others = append(others, m)
		}
	}
	d := diag.Diagnostic{
		Pos:      token.Position{Filename: gomod, Line: 1, Column: 1},
		Severity: diag.Error,
		Msg:      "the module does not provide every package its code imports",
	}
	var help []string
	if len(own) > 0 {
		d.Note("the module %s has no package %s", modPath, strings.Join(own, ", "))
		help = append(help, "add the package to the module (`go mod tidy` cannot)")
	}
	if len(others) > 0 || len(own) == 0 {
		what := "some of the packages it imports"
		if len(others) > 0 {
			what = strings.Join(others, ", ")
		}
		d.Note("the module does not require %s", what)
		d.Note("crdforge's generated code needs github.com/crdforge/crdforge/runtime too: see docs/getting-started.md, \"What your API module requires\"")
		help = append(help, "run `go mod tidy` in "+filepath.Dir(gomod))
	}
	for _, h := range help {
		d.Help("%s", h)
	}
	return d
}
