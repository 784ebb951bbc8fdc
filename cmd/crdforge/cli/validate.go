package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"github.com/crdforge/crdforge/cmd/crdforge/command/validate"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/objectcheck"
	"github.com/crdforge/crdforge/internal/settings"
)

// Exit codes of crdforge validate.
const (
	ExitInvalid = 1 // the API server would refuse an object, or none of its CRDs is given
)

// validateRun is one run of crdforge validate: its flags and where it
// prints.
type validateRun struct {
	stdout, stderr io.Writer
	opts           validate.Options
	showDefaults   bool
	format         string
}

func newValidate(stdout, stderr io.Writer) *cobra.Command {
	v := validateRun{stdout: stdout, stderr: stderr}
	cmd := &cobra.Command{
		Use:         "validate FILE...",
		Short:       "Check objects against their CRDs offline, as the API server does",
		Long:        validateHelp,
		Annotations: map[string]string{DocsAnnotation: "validate.md"},
		Example: `  # The samples, against the CRDs crdforge generate wrote
  crdforge validate config/samples/*.yaml

  # An update: transition rules against the object as it is now
  crdforge validate --old current.yaml changed.yaml

  # What the API server would store, defaults applied
  crdforge validate --show-defaults sample.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return v.run(args)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&v.opts.CRDs, settings.ValidateCRD.Name(), nil, "a CRD file, or a directory of them, to check against; repeatable (default: crd-dir of .crdforge.yaml, else "+pipeline.DefaultCRDDir+")")
	f.StringArrayVar(&v.opts.Old, settings.ValidateOld.Name(), nil, "a file of the objects as they are now: an object with the same kind, namespace and name is checked as an update of it (transition rules, ratcheting); repeatable")
	f.BoolVar(&v.showDefaults, "show-defaults", false, "print each object as the API server would store it (unknown fields dropped, defaults applied) to stdout, as YAML documents")
	f.StringVarP(&v.format, "output", "o", formatText,
		"how diagnostics are printed: "+formatText+" (to stderr) or "+formatJSON+" (one JSON array on stdout: file, line, column, severity, field, message and notes of each)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		printErr(stderr, "crdforge validate:", err)
		return exitError{ExitErrors}
	})
	return cmd
}

func (v *validateRun) run(files []string) error {
	if v.format != formatText && v.format != formatJSON {
		printErrf(v.stderr, "crdforge validate: --output must be %s or %s, not %q", formatText, formatJSON, v.format)
		return exitError{ExitErrors}
	}
	if v.format == formatJSON && v.showDefaults {
		printErr(v.stderr, "crdforge validate: --show-defaults and --output json both print on stdout; give one")
		return exitError{ExitErrors}
	}
	dir, err := workingDir()
	if err != nil {
		return err
	}
	if len(v.opts.CRDs) == 0 {
		if v.opts.CRDs, err = defaultCRDs(dir, v.stderr); err != nil {
			return err
		}
	}
	v.opts.Files = files
	rep, err := validate.Run(v.opts)
	if err != nil {
		printErr(v.stderr, "crdforge validate:", err)
		return exitError{ExitErrors}
	}
	return v.report(dir, rep)
}

// defaultCRDs is the directory crdforge generate writes CRDs into: the
// project file's crd-dir, or the default.
func defaultCRDs(dir string, stderr io.Writer) ([]string, error) {
	cfg, err := projectConfig(dir, stderr)
	if err != nil {
		return nil, err
	}
	crdDir := cfg.CRDDir
	if crdDir == "" {
		crdDir = pipeline.DefaultCRDDir
	}
	if _, err := os.Stat(filepath.Join(dir, crdDir)); errors.Is(err, os.ErrNotExist) {
		printErrf(stderr, "crdforge validate: no CRDs in %s: give --crd FILE, or run crdforge generate first", crdDir)
		return nil, exitError{ExitErrors}
	}
	return []string{crdDir}, nil
}

// report prints the diagnostics and, with --show-defaults, the objects;
// it fails the run when an object is refused or was not checked.
func (v *validateRun) report(dir string, rep *objectcheck.Report) error {
	items := rep.Diags.Items()
	if v.format == formatJSON {
		if err := writeJSONDiagnostics(v.stdout, dir, items); err != nil {
			return err
		}
	} else {
		for _, d := range items {
			printErr(v.stderr, d.Format(dir))
		}
		printErr(v.stderr, validateSummary(rep))
	}
	if v.showDefaults {
		if err := writeObjects(v.stdout, rep.Checked); err != nil {
			return err
		}
	}
	if rep.Diags.HasErrors() {
		return exitError{ExitInvalid}
	}
	return nil
}

// validateSummary is the line a text report ends with: how many objects
// were checked, and how many the server would refuse.
func validateSummary(rep *objectcheck.Report) string {
	return fmt.Sprintf("crdforge validate: %d object(s) checked, %d refused, %d not checked", len(rep.Checked), rep.Refused(), rep.Unchecked)
}

// writeObjects prints each object as the server would store it, a YAML
// document each.
func writeObjects(w io.Writer, checked []objectcheck.Checked) error {
	for i, c := range checked {
		b, err := yaml.Marshal(c.Result.Object)
		if err != nil {
			return err
		}
		if i > 0 {
			b = append([]byte("---\n"), b...)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing the objects: %w", err)
		}
	}
	return nil
}

// validateHelp is `crdforge validate --help`.
const validateHelp = `crdforge validate checks each object of the YAML or JSON files (any number
of documents a file) against its CRD, found by group and kind among the CRDs
crdforge generate wrote (config/crd/bases, or crd-dir of .crdforge.yaml) or
those --crd gives, offline, with the API server's own code, as it checks a
create: the schema (types, bounds, formats, enums, required fields, list
sets and maps, an embedded ObjectMeta), then the CEL rules
(x-kubernetes-validations) with their messages. With --old, an object found
there (same kind, namespace and name) is checked as an update of it:
transition rules (oldSelf) run, and a value that was already invalid and
did not change is let through, as the server's ratcheting does.

Each problem is printed at the file:line:col of its field. A field the
schema does not know, which the server would drop, is a warning.
--show-defaults prints what the server would store: defaults applied,
unknown fields dropped.

The server checks more than the CRD: metadata.name's format, admission
webhooks and policies are not run here.

Exit codes: 0 every object valid, 1 an object refused (or not checked: no
CRD defines its kind), 2 usage errors (a file or CRD that cannot be read).`
