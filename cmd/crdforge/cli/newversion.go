package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crdforge/crdforge/cmd/crdforge/command/newversion"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/pipeline"
)

func newNewVersion(stdout, stderr io.Writer) *cobra.Command {
	var opts newversion.Options
	cmd := &cobra.Command{
		Use:         "new-version <version> [packages...]",
		Short:       "Add an API version: copy an existing version's package, then regenerate",
		Long:        newVersionHelp,
		Annotations: map[string]string{DocsAnnotation: "version-life.md"},
		Example: `  # api/v1 is the hub: add api/v2, served beside it
  crdforge new-version v2

  # copy v1beta1 instead, and deprecate it
  crdforge new-version v1beta2 --from v1beta1 --deprecate --warning "use v1beta2"`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 1 {
				return errors.New("new-version takes the version to add (such as v2), then optionally package patterns")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := workingDir()
			if err != nil {
				return err
			}
			opts.New = args[0]
			if opts.Warning != "" {
				opts.Deprecate = true
			}
			patterns := args[1:]
			res, err := pipeline.Generate(pipeline.Config{Dir: dir, Patterns: patterns, Only: []string{"deepcopy"}})
			if err != nil {
				return err
			}
			if res.Diags.HasErrors() {
				for _, d := range res.Diags.Items() {
					printErr(stderr, d.Format(dir))
				}
				printErr(stderr, "crdforge new-version: fix these first (crdforge generate reports the same)")
				return exitError{ExitErrors}
			}
			change, undo, err := addVersion(stderr, dir, res.Model, opts)
			if err != nil {
				return err
			}
			for _, f := range change.Files {
				verb := "created"
				if f.Old != nil {
					verb = "edited"
				}
				printErr(stderr, verb, relTo(dir, f.Path))
			}
			if err := regenerate(cmd.Context(), stdout, stderr, dir, patterns, change, undo); err != nil {
				return err
			}
			printErrf(stderr, "crdforge new-version: %s added from %s", relTo(dir, change.Dir), relTo(dir, change.FromDir))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.From, "from", "", "the version to copy (default: the hub)")
	f.StringVar(&opts.Group, "group", "", "the API group (needed when the packages hold several)")
	f.BoolVar(&opts.Storage, "storage", false, "make the new version the storage version")
	f.BoolVar(&opts.Hub, "hub", false, "make the new version the hub of conversions")
	f.BoolVar(&opts.Deprecate, "deprecate", false, "mark the --from version deprecated")
	f.StringVar(&opts.Warning, "warning", "", "the deprecation warning of the --from version (implies --deprecate)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		printFailure(stderr, "crdforge new-version:", err)
		return exitError{ExitErrors}
	})
	return cmd
}

// addVersion plans the new version and writes it, printing what stops it.
func addVersion(stderr io.Writer, dir string, m *model.Model, opts newversion.Options) (*newversion.Change, func() error, error) {
	change, diags, err := newversion.Prepare(m, opts)
	for _, d := range diags {
		printErr(stderr, d.Format(dir))
	}
	if err != nil {
		printFailure(stderr, "crdforge new-version:", err)
		return nil, nil, exitError{ExitErrors}
	}
	if len(diags) > 0 {
		return nil, nil, exitError{ExitErrors}
	}
	undo, err := newversion.Apply(change)
	if err != nil {
		printFailure(stderr, "crdforge new-version:", err)
		return nil, nil, exitError{ExitErrors}
	}
	return change, undo, nil
}

// regenerate runs crdforge generate over patterns after new-version
// applied change; when it fails, undo puts the tree back as it was.
func regenerate(ctx context.Context, stdout, stderr io.Writer, dir string, patterns []string, change *newversion.Change, undo func() error) error {
	gen := newGenerate(stdout, stderr)
	gen.SetArgs(patterns)
	gen.SilenceUsage, gen.SilenceErrors = true, true
	err := gen.ExecuteContext(ctx)
	if err == nil {
		return nil
	}
	var ee exitError
	if !errors.As(err, &ee) {
		printFailure(stderr, "crdforge:", err)
	}
	if uerr := undo(); uerr != nil {
		printFailure(stderr, "crdforge new-version:", fmt.Errorf("generation failed, and undoing the copy failed too: %w", uerr))
		return exitError{ExitErrors}
	}
	printErrf(stderr, "crdforge new-version: generation failed; %s was removed and edited files were put back", relTo(dir, change.Dir))
	return exitError{ExitErrors}
}

// relTo is p relative to dir when below it.
func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && r != ".." && !filepath.IsAbs(r) && (len(r) < 3 || r[:3] != "../") {
		return r
	}
	return p
}

// newVersionHelp is `crdforge new-version --help`.
const newVersionHelp = `crdforge new-version copies the package of an existing version of an API
group (by default the hub's) into a sibling package named after the new
version (api/v1 -> api/v2), and regenerates. The copy is the same Go with
the version renamed where it names the version: the package clause, the
GroupVersion's version string, conversion-gen style function names
(Convert_v1beta1_X_To_v1_X) and the package comment. Generated files and
tests are not copied: crdforge generate writes the new ones, and since the
two versions are alike the new conversions are all mechanical and their
round-trip tests pass.

The safe default leaves the cluster as it is until you decide: the new
version is served, but neither the storage version nor the hub, and the
other versions keep their markers. Flags move the roles:

  --storage    the new version becomes the storage version (the hub stays
               where it was: +crdforge:hub pins it when it was the storage
               version implicitly, so hand-written conversions still hold)
  --hub        the new version becomes the hub of conversions (refused, at
               each function's position, while hand-written conversions
               target the old hub)
  --deprecate  the --from version gets +kubebuilder:deprecatedversion,
               with --warning as the text its clients get

It never overwrites: an existing package directory, or a version the kinds
already have, is an error. When generation fails afterwards, the new
package is removed and edited files are put back. Exit codes: 0 ok, 2
errors (positioned as crdforge generate's).`
