// Package cli is crdforge's command line: flags become a pipeline.Config,
// and one call runs the pipeline.
//
// Its Go API carries no compatibility promise before v1 (ARCHITECTURE.md):
// crdforge's binary is the product.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/crdforge/crdforge/internal/diag"
)

// Exit codes of crdforge generate.
const (
	ExitOK     = 0
	ExitStale  = 1 // --verify found output that would change
	ExitErrors = 2 // the input has errors, or the run could not start
)

// exitError carries an exit code up to Main; its message, if any, has
// already been printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs crdforge with args and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		printFailure(stderr, "crdforge:", err)
		return ExitErrors
	}
}

// printErr writes one line to stderr: a diagnostic, a warning, a file written.
// Its write error is dropped on purpose: stderr is where crdforge would
// report that error, and the exit code tells how the run ended whether or
// not the line got out. What a command produces on stdout is checked.
func printErr(stderr io.Writer, a ...any) {
	_, _ = fmt.Fprintln(stderr, a...)
}

// printFailure prints err as generate prints its diagnostics (diag.Format):
// a headline of at most diag.MaxHeadline characters, then its notes. A
// diagnostic with no position is headed by who reports it, such as
// "crdforge status:".
func printFailure(stderr io.Writer, who string, err error) {
	// Errors joined (one per pattern that names nothing): a diagnostic each.
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range joined.Unwrap() {
			printFailure(stderr, who, err)
		}
		return
	}
	d := diag.FromError(err)
	dir, _ := workingDir()
	text := d.Format(dir)
	if d.Pos.Filename == "" {
		text = who + " " + text
	}
	printErr(stderr, text)
}

// printErrf is printErr with a format; it adds the newline.
func printErrf(stderr io.Writer, format string, a ...any) {
	_, _ = fmt.Fprintf(stderr, format+"\n", a...)
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "crdforge",
		Short: "Versioned Kubernetes CRDs from marker-annotated Go types",
		Long: `crdforge turns one Go package per API version (api/v1beta1, api/v1, ...),
annotated with kubebuilder markers, into everything a multi-version
CustomResourceDefinition needs:

  - CRD YAML with a schema per version, in Kubernetes version priority order,
    checked offline with the API server's own validation;
  - deepcopy methods, so the types are runtime.Objects;
  - hub-and-spoke conversions between the versions, with hand-written hooks
    where the types differ too much, lossless round trips, and generated
    round-trip tests;
  - a ready-to-run conversion webhook and its kustomize-ready deployment.

The other commands cover the rest of a version's life:

  crdforge check        says what a change breaks, against a git revision,
                        CRD files or a cluster;
  crdforge new-version  copies a version's package into a new one;
  crdforge certs        makes the webhook's certificates without cert-manager;
  crdforge migrate      moves a cluster's stored objects to the storage
                        version, so that an old one can be dropped;
  crdforge status       says where a CRD is in a version's life, and what to
                        run next;
  crdforge validate     checks objects (samples, manifests) against their
                        CRDs offline, as the API server does;
  crdforge markers      lists the markers crdforge reads.

Run it from the directory that holds your API packages, usually through a
//go:generate line or a "make manifests" target:

  crdforge generate ./...`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version(),
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newGenerate(stdout, stderr), newMarkers(stdout), newCerts(stderr), newMigrate(stdout, stderr), newVersion(stdout))
	root.AddCommand(newStatus(stdout, stderr), newNewVersion(stdout, stderr))
	root.AddCommand(newCheck(stdout, stderr), newValidate(stdout, stderr))
	return root
}

func newVersion(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print crdforge's version",
		Long: `Version prints the module version crdforge was built at: a tag, when
installed with go install ...@vX, or, for a binary built from a checkout, the
VCS revision it was built from:

  crdforge (devel) revision d755f3f01234+dirty from <commit time>

go run, go test and builds with -buildvcs=false record no revision, and
print (devel).`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(stdout, "crdforge", version())
			return err
		},
	}
}

// version is the module version crdforge was built at: a tag (or a
// pseudo-version) when installed with go install pkg@version; from a
// checkout, where the go command records "(devel)", the VCS revision the
// binary was built from, with "+dirty" when the tree had changes.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		// go run and go test record no revision.
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "(devel) revision " + rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += " from " + at
	}
	return v
}

func workingDir() (string, error) {
	if pwd := os.Getenv("PWD"); pwd != "" {
		if fi, err := os.Stat(pwd); err == nil && fi.IsDir() {
			if cwd, err := os.Getwd(); err == nil && sameDir(pwd, cwd) {
				return pwd, nil
			}
		}
	}
	return os.Getwd()
}

func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// DocsAnnotation is the cobra annotation that names a command's page under
// docs/ (a relative link, anchor allowed), which docs/commands.md links to:
// what a command does in depth is there, and its --help stays short enough
// for a terminal.
const DocsAnnotation = "crdforge.docs"

// Command returns crdforge's command tree as a user meets it, cobra's
// completion command included, for cmd/crdforge/cli/docgen to write
// docs/commands.md from: the page then lists exactly the commands and flags
// the binary has. Its commands print nowhere.
func Command() *cobra.Command {
	root := newRoot(io.Discard, io.Discard)
	root.InitDefaultCompletionCmd()
	return root
}
