package pipeline

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/controllertools"
	"github.com/crdforge/crdforge/generators/conversion"
	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deepcopy"
	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/deprecation"
	"github.com/crdforge/crdforge/generators/docs"
	"github.com/crdforge/crdforge/generators/helm"
	"github.com/crdforge/crdforge/generators/jsonschema"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/webhook"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/kubeversion"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/passrecord"
	"github.com/crdforge/crdforge/internal/settings"
)

// Defaults of Config, applied by Complete and nowhere else. Paths are
// relative to Config.Dir.
const (
	DefaultPattern     = "./..."
	DefaultCRDDir      = "config/crd/bases"
	DefaultWebhookMain = "cmd/webhook/main.go"
	DefaultDeployDir   = "config/webhook"
	DefaultDocsDir     = "docs/api"
	DefaultChartsDir   = "charts"
	// DefaultJSONSchemaDir is where --only jsonschema writes the schemas.
	DefaultJSONSchemaDir = "schemas"
)

// Config is what one `crdforge generate` run needs. Leave a field empty for
// its default: Complete applies them all, once, where the run starts.
type Config struct {
	// Dir is the directory patterns and output paths are relative to.
	Dir string
	// Patterns name the packages to load; default ./...
	Patterns []string
	// CRDDir is where CRD YAML goes; default config/crd/bases.
	CRDDir string
	// WebhookMain is where the webhook's main goes; default
	// cmd/webhook/main.go.
	WebhookMain string
	// DeployDir is where the webhook's kustomization goes; default
	// config/webhook.
	DeployDir string
	// DocsDir is where the API reference goes, a Markdown page per group.
	// A run writes it only when asked: DocsDir set, or docs named in Only
	// (then the default is docs/api). A reference is for a project that
	// publishes one, and a full run that wrote pages nobody asked for would
	// leave files in every project that upgrades crdforge.
	DocsDir string
	// JSONSchemaDir is where a JSON Schema of every served version of every
	// kind goes, <group>/<kind>_<version>.json as kubeconform reads them. A
	// run writes them only when asked: JSONSchemaDir set, or jsonschema
	// named in Only (then the default is schemas), for the same reason as
	// DocsDir.
	JSONSchemaDir string
	// Only limits the run to the named generators; empty runs all but the
	// opt-in ones: docs with DocsDir, jsonschema with JSONSchemaDir, helm
	// with Helm.
	Only []string
	// Helm has a run that names no generators write the Helm chart too
	// (charts/<project>). It is off by default: a chart is a way of
	// shipping that a project chooses, beside or in place of the
	// kustomization; --only helm writes it alone.
	Helm bool
	// RBAC and Admission say whether a run that names no generators writes
	// controller-gen's RBAC manifest (config/rbac/role.yaml, of the
	// +kubebuilder:rbac markers) and its admission webhook manifest
	// (config/webhook/manifests.yaml, of the +kubebuilder:webhook markers):
	// nil writes them in a kubebuilder project alone (controllertools.Auto),
	// whose Makefile makes them on every make manifests. --only rbac or
	// --only admission writes them wherever the run is.
	RBAC, Admission *bool
	// ValidateSamples says whether a run that makes CRDs checks the
	// project's sample objects (config/samples, kubebuilder's) against them
	// before anything is written (package samples): nil or true checks
	// them, false does not. A sample they refuse is an error: nothing is
	// written.
	ValidateSamples *bool
	// RoleName is the ClusterRole's name in the RBAC manifest,
	// controller-gen's rbac:roleName; default manager-role, kubebuilder's.
	RoleName string
	// WebhookCodec is how the generated webhook reads and writes objects:
	// CodecAuto (the default), CodecGenerated or CodecReflect.
	WebhookCodec string
	// WebhookImage is the conversion webhook's container image,
	// [registry/]name[:tag], that the generated Deployment runs and the
	// generated Dockerfile's comment builds; default <app>:latest.
	WebhookImage string
	// WebhookManageCerts has the webhook keep its own certificates
	// (--manage-certs, package certmanage of the webhook module): the main
	// registers certmanage, and the deployment offers the opt-in kustomize
	// component config/webhook/managed-certs. Off, the main links no API
	// server client.
	WebhookManageCerts bool
	// WebhookMigrateStorage has the webhook migrate storage after an
	// upgrade (--migrate-storage, package automigrate of the webhook
	// module): the main registers automigrate, the deployment offers the
	// opt-in kustomize component config/webhook/migrate-storage, and the
	// Helm chart the value migrateStorage.
	WebhookMigrateStorage bool
	// Strict turns the warnings about fields a conversion leaves out
	// (diag.ClassNoCounterpart) into errors: nothing is written.
	Strict bool
	// AllowDroppedZeros turns the errors about fields whose explicit zero
	// conversion turns into their default (diag.ClassDroppedZero) into
	// warnings, for a project adopting crdforge with many of them.
	AllowDroppedZeros bool
	// ValidationRecord records the CRDs that passed the API server's
	// validation in earlier runs, so that a CRD generated the same again
	// is not validated again; nil validates every CRD. (The CLI opens one
	// in the user's cache directory; see package passrecord.)
	ValidationRecord *passrecord.Record
	// FitCRDBytes, when positive, is the most bytes a CRD may take applied
	// client-side: the CRD generator leaves out descriptions, the deepest
	// and longest first, until each fits (crd.Generator.FitBytes).
	FitCRDBytes int
	// KubeVersion is the oldest Kubernetes release the user's clusters run,
	// such as "1.31": generate warns at each generated object that needs a
	// newer one (package kubeversion). Empty checks nothing.
	KubeVersion string
	// Resolve asks for parts of the model that no selected generator reads,
	// for a caller that reads Result.Model itself.
	Resolve model.Options

	// controller-gen's options, with controller-gen's meaning (the
	// crd and object generators' fields of the same names in
	// controller-tools).

	// AllowDangerousTypes lets float32 and float64 fields into schemas
	// (controller-gen's crd:allowDangerousTypes).
	AllowDangerousTypes bool
	// IgnoreUnexportedFields leaves unexported fields out of schemas
	// (crd:ignoreUnexportedFields).
	IgnoreUnexportedFields bool
	// MaxDescLen, when set, truncates every description in the schemas to
	// at most that many bytes, at a sentence or word boundary; 0 drops them
	// and a negative value keeps them whole (crd:maxDescLen). Nil keeps
	// them whole.
	MaxDescLen *int
	// GenerateEmbeddedObjectMeta gives an ObjectMeta embedded below the top
	// level (a template's metadata) its schema: name, namespace, labels,
	// annotations, finalizers (crd:generateEmbeddedObjectMeta).
	GenerateEmbeddedObjectMeta bool
	// HeaderFile is a file, relative to Dir, whose content starts every
	// generated Go file, before crdforge's own header line: a license
	// (object:headerFile). It must hold only Go comments.
	HeaderFile string
	// CRDHeaderFile is a file, relative to Dir, whose content starts every
	// CRD YAML file, before crdforge's own header line (crd:headerFile).
	// controller-gen writes it as it is, so it must hold only YAML comments
	// (# lines): a Go comment there would be a YAML document of its own.
	CRDHeaderFile string
	// Year replaces " YEAR" in both header files' content, as controller-gen
	// does: every " YEAR" becomes " "+Year, also when Year is empty
	// (object:year and crd:year). Nothing reads a clock, so output stays the
	// same between runs.
	Year string

	// What Complete resolves Only into.
	complete bool
	gens     []Generator
	partial  bool
	// header is HeaderFile's content with Year in it, or empty; crdHeader
	// the same of CRDHeaderFile.
	header, crdHeader string
	// kubeVersion is KubeVersion read; nil when it is empty.
	kubeVersion *kubeversion.Release
	// warnings are the problems in the header files worth a word.
	warnings []diag.Diagnostic
	// early, when set, is how many goroutines make CRDs while the model
	// builds the next kind (crd.Started) in place of GOMAXPROCS-1: 0 has
	// the model's goroutine make each as it hands the kind over, a negative
	// number makes none early. Tests set it.
	early *int
}

// Complete returns cfg with every default applied, Dir made absolute, and
// Only resolved: checked against the generators' names and turned into the
// generators that run, in their fixed order whatever order Only names them
// in. It is the one place that reads Only. Completing a completed Config
// changes nothing.
func (cfg Config) Complete() (Config, error) {
	if cfg.complete {
		return cfg, nil
	}
	if cfg.Dir == "" {
		return cfg, fmt.Errorf("no directory given")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return cfg, err
	}
	cfg.Dir = dir
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{DefaultPattern}
	}
	if cfg.CRDDir == "" {
		cfg.CRDDir = DefaultCRDDir
	}
	if cfg.WebhookMain == "" {
		cfg.WebhookMain = DefaultWebhookMain
	}
	if cfg.DeployDir == "" {
		cfg.DeployDir = DefaultDeployDir
	}
	if cfg.RoleName == "" {
		cfg.RoleName = controllertools.DefaultRoleName
	}
	if cfg.KubeVersion != "" {
		r, err := kubeversion.Parse(cfg.KubeVersion)
		if err != nil {
			return cfg, fmt.Errorf("%s: %w", settings.KubeVersion.Flag(), err)
		}
		cfg.kubeVersion = &r
	}
	if cfg.FitCRDBytes < 0 {
		return cfg, fmt.Errorf("%s %d: want a number of bytes, or 0 to fit nothing", settings.FitCRDBytes.Flag(), cfg.FitCRDBytes)
	}
	switch cfg.WebhookCodec {
	case "":
		cfg.WebhookCodec = webhook.CodecAuto
	case webhook.CodecAuto, webhook.CodecGenerated, webhook.CodecReflect:
	default:
		return cfg, fmt.Errorf("unknown %s %q (want %s, %s or %s)", settings.WebhookCodec.Flag(), cfg.WebhookCodec, webhook.CodecAuto, webhook.CodecGenerated, webhook.CodecReflect)
	}
	cfg.warnings = nil
	if cfg.HeaderFile != "" {
		if cfg.header, err = cfg.readHeader(settings.HeaderFile, cfg.HeaderFile, goComments); err != nil {
			return cfg, err
		}
		cfg.header = strings.TrimRight(cfg.header, "\n") // output.WithLicense adds the blank line
	}
	if cfg.CRDHeaderFile != "" {
		if cfg.crdHeader, err = cfg.readHeader(settings.CRDHeaderFile, cfg.CRDHeaderFile, yamlComments); err != nil {
			return cfg, err
		}
	}

	if cfg.DocsDir == "" && slices.Contains(cfg.Only, docsName) {
		cfg.DocsDir = DefaultDocsDir
	}
	if cfg.JSONSchemaDir == "" && slices.Contains(cfg.Only, jsonSchemaName) {
		cfg.JSONSchemaDir = DefaultJSONSchemaDir
	}
	all := generatorsOf(cfg)
	cfg.partial = len(cfg.Only) > 0
	for _, name := range cfg.Only {
		if !slices.ContainsFunc(all, func(g Generator) bool { return g.Name() == name }) {
			return cfg, diag.Fail("unknown generator %q in %s", name, settings.Only.Flag()).
				Help("the generators are %s", strings.Join(Names(), ", ")).Err()
		}
	}
	cfg.gens = slices.DeleteFunc(all, func(g Generator) bool { return !cfg.runs(g.Name()) })
	cfg.complete = true
	return cfg, nil
}

// readHeader reads a license header file and puts Year in it as
// controller-gen does (deepcopy's and crd's Generate: " YEAR" becomes
// " "+year, whether a year is given or not). Without a year, each " YEAR"
// is worth a warning: controller-gen's output has the placeholder blanked
// out, which is seldom what the author of the header meant. valid checks
// the result's syntax.
func (cfg *Config) readHeader(flag settings.Setting, name string, valid func(string) bool) (string, error) {
	path := output.Abs(cfg.Dir, name)
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", flag.Flag(), err)
	}
	if cfg.Year == "" {
		cfg.warnings = append(cfg.warnings, yearPlaceholders(path, string(b))...)
	}
	header := strings.ReplaceAll(string(b), " YEAR", " "+cfg.Year)
	if !valid(header) {
		what := "Go comments, such as a /* license */ block"
		if flag == settings.CRDHeaderFile {
			what = "YAML comments (lines that start with #), as it starts YAML files"
		}
		return "", fmt.Errorf("%s %s: the header must hold only %s", flag.Flag(), path, what)
	}
	return header, nil
}

// yearPlaceholders warns at every " YEAR" in a header read without a year.
func yearPlaceholders(path, text string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for i, line := range strings.Split(text, "\n") {
		for col := strings.Index(line, " YEAR"); col >= 0; {
			out = append(out, diag.Diagnostic{
				Pos:      token.Position{Filename: path, Line: i + 1, Column: col + 2},
				Severity: diag.Warning,
				Msg:      `" YEAR" stands for the year, and no ` + settings.Year.Flag() + ` is given`,
				Notes: []diag.Note{
					{Kind: diag.KindNote, Text: "it is left blank, as controller-gen leaves it"},
					{Kind: diag.KindHelp, Text: "give " + settings.Year.Flag()},
				},
			})
			next := strings.Index(line[col+1:], " YEAR")
			if next < 0 {
				break
			}
			col += 1 + next
		}
	}
	return out
}

// goComments reports whether header, put before a Go file's package
// clause, holds nothing but comments: otherwise every generated Go file
// would fail to compile.
func goComments(header string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", header+"\npackage p\n", parser.ParseComments)
	return err == nil && f.Package == token.Pos(len(header)+2)
}

// yamlComments reports whether every line of header is blank or a YAML
// comment: anything else would become part of the CRD's YAML.
func yamlComments(header string) bool {
	for _, line := range strings.Split(header, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return false
		}
	}
	return true
}

// generatorsOf lists every generator, configured by cfg, in the order they
// run.
func generatorsOf(cfg Config) []Generator {
	return []Generator{
		crd.Generator{Dir: cfg.CRDDir, Header: cfg.crdHeader, ValidationRecord: cfg.ValidationRecord, FitBytes: cfg.FitCRDBytes},
		deprecation.Generator{Dir: cfg.CRDDir, Header: cfg.crdHeader},
		deepcopy.Generator{},
		conversion.Generator{},
		webhook.Generator{Main: cfg.WebhookMain, Codec: cfg.WebhookCodec, ManageCerts: cfg.WebhookManageCerts, MigrateStorage: cfg.WebhookMigrateStorage},
		deploy.Generator{Dir: cfg.DeployDir, CRDDir: cfg.CRDDir, Main: cfg.WebhookMain, WebhookImage: cfg.WebhookImage, ManageCerts: cfg.WebhookManageCerts, MigrateStorage: cfg.WebhookMigrateStorage},
		docs.Generator{Dir: cfg.DocsDir},
		jsonschema.Generator{Dir: cfg.JSONSchemaDir},
		helm.Generator{Dir: DefaultChartsDir, WebhookImage: cfg.WebhookImage, ManageCerts: cfg.WebhookManageCerts, MigrateStorage: cfg.WebhookMigrateStorage},
		controllertools.RBAC{Switch: cfg.switchOf(rbacName, cfg.RBAC), RoleName: cfg.RoleName, Dir: controllertools.DefaultRBACDir},
		controllertools.Admission{Switch: cfg.switchOf(admissionName, cfg.Admission), Dir: controllertools.DefaultAdmissionDir},
	}
}

// switchOf is how the generator named name, which on asks for or not (nil:
// the project decides), writes: whatever the project when Only names it or
// on is true, in a kubebuilder project alone when on is nil. A run that
// leaves it out (on false, or Only without it) does not run it at all
// (runs).
func (cfg Config) switchOf(name string, on *bool) controllertools.Switch {
	switch {
	case slices.Contains(cfg.Only, name), on != nil && *on:
		return controllertools.On
	case on != nil:
		return controllertools.Off
	}
	return controllertools.Auto
}

// The opt-in generators' names: a run that names no generators leaves them
// out unless DocsDir, JSONSchemaDir or Helm asks for them, and rbac and
// admission where RBAC or Admission is false (nil leaves it to the project).
var (
	crdName        = crd.Generator{}.Name()
	docsName       = docs.Generator{}.Name()
	jsonSchemaName = jsonschema.Generator{}.Name()
	helmName       = helm.Generator{}.Name()
	rbacName       = controllertools.RBAC{}.Name()
	admissionName  = controllertools.Admission{}.Name()
)

// runs reports whether the generator named name runs: each one Only names,
// or, without Only, every one but an opt-in one not asked for. The API
// reference, the JSON Schemas and the Helm chart are ways of publishing
// and shipping that a project chooses: a run that wrote them unasked would
// leave files in every project that upgrades crdforge.
func (cfg Config) runs(name string) bool {
	switch {
	case len(cfg.Only) > 0:
		return slices.Contains(cfg.Only, name)
	case name == docsName:
		return cfg.DocsDir != ""
	case name == jsonSchemaName:
		return cfg.JSONSchemaDir != ""
	case name == helmName:
		return cfg.Helm
	case name == rbacName:
		return cfg.RBAC == nil || *cfg.RBAC
	case name == admissionName:
		return cfg.Admission == nil || *cfg.Admission
	}
	return true
}

// validatesSamples reports whether the run checks the project's samples
// against the CRDs it makes: unless ValidateSamples turns it off.
func (cfg Config) validatesSamples() bool {
	return cfg.ValidateSamples == nil || *cfg.ValidateSamples
}

// Names lists the generators' names, in the order they run.
func Names() []string {
	var names []string
	for _, g := range generatorsOf(Config{}) {
		names = append(names, g.Name())
	}
	return names
}

// modelOptions is what the model must resolve for the generators that run
// and for the caller.
func (cfg Config) modelOptions() model.Options {
	opts := cfg.Resolve
	for _, g := range cfg.gens {
		opts = opts.With(g.Needs())
	}
	// The schema options are the run's, whatever Resolve holds.
	opts.Schema = model.SchemaOptions{
		AllowDangerousTypes:        cfg.AllowDangerousTypes,
		IgnoreUnexportedFields:     cfg.IgnoreUnexportedFields,
		MaxDescLen:                 cfg.MaxDescLen,
		GenerateEmbeddedObjectMeta: cfg.GenerateEmbeddedObjectMeta,
	}
	return opts
}
