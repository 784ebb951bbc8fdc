package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

var update = flag.Bool("update", false, "rewrite the want/ files of testdata cases")

// testdataDir is the repository's testdata: one directory per case, holding
// input packages and want/, with either the generated files or errors.txt.
const testdataDir = "../../../testdata"

func cases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(testdataDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "_") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Fatal("no testdata cases")
	}
	return out
}

// warningsTxt, in the want/ of a case that generates files, lists the
// warnings the case expects, as the command line prints them.
const warningsTxt = "warnings.txt"

// caseFlags reads a case's flags file, if it has one: flags of crdforge
// generate (such as --allow-dangerous-types or --max-desc-len=0), separated
// by white space, and the patterns to generate, ./... when it names none;
// lines starting with # are comments. Paths in it are relative to the
// case's directory, which the generator runs in.
func caseFlags(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "flags"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			flags = append(flags, strings.Fields(line)...)
		}
	}
	return flags
}

// caseConfig is the Config crdforge generate makes of a case's flags.
func caseConfig(t *testing.T, dir string) pipeline.Config {
	t.Helper()
	cfg, f := parseCaseFlags(t, dir)
	// The flag set writes into *cfg: the project file's values too.
	if err := applyProjectFile(f, dir); err != nil {
		t.Fatal(err)
	}
	return *cfg
}

// parseCaseFlags is the Config of a case's flags file alone, and the flag
// set it was parsed with, bound to that Config.
func parseCaseFlags(t *testing.T, dir string) (*pipeline.Config, *pflag.FlagSet) {
	t.Helper()
	cfg := &pipeline.Config{Dir: dir}
	f := pflag.NewFlagSet("generate", pflag.ContinueOnError)
	bindConfigFlags(f, cfg)
	if err := f.Parse(caseFlags(t, dir)); err != nil {
		t.Fatalf("%s/flags: %v", dir, err)
	}
	cfg.Patterns = f.Args()
	return cfg, f
}

// isErrorCase reports whether a case expects diagnostics rather than files.
func isErrorCase(name string) bool { return strings.HasPrefix(name, "err_") }

// snapshot records every file under dir, want/ aside.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "want" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// run runs the CLI in dir and returns its exit code and output.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("PWD", "")
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// A case may hold a flags file with flags of crdforge generate (see
// caseFlags): error cases pass them on the command line, the others through
// the same flag bindings into pipeline.Config. A case may also hold a
// project file (.crdforge.yaml), read as crdforge generate reads it.

// TestGoldenErrors runs every err_ case through the command line: each must
// print exactly its want/errors.txt, exit 2, and leave the tree untouched.
func TestGoldenErrors(t *testing.T) {
	for _, name := range cases(t) {
		if !isErrorCase(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			before := snapshot(t, dir)
			args := append([]string{"generate"}, caseFlags(t, dir)...)
			if cfg, _ := parseCaseFlags(t, dir); len(cfg.Patterns) == 0 {
				args = append(args, "./...")
			}
			code, stdout, stderr := run(t, dir, args...)
			if code != ExitErrors {
				t.Errorf("exit code = %d, want %d; stderr:\n%s", code, ExitErrors, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			wantFile := filepath.Join(dir, "want", "errors.txt")
			if *update {
				writeFile(t, wantFile, []byte(stderr))
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if stderr != string(want) {
				t.Errorf("diagnostics differ\n got:\n%s\nwant:\n%s", stderr, want)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if strings.HasPrefix(line, " ") {
					continue // a note, or a note's further lines
				}
				if !positioned(line) {
					t.Errorf("diagnostic without file:line:col: %q", line)
				}
			}
			checkHeadlines(t, stderr)
			if after := snapshot(t, dir); !sameFiles(before, after) {
				t.Errorf("the tree changed although generation failed")
			}
		})
	}
}

// checkHeadlines fails t for every diagnostic in text whose headline, after
// its position and level, is longer than diag.MaxHeadline: the rest of what
// it says belongs in its notes, so that a list of diagnostics scans.
func checkHeadlines(t *testing.T, text string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			continue
		}
		headline := line
		if positioned(line) {
			headline = strings.SplitN(line, ": ", 2)[1]
		}
		headline = strings.TrimPrefix(headline, "warning: ")
		if n := len([]rune(headline)); n > diag.MaxHeadline {
			t.Errorf("a headline of %d characters (at most %d; the rest goes in notes):\n%s", n, diag.MaxHeadline, line)
		}
	}
}

// positioned reports whether a line starts with file:line:col:.
func positioned(line string) bool {
	parts := strings.SplitN(line, ":", 4)
	if len(parts) < 4 || parts[0] == "" {
		return false
	}
	for _, n := range parts[1:3] {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return false
		}
	}
	return true
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for p, content := range a {
		if other, ok := b[p]; !ok || !bytes.Equal(content, other) {
			return false
		}
	}
	return true
}

// TestGoldenOutput runs every other case through the pipeline and compares
// the generated files with want/, byte for byte.
func TestGoldenOutput(t *testing.T) {
	for _, name := range cases(t) {
		if isErrorCase(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each case in a directory of its own
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			res, err := pipeline.Generate(caseConfig(t, dir))
			if err != nil {
				t.Fatal(err)
			}
			// Warnings are expected only where want/warnings.txt lists
			// them; errors never.
			var warnings strings.Builder
			for _, d := range res.Diags.Items() {
				if d.Severity != diag.Warning {
					t.Errorf("unexpected diagnostic: %s", d.Format(dir))
					continue
				}
				warnings.WriteString(d.Format(dir) + "\n")
			}
			wantDir := filepath.Join(dir, "want")
			warningsFile := filepath.Join(wantDir, warningsTxt)
			if *update {
				if err := os.RemoveAll(wantDir); err != nil {
					t.Fatal(err)
				}
				for _, f := range res.Files {
					if !f.Delete {
						writeFile(t, filepath.Join(wantDir, rel(t, dir, f.Path)), f.Content)
					}
				}
				if warnings.Len() > 0 {
					writeFile(t, warningsFile, []byte(warnings.String()))
				}
			}
			wantWarnings, err := os.ReadFile(warningsFile)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if warnings.String() != string(wantWarnings) {
				t.Errorf("warnings differ from want/%s\n got:\n%s\nwant:\n%s", warningsTxt, warnings.String(), wantWarnings)
			}
			checkHeadlines(t, warnings.String())
			var got []string
			for _, f := range res.Files {
				if f.Delete {
					t.Errorf("the case directory holds a stale generated file: %s", f.Path)
					continue
				}
				r := rel(t, dir, f.Path)
				got = append(got, r)
				if strings.HasSuffix(r, ".go") && declaresNothing(f.Content) {
					t.Errorf("%s holds a package clause only: a Go file that declares nothing is not to be written", r)
				}
				want, err := os.ReadFile(filepath.Join(wantDir, r))
				if err != nil {
					t.Errorf("generated %s, which want/ lacks (run go test ./cmd/crdforge/cli -run TestGolden -update)", r)
					continue
				}
				if !bytes.Equal(f.Content, want) {
					t.Errorf("%s differs from want/%s:\n%s", r, r, firstDiff(string(want), string(f.Content)))
				}
			}
			wantFiles := slices.DeleteFunc(filesUnder(t, wantDir), func(f string) bool { return f == warningsTxt })
			slices.Sort(got)
			if !slices.Equal(got, wantFiles) {
				t.Errorf("generated files %v, want %v", got, wantFiles)
			}
			for _, name := range uncalledLossy(t, dir, res.Files) {
				t.Errorf("%s is generated, but nothing calls it", name)
			}
		})
	}
}

// uncalledLossy lists the generated lossy_ functions that no code of their
// package calls, generated or not: unused unexported functions, which
// linters fail.
func uncalledLossy(t *testing.T, dir string, files []output.File) []string {
	t.Helper()
	sources := map[string]map[string][]byte{} // package directory → file → content
	for _, f := range files {
		if !f.Delete && strings.HasSuffix(f.Path, ".go") {
			p := filepath.Join(dir, rel(t, dir, f.Path))
			if sources[filepath.Dir(p)] == nil {
				sources[filepath.Dir(p)] = map[string][]byte{}
			}
			sources[filepath.Dir(p)][p] = f.Content
		}
	}
	var out []string
	for pkgDir, generated := range sources {
		own, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
		for _, p := range own {
			if _, ok := generated[p]; !ok {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				generated[p] = b
			}
		}
		declared, called := map[string]string{}, map[string]bool{}
		for p, content := range generated {
			f, err := parser.ParseFile(token.NewFileSet(), p, content, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					if strings.HasPrefix(n.Name.Name, "lossy_") {
						declared[n.Name.Name] = rel(t, dir, p)
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok {
						called[id.Name] = true
					}
					for _, arg := range n.Args {
						if id, ok := arg.(*ast.Ident); ok {
							called[id.Name] = true // handed to lossless.Checked
						}
					}
				}
				return true
			})
		}
		for name, file := range declared {
			if !called[name] {
				out = append(out, file+": "+name)
			}
		}
	}
	slices.Sort(out)
	return out
}

// declaresNothing reports whether content, Go source, holds no declaration,
// not even an import: a package clause, and comments.
func declaresNothing(content []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", content, parser.SkipObjectResolution)
	return err == nil && len(f.Decls) == 0
}

// TestGoldenCRDsAlone generates only the CRDs of every case, as
// `generate --only crd` (or make manifests) does: they equal the full run's.
// A CRD-only run type-checks only what schemas reach, as controller-gen
// does, yet settles the same conversion strategies: testdata/partialtypes
// holds two shapes told apart only by fields no schema reaches.
func TestGoldenCRDsAlone(t *testing.T) {
	for _, name := range cases(t) {
		if isErrorCase(name) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each case in a directory of its own
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			cfg := caseConfig(t, dir)
			if cfg.Only != nil && !slices.Contains(cfg.Only, "crd") {
				t.Skip("the case generates no CRDs")
			}
			cfg.Only = []string{"crd"}
			res, err := pipeline.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diags.Items() {
				if d.Severity != diag.Warning {
					t.Errorf("unexpected diagnostic: %s", d.Format(dir))
				}
			}
			for _, f := range res.Files {
				if f.Delete {
					continue
				}
				r := rel(t, dir, f.Path)
				want, err := os.ReadFile(filepath.Join(dir, "want", r))
				if err != nil {
					t.Errorf("generated %s, which the full run does not", r)
					continue
				}
				if !bytes.Equal(f.Content, want) {
					t.Errorf("%s differs from the full run's want/%s:\n%s", r, r, firstDiff(string(want), string(f.Content)))
				}
			}
		})
	}
}

// testFailsFile, at the top of a case, holds what the output of the case's
// generated tests must say when they fail, as they must then: one
// expected piece of text a line, # starting a comment. It is for a case
// whose input has a bug only the generated tests can find.
const testFailsFile = "testfails"

// TestGoldenGoCompiles vets and tests every case with its golden Go files
// overlaid where crdforge would write them: checked-in golden code must
// compile, and its generated round-trip tests must pass, or, in a case
// with a testfails file, fail saying what it says. With
// CRDFORGE_GOLDEN_TOOLCHAIN set (test-compat sets the Makefile's GO_NEXT),
// that Go vets and tests them: the README says generated code builds on it,
// not that the generator does, so the generator's test stays on the local Go.
func TestGoldenGoCompiles(t *testing.T) {
	checkGoldenToolchain(t)
	overlay := map[string]string{}
	var pkgs []string
	failing := map[string][]string{} // case → its packages, tested apart
	for _, name := range cases(t) {
		if isErrorCase(name) {
			continue
		}
		dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
		first := len(pkgs)
		wantDir := filepath.Join(dir, "want")
		generatedPkgs := map[string]bool{}
		for _, r := range filesUnder(t, wantDir) {
			if strings.HasSuffix(r, ".go") {
				overlay[filepath.Join(dir, r)] = filepath.Join(wantDir, r)
				generatedPkgs[filepath.Join(dir, filepath.Dir(r))] = true
			}
		}
		// Packages crdforge writes whole (the webhook main, its codec) are
		// in want/ only: vet and build them where they would be, in
		// directories made for the run (vet runs in a package's directory).
		for p := range generatedPkgs {
			if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
				makeDirFor(t, p)
				pkgs = append(pkgs, p)
			}
		}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			if d.Name() == "want" {
				return filepath.SkipDir
			}
			if m, _ := filepath.Glob(filepath.Join(p, "*.go")); len(m) > 0 {
				pkgs = append(pkgs, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, testFailsFile)); err == nil {
			failing[name] = slices.Clone(pkgs[first:])
		}
	}
	slices.Sort(pkgs)
	b, _ := json.Marshal(map[string]any{"Replace": overlay})
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	writeFile(t, overlayFile, b)
	cmd := goldenGo(append([]string{"vet", "-overlay=" + overlayFile}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the golden cases failed: %v\n%s", err, out)
	}
	passing := slices.DeleteFunc(slices.Clone(pkgs), func(p string) bool {
		for _, f := range failing {
			if slices.Contains(f, p) {
				return true
			}
		}
		return false
	})
	if out, err := goTest(overlayFile, passing); err != nil {
		t.Fatalf("the golden cases' generated round-trip tests failed: %v\n%s", err, out)
	}
	for name, casePkgs := range failing {
		out, err := goTest(overlayFile, casePkgs)
		if err == nil {
			t.Errorf("%s: the generated tests passed, but %s says they fail:\n%s", name, testFailsFile, out)
		}
		for _, want := range expectedFailures(t, filepath.Join(testdataDir, name, testFailsFile)) {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the generated tests' output lacks %q:\n%s", name, want, out)
			}
		}
	}
}

// goTest runs the tests of pkgs with the golden files overlaid.
func goTest(overlayFile string, pkgs []string) (string, error) {
	cmd := goldenGo(append([]string{"test", "-count=1", "-overlay=" + overlayFile}, pkgs...)...)
	cmd.Env = append(cmd.Env, "CRDFORGE_ROUNDTRIP_ITERATIONS=2000")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// goldenGo is the go command that vets and tests the golden cases' code:
// the local Go's, or CRDFORGE_GOLDEN_TOOLCHAIN's.
func goldenGo(args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Env = os.Environ()
	if tc := os.Getenv("CRDFORGE_GOLDEN_TOOLCHAIN"); tc != "" {
		cmd.Env = append(cmd.Env, "GOTOOLCHAIN="+tc)
	}
	return cmd
}

// checkGoldenToolchain fails the test unless goldenGo runs the toolchain
// CRDFORGE_GOLDEN_TOOLCHAIN names (go1.27.4: "go version go1.27.4 ...").
func checkGoldenToolchain(t *testing.T) {
	t.Helper()
	tc := os.Getenv("CRDFORGE_GOLDEN_TOOLCHAIN")
	if tc == "" {
		return
	}
	out, err := goldenGo("version").CombinedOutput()
	if err != nil {
		t.Fatalf("go version with GOTOOLCHAIN=%s: %v\n%s", tc, err, out)
	}
	if f := strings.Fields(string(out)); len(f) < 3 || f[2] != tc {
		t.Fatalf("the golden cases would be built with %s, not %s", strings.TrimSpace(string(out)), tc)
	}
	t.Logf("golden cases built with %s", tc)
}

// expectedFailures reads a testfails file: its lines but comments and
// empty ones.
func expectedFailures(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// makeDirFor makes the directory dir, and its missing parents, for the
// test's run: they are removed again when it ends.
func makeDirFor(t *testing.T, dir string) {
	t.Helper()
	top := dir
	for {
		parent := filepath.Dir(top)
		if _, err := os.Stat(parent); err == nil {
			break
		}
		top = parent
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(top); err != nil {
			t.Error(err)
		}
	})
}

// filesUnder lists the files under dir, relative to it and sorted; a dir
// that does not exist (a case not yet recorded with -update) holds none.
func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, rel(t, dir, p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

func rel(t *testing.T, base, p string) string {
	t.Helper()
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(r)
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + w + "\n   got: " + g
		}
	}
	return "(no line differs)"
}
