package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/controllertools"
	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/docs"
	"github.com/crdforge/crdforge/generators/jsonschema"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/webhook"
)

func names(gens []Generator) []string {
	var out []string
	for _, g := range gens {
		out = append(out, g.Name())
	}
	return out
}

func TestCompleteAppliesEveryDefault(t *testing.T) {
	cfg, err := Config{Dir: "."}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(cfg.Dir) || !slices.Equal(cfg.Patterns, []string{"./..."}) || cfg.CRDDir != "config/crd/bases" ||
		cfg.WebhookMain != "cmd/webhook/main.go" || cfg.DeployDir != "config/webhook" {
		t.Errorf("completed config %+v", cfg)
	}
	if want := slices.DeleteFunc(Names(), func(n string) bool { return n == "docs" || n == "jsonschema" || n == "helm" }); cfg.partial || !slices.Equal(names(cfg.gens), want) {
		t.Errorf("no --only: generators %v, partial %v; want all but docs, jsonschema and helm, %v", names(cfg.gens), cfg.partial, want)
	}
	// The generators get the completed values, and nothing else defaults them.
	for _, g := range cfg.gens {
		switch g := g.(type) {
		case crd.Generator:
			if g.Dir != cfg.CRDDir {
				t.Errorf("crd generator writes into %q", g.Dir)
			}
		case webhook.Generator:
			if g.Main != cfg.WebhookMain || g.Codec != webhook.CodecAuto {
				t.Errorf("webhook main at %q, codec %q", g.Main, g.Codec)
			}
		case deploy.Generator:
			if g.Dir != cfg.DeployDir || g.CRDDir != cfg.CRDDir {
				t.Errorf("deploy generator %+v", g)
			}
		}
	}
	again, err := cfg.Complete()
	if err != nil || again.Dir != cfg.Dir || !slices.Equal(names(again.gens), names(cfg.gens)) {
		t.Errorf("completing twice changed the config: %+v, %v", again, err)
	}
}

// The Helm chart is written by a run that names no generators only when
// asked (--helm, helm: true in .crdforge.yaml); --only helm writes it
// alone, and --only wins over --helm.
func TestHelmIsOffUnlessAsked(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want []string
	}{
		{Config{Dir: "."}, []string{"crd", "deprecation", "deepcopy", "conversion", "webhook", "deploy", "rbac", "admission"}},
		{Config{Dir: ".", Helm: true}, []string{"crd", "deprecation", "deepcopy", "conversion", "webhook", "deploy", "helm", "rbac", "admission"}},
		{Config{Dir: ".", Helm: true, DocsDir: "docs/api", JSONSchemaDir: "schemas"}, Names()},
		{Config{Dir: ".", Only: []string{"helm"}}, []string{"helm"}},
		{Config{Dir: ".", Helm: true, Only: []string{"crd"}}, []string{"crd"}},
	} {
		cfg, err := tc.cfg.Complete()
		if err != nil {
			t.Fatal(err)
		}
		if got := names(cfg.gens); !slices.Equal(got, tc.want) {
			t.Errorf("Helm %v, Only %v: generators %v, want %v", tc.cfg.Helm, tc.cfg.Only, got, tc.want)
		}
	}
}

// The rbac and admission generators run in a run that names no generators
// unless rbac: false or admission: false turns them off; when neither is
// set, they write in a kubebuilder project alone (controllertools.Auto),
// and --only or true has them write whatever the project.
func TestRBACAndAdmissionFollowTheProject(t *testing.T) {
	no, yes := false, true
	for _, tc := range []struct {
		cfg                     Config
		rbac, admission         controllertools.Switch
		runsRBAC, runsAdmission bool
	}{
		{Config{Dir: "."}, controllertools.Auto, controllertools.Auto, true, true},
		{Config{Dir: ".", RBAC: &yes, Admission: &no}, controllertools.On, controllertools.Off, true, false},
		{Config{Dir: ".", RBAC: &no, Admission: &yes}, controllertools.Off, controllertools.On, false, true},
		{Config{Dir: ".", RBAC: &no, Only: []string{"rbac"}}, controllertools.On, controllertools.Auto, true, false},
		{Config{Dir: ".", Only: []string{"admission"}}, controllertools.Auto, controllertools.On, false, true},
	} {
		cfg, err := tc.cfg.Complete()
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range generatorsOf(cfg) {
			switch g := g.(type) {
			case controllertools.RBAC:
				if g.Switch != tc.rbac || g.RoleName != controllertools.DefaultRoleName {
					t.Errorf("%+v: rbac switch %v role %q, want %v %q", tc.cfg, g.Switch, g.RoleName, tc.rbac, controllertools.DefaultRoleName)
				}
			case controllertools.Admission:
				if g.Switch != tc.admission {
					t.Errorf("%+v: admission switch %v, want %v", tc.cfg, g.Switch, tc.admission)
				}
			}
		}
		got := names(cfg.gens)
		if slices.Contains(got, "rbac") != tc.runsRBAC || slices.Contains(got, "admission") != tc.runsAdmission {
			t.Errorf("%+v: generators %v, want rbac %v, admission %v", tc.cfg, got, tc.runsRBAC, tc.runsAdmission)
		}
	}
}

// --webhook-codec takes the two codecs the webhook main can serve with,
// and nothing else.
func TestCompleteChecksTheWebhookCodec(t *testing.T) {
	cfg, err := Config{Dir: ".", WebhookCodec: webhook.CodecReflect}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range cfg.gens {
		if g, ok := g.(webhook.Generator); ok && g.Codec != webhook.CodecReflect {
			t.Errorf("--webhook-codec=reflect: the webhook generator uses %q", g.Codec)
		}
	}
	if _, err := (Config{Dir: ".", WebhookCodec: "fast"}).Complete(); err == nil || !strings.Contains(err.Error(), `unknown --webhook-codec "fast"`) {
		t.Errorf("--webhook-codec=fast: %v", err)
	}
}

func TestCompleteKeepsWhatIsSet(t *testing.T) {
	cfg, err := Config{Dir: "/tmp/x", Patterns: []string{"./api/..."}, CRDDir: "crds", WebhookMain: "cmd/hook/main.go", DeployDir: "deploy"}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Dir != "/tmp/x" || !slices.Equal(cfg.Patterns, []string{"./api/..."}) || cfg.CRDDir != "crds" || cfg.WebhookMain != "cmd/hook/main.go" || cfg.DeployDir != "deploy" {
		t.Errorf("completed config %+v", cfg)
	}
}

func TestOnlyRunsTheNamedGeneratorsInTheFixedOrder(t *testing.T) {
	cfg, err := Config{Dir: ".", Only: []string{"deploy", "crd", "deploy"}}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	if got := names(cfg.gens); !slices.Equal(got, []string{"crd", "deploy"}) || !cfg.partial {
		t.Errorf("--only deploy,crd,deploy runs %v (partial %v); want crd, deploy", got, cfg.partial)
	}
	if _, err := (Config{Dir: ".", Only: []string{"crd", "nope"}}).Complete(); err == nil || !strings.Contains(err.Error(), `unknown generator "nope"`) {
		t.Errorf("unknown generator: %v", err)
	}
	if _, err := (Config{}).Complete(); err == nil {
		t.Error("no directory: no error")
	}
}

func TestModelOptionsFollowTheSelectedGenerators(t *testing.T) {
	for _, tc := range []struct {
		only    []string
		resolve model.Options
		want    model.Options
	}{
		{nil, model.Options{}, model.Options{Conversions: true, Strategies: true, Webhook: true, DeepCopy: true, PackageMarkers: true}},
		{[]string{"crd"}, model.Options{}, model.Options{Strategies: true}},
		{[]string{"crd", "rbac"}, model.Options{}, model.Options{Strategies: true, PackageMarkers: true}},
		{[]string{"deepcopy"}, model.Options{}, model.Options{DeepCopy: true}},
		{[]string{"crd", "conversion"}, model.Options{}, model.Options{Conversions: true, Strategies: true}},
		{[]string{"deploy"}, model.Options{}, model.Options{Strategies: true, Webhook: true}},
		{[]string{"crd"}, model.Options{Webhook: true}, model.Options{Strategies: true, Webhook: true}},
	} {
		cfg, err := Config{Dir: ".", Only: tc.only, Resolve: tc.resolve}.Complete()
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.modelOptions(); got != tc.want {
			t.Errorf("--only %v, Resolve %+v: options %+v, want %+v", tc.only, tc.resolve, got, tc.want)
		}
	}
}

func TestCompleteReadsTheHeaderFileWithTheYear(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("boilerplate.go.txt", "/*\nCopyright YEAR The Authors. YEARLY stays.\n*/\n\n")
	write("bad.txt", "Copyright 2026 The Authors.\n")

	for _, tc := range []struct {
		name, file, year, want string
	}{
		{"year substituted, trailing blank lines trimmed", "boilerplate.go.txt", "2026", "/*\nCopyright 2026 The Authors. 2026LY stays.\n*/"},
		// controller-gen replaces " YEAR" whatever Year holds, also "".
		{"no year, as controller-gen does", "boilerplate.go.txt", "", "/*\nCopyright  The Authors. LY stays.\n*/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Config{Dir: dir, HeaderFile: tc.file, Year: tc.year}.Complete()
			if err != nil {
				t.Fatal(err)
			}
			if cfg.header != tc.want {
				t.Errorf("header %q, want %q", cfg.header, tc.want)
			}
		})
	}
	if _, err := (Config{Dir: dir, HeaderFile: "bad.txt"}).Complete(); err == nil || !strings.Contains(err.Error(), "only Go comments") {
		t.Errorf("a header that is not Go comments: %v", err)
	}
	if _, err := (Config{Dir: dir, HeaderFile: "missing.txt"}).Complete(); err == nil || !strings.Contains(err.Error(), "--header-file") {
		t.Errorf("a missing header file: %v", err)
	}
}

func TestModelGetsTheSchemaOptions(t *testing.T) {
	n := 0
	cfg, err := Config{Dir: ".", AllowDangerousTypes: true, IgnoreUnexportedFields: true, GenerateEmbeddedObjectMeta: true, MaxDescLen: &n,
		Resolve: model.Options{Schema: model.SchemaOptions{}}}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.modelOptions().Schema
	if !got.AllowDangerousTypes || !got.IgnoreUnexportedFields || !got.GenerateEmbeddedObjectMeta || got.MaxDescLen != &n {
		t.Errorf("model schema options %+v", got)
	}
}

func TestCompleteReadsTheCRDHeaderFileAsItIs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("boilerplate.yaml.txt", "# Copyright YEAR The Authors.\n\n")
	write("boilerplate.go.txt", "/*\nCopyright YEAR The Authors.\n*/\n")

	// As controller-gen writes crd:headerFile: as it is, blank lines kept,
	// " YEAR" replaced.
	cfg, err := Config{Dir: dir, CRDHeaderFile: "boilerplate.yaml.txt", Year: "2026"}.Complete()
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Copyright 2026 The Authors.\n\n"; cfg.crdHeader != want {
		t.Errorf("CRD header %q, want %q", cfg.crdHeader, want)
	}
	if len(cfg.warnings) != 0 {
		t.Errorf("warnings with a year: %v", cfg.warnings)
	}
	// A Go comment would be YAML content before the CRD.
	if _, err := (Config{Dir: dir, CRDHeaderFile: "boilerplate.go.txt"}).Complete(); err == nil || !strings.Contains(err.Error(), "only YAML comments") {
		t.Errorf("a CRD header of Go comments: %v", err)
	}
}

func TestCompleteWarnsAtYEARWithoutAYear(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "h.txt"), []byte("# Copyright YEAR A.\n# and YEAR B, YEAR C.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, year := range []string{"", "2026"} {
		cfg, err := Config{Dir: dir, CRDHeaderFile: "h.txt", Year: year}.Complete()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range cfg.warnings {
			got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(w.Pos.Filename), w.Pos.Line, w.Pos.Column))
		}
		want := []string{"h.txt:1:13", "h.txt:2:7", "h.txt:2:15"}
		if year != "" {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("year %q: warnings at %v, want %v", year, got, want)
		}
	}
}

// The API reference is written only when asked for: --docs DIR in a full
// run, or --only docs, which writes it into docs/api unless --docs says
// where. --docs with an --only that leaves docs out writes none.
func TestDocsOnlyWhenAsked(t *testing.T) {
	for _, tt := range []struct {
		name    string
		cfg     Config
		wantDir string // "" when the docs generator does not run
	}{
		{"a full run", Config{}, ""},
		{"a full run with --docs", Config{DocsDir: "site/api"}, "site/api"},
		{"--only docs", Config{Only: []string{"docs"}}, DefaultDocsDir},
		{"--only docs with --docs", Config{Only: []string{"docs"}, DocsDir: "site/api"}, "site/api"},
		{"--only crd with --docs", Config{Only: []string{"crd"}, DocsDir: "site/api"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Dir = "."
			cfg, err := tt.cfg.Complete()
			if err != nil {
				t.Fatal(err)
			}
			ran, gotDir := false, ""
			for _, g := range cfg.gens {
				if g, ok := g.(docs.Generator); ok {
					ran, gotDir = true, g.Dir
				}
			}
			if ran != (tt.wantDir != "") || gotDir != tt.wantDir {
				t.Errorf("docs generator runs: %v, into %q; want into %q (generators %v)", ran, gotDir, tt.wantDir, names(cfg.gens))
			}
		})
	}
}

// The JSON Schemas are written only when asked for, as the API reference
// is: --json-schema DIR in a full run, or --only jsonschema, which writes
// them into schemas unless --json-schema says where.
func TestJSONSchemaOnlyWhenAsked(t *testing.T) {
	for _, tt := range []struct {
		name    string
		cfg     Config
		wantDir string // "" when the jsonschema generator does not run
	}{
		{"a full run", Config{}, ""},
		{"a full run with --json-schema", Config{JSONSchemaDir: "hack/schemas"}, "hack/schemas"},
		{"--only jsonschema", Config{Only: []string{"jsonschema"}}, DefaultJSONSchemaDir},
		{"--only jsonschema with --json-schema", Config{Only: []string{"jsonschema"}, JSONSchemaDir: "hack/schemas"}, "hack/schemas"},
		{"--only crd with --json-schema", Config{Only: []string{"crd"}, JSONSchemaDir: "hack/schemas"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Dir = "."
			cfg, err := tt.cfg.Complete()
			if err != nil {
				t.Fatal(err)
			}
			ran, gotDir := false, ""
			for _, g := range cfg.gens {
				if g, ok := g.(jsonschema.Generator); ok {
					ran, gotDir = true, g.Dir
				}
			}
			if ran != (tt.wantDir != "") || gotDir != tt.wantDir {
				t.Errorf("jsonschema generator runs: %v, into %q; want into %q (generators %v)", ran, gotDir, tt.wantDir, names(cfg.gens))
			}
		})
	}
}
