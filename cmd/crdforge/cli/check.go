package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/crdforge/crdforge/cmd/crdforge/command/check"
	"github.com/crdforge/crdforge/internal/settings"
)

// Exit codes of crdforge check.
const (
	ExitBreaking = 1 // a finding is an error
)

func newCheck(stdout, stderr io.Writer) *cobra.Command {
	c := checkRun{stdout: stdout, stderr: stderr}
	cmd := &cobra.Command{
		Use:         "check [packages...]",
		Short:       "Report breaking API changes against a git revision, CRD files or a cluster",
		Long:        checkHelp,
		Annotations: map[string]string{DocsAnnotation: "check.md"},
		Example: `  # In a pull request: what does it break against the default branch?
  crdforge check ./...

  # Against a release tag, as a pull-request comment
  crdforge check --against v1.2.0 --output markdown ./...

  # Against what is installed (stored versions included)
  crdforge check --against-cluster --kubeconfig ~/.kube/config ./...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			c.againstSet = cmd.Flags().Changed("against")
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return c.run(ctx, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.against, "against", "", "git revision to compare with (default: the merge base of HEAD and the default branch)")
	f.StringVar(&c.againstFiles, "against-files", "", "CRD YAML file or directory to compare with")
	f.BoolVar(&c.againstCluster, "against-cluster", false, "compare with the CRDs installed in the cluster")
	f.StringVar(&c.kubeconfig, "kubeconfig", "", "with --against-cluster: path to the kubeconfig")
	f.StringVar(&c.kubeContext, "context", "", "with --against-cluster: kubeconfig context to use")
	f.BoolVar(&c.objects, settings.CheckObjects.Name(), false,
		"with --against-cluster: also read every stored object of each CRD whose schema changes (at each changed version, in pages) and list those the new schema refuses at a field the cluster's accepts, as namespace/name: field: reason; any such object exits 1")
	f.StringVarP(&c.format, "output", "o", "text", "output format: "+strings.Join(check.Formats, ", "))
	return cmd
}

// checkRun is one run of crdforge check: its flags and where it prints.
type checkRun struct {
	against, againstFiles   string
	againstSet              bool
	againstCluster          bool
	objects                 bool
	kubeconfig, kubeContext string
	// cluster is the cluster --against-cluster reads, once it is read.
	cluster        *rest.Config
	format         string
	stdout, stderr io.Writer
}

func (c *checkRun) run(ctx context.Context, args []string) error {
	n := 0
	for _, set := range []bool{c.againstSet, c.againstFiles != "", c.againstCluster} {
		if set {
			n++
		}
	}
	if n > 1 {
		printErr(c.stderr, "crdforge check: give one of --against, --against-files and --against-cluster")
		return exitError{ExitErrors}
	}
	if c.objects && !c.againstCluster {
		printErrf(c.stderr, "crdforge check: %s reads the cluster's objects: give --against-cluster too", settings.CheckObjects.Flag())
		return exitError{ExitErrors}
	}
	if !slices.Contains(check.Formats, c.format) {
		printErrf(c.stderr, "crdforge check: unknown --output %q (want %s)", c.format, strings.Join(check.Formats, ", "))
		return exitError{ExitErrors}
	}
	dir, err := workingDir()
	if err != nil {
		return err
	}
	gcfg, err := projectConfig(dir, c.stderr)
	if err != nil {
		return err
	}
	ccfg, err := checkConfig(dir)
	if err != nil {
		printFailure(c.stderr, "crdforge check:", err)
		return exitError{ExitErrors}
	}
	gcfg.Patterns = args
	gcfg.ValidationRecord = validationRecord(c.stderr)

	// A git baseline is generated while the working tree is.
	var rev string
	var revErr error
	var baselineSide func() (*check.Side, error)
	if c.againstFiles == "" && !c.againstCluster {
		if rev = c.against; rev == "" {
			rev, revErr = check.DefaultRevision(ctx, dir)
		}
		if revErr == nil {
			baselineSide = check.StartGitRevision(ctx, gcfg, rev)
		}
	}
	nw, err := check.Generate(gcfg)
	if err == nil && failed(c.stderr, dir, "", nw) {
		err = exitError{ExitErrors}
	}
	if err != nil {
		if baselineSide != nil {
			_, _ = baselineSide() // its temporary tree goes before the command returns; its result is moot
		}
		return err
	}
	var old *check.Side
	var baseline string
	switch {
	case c.againstFiles != "":
		baseline = c.againstFiles
		old, err = check.Files(c.againstFiles)
	case c.againstCluster:
		baseline, old, err = c.clusterSide(ctx, nw)
	case revErr != nil:
		err = revErr
	default:
		baseline = rev
		old, err = baselineSide()
		if err == nil && failed(c.stderr, dir, rev, old) {
			return exitError{ExitErrors}
		}
	}
	if err != nil {
		printFailure(c.stderr, "crdforge check:", err)
		return exitError{ExitErrors}
	}
	return c.report(ctx, old, nw, ccfg, dir, baseline)
}

// clusterSide is the baseline the cluster's CRDs make, and its name.
func (c *checkRun) clusterSide(ctx context.Context, nw *check.Side) (string, *check.Side, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = c.kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: c.kubeContext})
	rc, err := cc.ClientConfig()
	if err != nil {
		return "", nil, kubeconfigFailure(err)
	}
	var names []string
	for _, crd := range nw.CRDs {
		names = append(names, crd.Name)
	}
	old, err := check.Cluster(ctx, rc, names)
	c.cluster = rc
	return "the cluster " + rc.Host, old, err
}

// report compares the two sides, checks the cluster's stored objects
// with --objects, and prints the findings.
func (c *checkRun) report(ctx context.Context, old, nw *check.Side, ccfg check.Config, dir, baseline string) error {
	res, err := check.Compare(check.Input{Old: old.CRDs, New: nw.CRDs, OldLocator: old.Locator, NewLocator: nw.Locator}, ccfg)
	if err == nil && c.objects {
		res.Objects, err = check.StoredObjects(ctx, c.cluster, old.CRDs, nw.CRDs, 0)
	}
	if err != nil {
		printFailure(c.stderr, "crdforge check:", err)
		return exitError{ExitErrors}
	}
	if err := check.Write(c.stdout, c.format, res, dir, baseline); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if res.HasErrors() {
		return exitError{ExitBreaking}
	}
	return nil
}

// failed prints a side's generation diagnostics and reports whether any is
// an error. rev names a baseline's revision; its diagnostics are in a
// temporary tree, so only their messages are printed.
func failed(stderr io.Writer, dir, rev string, side *check.Side) bool {
	if side.Diags == nil {
		return false
	}
	if rev == "" {
		for _, d := range side.Diags.Items() {
			printErr(stderr, d.Format(dir))
		}
		return side.Diags.HasErrors()
	}
	if side.Diags.HasErrors() {
		printErrf(stderr, "crdforge check: the baseline at %s does not generate:", rev)
		for _, d := range side.Diags.Items() {
			printErr(stderr, "  "+d.Format(dir))
		}
		return true
	}
	return false
}

// checkConfig reads the check section of dir's project file.
func checkConfig(dir string) (check.Config, error) {
	var cfg check.Config
	b, err := os.ReadFile(filepath.Join(dir, ProjectFile))
	if errors.Is(err, os.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, err
	}
	var doc struct {
		Check struct {
			Rules         map[string]string `yaml:"rules"`
			EnumAdditions string            `yaml:"enum-additions"`
		} `yaml:"check"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return cfg, fmt.Errorf("%s: %v", ProjectFile, err)
	}
	for name, e := range doc.Check.Rules {
		if cfg.Rules == nil {
			cfg.Rules = map[string]check.Enforcement{}
		}
		cfg.Rules[name] = check.Enforcement(strings.ToLower(e))
	}
	switch strings.ToLower(doc.Check.EnumAdditions) {
	case "", "disallow":
	case "allow":
		cfg.AllowEnumAdditions = true
	default:
		return cfg, fmt.Errorf("%s: check.enum-additions: want allow or disallow, got %q", ProjectFile, doc.Check.EnumAdditions)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("%s: check: %w", ProjectFile, err)
	}
	return cfg, nil
}

// checkHelp is `crdforge check --help`.
const checkHelp = `Check generates the CRDs of the named packages (default ./...) from the
working tree, as crdforge generate would, and compares them with a baseline:

  --against REV        the same packages at a git revision, generated in a
                       temporary copy of that revision's tree (default: the
                       merge base of HEAD and the default branch, origin/HEAD,
                       else main, else master; HEAD without one);
  --against-files PATH CRD YAML files: a file or a directory;
  --against-cluster    the CRDs installed in the cluster (--kubeconfig, else
                       $KUBECONFIG, else ~/.kube/config, else in-cluster), with
                       their status.storedVersions; with --objects, also
                       every stored object of a CRD whose schema changes, read
                       at each changed version and checked against the new
                       schema as the API server checks a create: each one
                       refused at a field the cluster's schema accepts is
                       listed as namespace/name: field: reason.

Every crdify v0.5.0 check runs with crdify's meaning and defaults (scope,
existingFieldRemoval, storedVersionRemoval, enum, default, maximum, maxItems,
maxLength, maxProperties, minimum, minItems, minLength, minProperties,
required, type, description, unhandled), and crdforge's own: CEL rules added,
ratcheting or removed, immutability added, the API server's update validation
(CEL that no longer compiles, cost over budget), server-side apply list and
map types, preserve-unknown-fields removed, data loss across versions and
at the stored versions (through the conversions' field mapping: renames,
+crdforge:hubfield, nested moves, stashed fields), type changes the generated
conversion cannot carry, versions removed, unserved, deprecated or moved,
fields the baseline deprecated removed (a warning), and, as information,
fields newly deprecated, printer columns, selectable fields, short names
and categories.

Findings point at the Go field, type or marker in the working tree
(file:line:col; a change a marker made, at that marker), or at the
baseline's (rev:file:line:col) for what only the baseline has. Enforcement per rule (error, warn, info, off) is set once in
.crdforge.yaml:

  check:
    rules:
      description: warn
    enum-additions: allow

Exit codes: 0 no breaking change, 1 a breaking change (an error finding,
or a stored object refused), 2 usage or generation errors.`
