package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/crdforge/crdforge/generators/controllertools"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/generators/webhook"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/samples"
	"github.com/crdforge/crdforge/internal/settings"
)

func newGenerate(stdout, stderr io.Writer) *cobra.Command {
	var cfg pipeline.Config
	var verify, verbose bool
	var format string
	cmd := &cobra.Command{
		Use:         "generate [packages...]",
		Short:       "Generate CRDs, deepcopy, conversions and the conversion webhook from API packages",
		Long:        generateHelp,
		Annotations: map[string]string{DocsAnnotation: "generate.md"},
		Example: `  # From the directory holding api/v1beta1, api/v1, ...
  crdforge generate ./...

  # Only the CRDs, into another directory
  crdforge generate --only crd --crd-dir deploy/crds ./api/...

  # In CI: fail when committed output is out of date
  crdforge generate --verify ./...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := workingDir()
			if err != nil {
				return err
			}
			if err := reportProjectFile(applyProjectFile(cmd.Flags(), dir), stderr); err != nil {
				return err
			}
			if format != formatText && format != formatJSON {
				return fmt.Errorf("--output %q: want %s or %s", format, formatText, formatJSON)
			}
			cfg.Dir, cfg.Patterns = dir, args
			cfg.ValidationRecord = validationRecord(stderr)
			full, err := cfg.Complete()
			if err != nil {
				return err
			}
			// Nothing changed since a run that left the tree up to date:
			// that run's outcome stands, as go build's action cache has it.
			check := openUpToDate(stderr, full)
			if hit, err := check.lookup(stdout, stderr, dir, format, verify, verbose); hit || err != nil {
				return err
			}
			res, err := pipeline.Generate(full)
			if err != nil {
				return err
			}
			if format == formatJSON {
				if err := writeJSONDiagnostics(stdout, dir, res.Diags.Items()); err != nil {
					return err
				}
				// stdout holds the JSON alone: --verify's diff goes to stderr.
				stdout = stderr
			} else {
				printDiagnostics(stderr, dir, res.Diags.Items(), verbose)
			}
			if res.Diags.HasErrors() {
				return exitError{ExitErrors}
			}
			if err := writeOrVerify(stdout, stderr, dir, res, verify); err != nil {
				return err
			}
			check.record(full, res)
			return nil
		},
	}
	bindConfigFlags(cmd.Flags(), &cfg)
	cmd.Flags().BoolVar(&verbose, "verbose", false, fmt.Sprintf("list every field with no counterpart in a version it converts to (without it, the first %d and a count)", maxNoCounterpart))
	cmd.Flags().BoolVar(&verify, "verify", false, "write nothing; print a unified diff of what would change and exit 1 if anything is stale")
	cmd.Flags().StringVarP(&format, "output", "o", formatText,
		"how diagnostics are printed: "+formatText+" (to stderr) or "+formatJSON+" (one JSON array on stdout, every diagnostic with its position, severity, message and notes; the rest, --verify's diff included, on stderr)")
	return cmd
}

// writeOrVerify writes what changed and prints what it wrote and the
// summary, or, with verify, prints the diff and writes nothing.
func writeOrVerify(stdout, stderr io.Writer, dir string, res *pipeline.Result, verify bool) error {
	changes, err := output.Plan(dir, res.Files)
	if err != nil {
		printFailure(stderr, "crdforge:", err)
		return exitError{ExitErrors}
	}
	if verify {
		if len(changes) == 0 {
			return nil
		}
		// The diff is what --verify was asked for: a diff that
		// could not be printed fails the run.
		if _, err := io.WriteString(stdout, output.Diff(changes)); err != nil {
			return fmt.Errorf("writing the diff: %w", err)
		}
		printErrf(stderr, "crdforge: %d generated file(s) out of date; run crdforge generate", len(changes))
		return exitError{ExitStale}
	}
	if err := output.Write(changes); err != nil {
		return err
	}
	for _, c := range changes {
		if c.Delete {
			printErr(stderr, "removed", c.Rel)
		} else {
			printErr(stderr, "wrote", c.Rel)
		}
	}
	printErr(stderr, summary(res.Files, changes))
	for _, line := range crdSummary(res.Files) {
		printErr(stderr, line)
	}
	return nil
}

// The formats of crdforge generate --output.
const (
	formatText = "text"
	formatJSON = "json"
)

// writeJSONDiagnostics writes every diagnostic, none left out, as
// --output json asks.
func writeJSONDiagnostics(w io.Writer, dir string, items []diag.Diagnostic) error {
	b, err := diag.JSON(dir, items)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing the diagnostics: %w", err)
	}
	return nil
}

// bindConfigFlags binds the flags that set pipeline.Config's fields (Dir
// and Patterns aside).
func bindConfigFlags(f *pflag.FlagSet, cfg *pipeline.Config) {
	f.StringVar(&cfg.CRDDir, settings.CRDDir.Name(), "", "directory for CRD YAML, relative to the current directory")
	f.StringVar(&cfg.WebhookMain, settings.WebhookMain.Name(), "", "path of the generated conversion webhook's main.go, relative to the current directory")
	// pipeline.Config applies the defaults; the flags only show them.
	f.Lookup(settings.CRDDir.Name()).DefValue = pipeline.DefaultCRDDir
	f.Lookup(settings.WebhookMain.Name()).DefValue = pipeline.DefaultWebhookMain
	f.StringVar(&cfg.WebhookCodec, settings.WebhookCodec.Name(), "",
		"how the conversion webhook reads and writes objects: "+webhook.CodecGenerated+" (a JSON codec generated for the API's types; the fastest), "+
			webhook.CodecReflect+" (encoding/json's reflection; no generated codec to commit) or "+
			webhook.CodecAuto+" (generated, but reflect for an API too large for a generated codec to pay off; generate says which)")
	f.Lookup(settings.WebhookCodec.Name()).DefValue = webhook.CodecAuto
	f.StringVar(&cfg.WebhookImage, settings.WebhookImage.Name(), "",
		"the conversion webhook's image, [registry/]name[:tag], that config/webhook deploys (default <project>-webhook:latest); best set once in .crdforge.yaml as webhook-image")
	f.BoolVar(&cfg.WebhookManageCerts, settings.WebhookManageCerts.Name(), false,
		"have the conversion webhook keep its own CA and serving certificate in a Secret, without cert-manager (its --manage-certs, which links client-go's REST client into the webhook); the deployment gets the opt-in kustomize component config/webhook/managed-certs; best set once in .crdforge.yaml as webhook-manage-certs: true")
	f.BoolVar(&cfg.WebhookMigrateStorage, settings.WebhookMigrateStorage.Name(), false,
		"have the conversion webhook migrate stored objects to a new storage version after an upgrade, once every replica converts every version (its --migrate-storage, which links client-go's REST client into the webhook); the deployment gets the opt-in kustomize component config/webhook/migrate-storage; best set once in .crdforge.yaml as webhook-migrate-storage: true")
	f.BoolVar(&cfg.Strict, settings.Strict.Name(), false,
		"fail (exit 2, nothing written) on a field with no counterpart in the version it converts to, unless +crdforge:nocounterpart acknowledges it; for CI")
	f.BoolVar(&cfg.AllowDroppedZeros, settings.AllowDroppedZeros.Name(), false,
		"report a field whose explicit zero conversion turns into its default (a default other than its zero, and omitempty or omitzero) as a warning, not an error; for a project adopting crdforge with many, best set in .crdforge.yaml as allow-dropped-zeros: true")
	f.IntVar(&cfg.FitCRDBytes, settings.FitCRDBytes.Name(), 0,
		"leave schema descriptions out of each CRD, the deepest and longest first, until it takes at most N bytes as client-side kubectl apply stores it (its JSON, in an annotation); 262144 is the most that can be; 0 leaves them all in")
	f.StringVar(&cfg.KubeVersion, settings.KubeVersion.Name(), "",
		"the oldest Kubernetes release your clusters run, such as 1.31: warn at each generated object that needs a newer one (a CEL rule's field, an API version, a pod field); best set once in .crdforge.yaml as kube-version")
	f.StringVar(&cfg.DocsDir, settings.Docs.Name(), "",
		"write an API reference into this directory, a Markdown page per API group: each kind's versions as a diagram, a map of every field across them (renamed, moved, stashed, narrowed, hand-written) and each version's fields; none is written without it, except with --only docs (into "+pipeline.DefaultDocsDir+")")
	f.StringVar(&cfg.JSONSchemaDir, settings.JSONSchema.Name(), "",
		"write a JSON Schema of every served version of every kind into this directory, as <group>/<kind>_<version>.json (kind in lower case), the layout kubeconform's -schema-location 'DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' reads; strict where the API server prunes unknown fields; none is written without it, except with --only jsonschema (into "+pipeline.DefaultJSONSchemaDir+")")
	f.BoolVar(&cfg.Helm, settings.Helm.Name(), false,
		"also write a Helm chart of the CRDs and the conversion webhook into "+pipeline.DefaultChartsDir+"/<project> (--only helm writes it alone); best set once in .crdforge.yaml as helm: true")
	f.Var(optionalBool{&cfg.RBAC}, settings.RBAC.Name(),
		"write config/rbac/role.yaml, the ClusterRole of the +kubebuilder:rbac markers in every loaded package, as controller-gen's rbac generator (default: on in a kubebuilder project, which its PROJECT file marks; off elsewhere); set it in .crdforge.yaml as rbac: true or false")
	f.Lookup(settings.RBAC.Name()).NoOptDefVal = "true"
	f.Var(optionalBool{&cfg.ValidateSamples}, settings.ValidateSamples.Name(),
		"check each object of "+samples.Dir+" (kubebuilder's samples) whose kind a generated CRD defines against that CRD, as the API server would check it: a field it would refuse or drop is a warning at the sample's line; set it in .crdforge.yaml as validate-samples: false to turn it off")
	f.Lookup(settings.ValidateSamples.Name()).NoOptDefVal = "true"
	f.Lookup(settings.ValidateSamples.Name()).DefValue = "true"
	f.StringVar(&cfg.RoleName, settings.RBACRoleName.Name(), "",
		"the ClusterRole's name in config/rbac/role.yaml (controller-gen's rbac:roleName)")
	f.Lookup(settings.RBACRoleName.Name()).DefValue = controllertools.DefaultRoleName
	f.Var(optionalBool{&cfg.Admission}, settings.Admission.Name(),
		"write config/webhook/manifests.yaml, the admission webhook configurations of the +kubebuilder:webhook markers in every loaded package, as controller-gen's webhook generator (default: on in a kubebuilder project, off elsewhere); set it in .crdforge.yaml as admission: true or false")
	f.Lookup(settings.Admission.Name()).NoOptDefVal = "true"
	f.StringSliceVar(&cfg.Only, settings.Only.Name(), nil, "run only these generators (comma-separated): "+strings.Join(pipeline.Names(), ", "))

	// controller-gen's options, named as its crd: and object: options are.
	f.BoolVar(&cfg.AllowDangerousTypes, settings.AllowDangerousTypes.Name(), false,
		"allow float32 and float64 fields in schemas; without it a float field is an error at the field (controller-gen's crd:allowDangerousTypes)")
	f.BoolVar(&cfg.IgnoreUnexportedFields, settings.IgnoreUnexportedFields.Name(), false,
		"leave unexported fields out of schemas (crd:ignoreUnexportedFields)")
	f.Var(optionalInt{&cfg.MaxDescLen}, settings.MaxDescLen.Name(),
		"truncate schema descriptions to at most N bytes at a sentence or word boundary; 0 drops them, negative keeps them (crd:maxDescLen)")
	f.BoolVar(&cfg.GenerateEmbeddedObjectMeta, settings.GenerateEmbeddedObjectMeta.Name(), false,
		"give an ObjectMeta embedded below the top level (a template's metadata) its schema: name, namespace, labels, annotations, finalizers (crd:generateEmbeddedObjectMeta)")
	f.StringVar(&cfg.HeaderFile, settings.HeaderFile.Name(), "",
		"file whose content (Go comments, a license) starts every generated Go file, before crdforge's Code generated line and after any //go:build line (object:headerFile)")
	f.StringVar(&cfg.CRDHeaderFile, settings.CRDHeaderFile.Name(), "",
		"file whose content, as it is (YAML # comments, a license), starts every CRD YAML file, before crdforge's Code generated line (crd:headerFile)")
	f.StringVar(&cfg.Year, settings.Year.Name(), "",
		`year that replaces " YEAR" in the header files (object:year, crd:year); crdforge reads no clock: without it " YEAR" becomes " ", with a warning`)
}

// optionalInt is an int flag that stays nil until it is given, so that
// pipeline.Config can tell "not set" from 0.
type optionalInt struct{ p **int }

func (o optionalInt) String() string {
	if o.p == nil || *o.p == nil {
		return ""
	}
	return strconv.Itoa(**o.p)
}

func (o optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not an integer: %q", s)
	}
	*o.p = &n
	return nil
}

func (optionalInt) Type() string { return "N" }

// optionalBool is a bool flag that stays nil until it is given, so that
// pipeline.Config can tell "not set" (the project decides) from false.
type optionalBool struct{ p **bool }

func (o optionalBool) String() string {
	if o.p == nil || *o.p == nil {
		return ""
	}
	return strconv.FormatBool(**o.p)
}

func (o optionalBool) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("not true or false: %q", s)
	}
	*o.p = &b
	return nil
}

func (optionalBool) Type() string { return "bool" }

// maxNoCounterpart is how many warnings about fields with no counterpart
// crdforge generate prints without --verbose: a first version of an API can
// differ from the next in dozens of fields, and a screenful of the same
// advice hides the other diagnostics.
const maxNoCounterpart = 10

// printDiagnostics prints every diagnostic, sorted, but, unless verbose,
// only the first maxNoCounterpart warnings about fields with no
// counterpart, and how many more there are.
func printDiagnostics(stderr io.Writer, dir string, items []diag.Diagnostic, verbose bool) {
	shown, hidden := 0, 0
	for _, d := range items {
		if d.Class == diag.ClassNoCounterpart && d.Severity == diag.Warning && !verbose {
			if shown == maxNoCounterpart {
				hidden++
				continue
			}
			shown++
		}
		printErr(stderr, d.Format(dir))
	}
	if hidden > 0 {
		printErrf(stderr, "crdforge: %d more field(s) with no counterpart in a version they convert to; --verbose lists them all, +crdforge:nocounterpart acknowledges one", hidden)
	}
}

// summary is the one line a run that writes ends with: how many generated
// files it wrote, left as they were, and removed.
func summary(files []output.File, changes []output.Change) string {
	written, removed := 0, 0
	for _, c := range changes {
		if c.Delete {
			removed++
		} else {
			written++
		}
	}
	produced := 0
	for _, f := range files {
		if !f.Delete {
			produced++
		}
	}
	return fmt.Sprintf("crdforge: %d file(s) written, %d unchanged, %d removed", written, produced-written, removed)
}

// generateHelp is `crdforge generate --help`.
const generateHelp = `Generate loads the named Go packages once (default ./..., relative to the
current directory), reads their kubebuilder and +crdforge: markers, and writes:

  - one CRD per kind into --crd-dir, named <group>_<plural>.yaml;
  - zz_generated.deepcopy.go into every package with API types;
  - zz_generated.conversion.go (and _test.go) into every version package of
    a kind with several versions: hub-and-spoke conversions;
  - the conversion webhook's main (--webhook-main) and, under config/webhook,
    its kustomize-ready deployment (Deployment, Service, PodDisruptionBudget,
    cert-manager Issuer and Certificate) when a CRD converts through a
    webhook. Without cert-manager, see crdforge certs;
  - with --docs DIR (or --only docs), an API reference: a Markdown page per
    API group with each kind's versions, a map of every field across them
    and each version's fields;
  - with --json-schema DIR (or --only jsonschema), a JSON Schema of every
    served version of every kind, DIR/<group>/<kind>_<version>.json, for
    kubeconform and editors.

In a kubebuilder project (a PROJECT file), the CRDs' conversion webhook is the
manager's Service as kubebuilder scaffolds it (webhook-service in system),
and config/webhook and config/crd stay kubebuilder's: no deployment is
generated there.

Every CRD is checked with the API server's own validation before anything is
written, and so is each object of config/samples (kubebuilder's) of a kind
a generated CRD defines, against that CRD, as crdforge validate checks it
(--validate-samples=false turns that off). When anything is wrong, every problem is printed as
file:line:col: message, nothing is written, and the exit code is 2. A CRD
that passed without a warning is recorded in $CRDFORGE_CACHE (default: crdforge
in the user's cache directory; off turns it off) and not validated again
while this crdforge binary prints it the same. A run whose inputs (the
packages' files and those they import from the module, go.mod, go.sum, the
flags, this binary, the outputs as written) are as a run that left the tree
up to date found them writes nothing and says "up to date", repeating that
run's warnings; CRDFORGE_CACHE=off forces a full run.

Files are written only where their bytes change, each through a temporary
file and a rename. Only another generator's output is overwritten: a file
marked as generated, or a CRD carrying controller-gen's version annotation;
hand-written and scaffolded files never are. A project that has a webhook
main or a config/webhook of its own keeps it: crdforge then writes none of
that part (no half layout) and says so in a warning. The CRDs then convert
through the Service in that config/webhook/service.yaml; where there is none,
the warning names the +crdforge:webhook marker that names the project's own.

The --allow-dangerous-types ... --year flags are controller-gen's crd: and
object: options of the same names, with the same meaning. A project sets them
(and any flag above but --verify) once in .crdforge.yaml, in the current
directory: a map from flag names to values, such as "max-desc-len: 0". A flag
given on the command line wins over the file.

After the summary, a line gives the largest CRD's size, or each size over
half of the 262144 bytes client-side kubectl apply can store; a CRD over it
is a warning. --fit-crd-bytes=262144 leaves out descriptions until each CRD
fits; +crdforge:description:omit leaves out those of a field, type or
package.

Exit codes: 0 ok, 1 stale (with --verify), 2 errors.`
