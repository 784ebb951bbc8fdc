package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate"
	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate/testhook"
)

// ExitMigrateFailed is crdforge migrate's exit code when objects failed, the
// conversion webhook check refused the run, or it was interrupted.
const ExitMigrateFailed = 1

// RunMigrate runs `crdforge migrate` with args (those after "migrate") and
// returns the exit code, as Main would; the end-to-end tests use it.
// afterObject, if not nil, is called after each object with the number
// done so far (tests interrupt a run through it by cancelling ctx); it
// reaches the run through the context (package testhook), not through
// migrate.Options.
func RunMigrate(ctx context.Context, args []string, stdout, stderr io.Writer, afterObject func(done int)) int {
	cmd := newMigrate(stdout, stderr)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.ExecuteContext(testhook.WithAfterObject(ctx, afterObject))
	var ee exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		printFailure(stderr, "crdforge migrate:", err)
		return ExitErrors
	}
}

func newMigrate(stdout, stderr io.Writer) *cobra.Command {
	var (
		kube          kubeFlags
		opts          migrate.Options
		quiet         bool
		printManifest bool
	)
	cmd := &cobra.Command{
		Use:         "migrate <crd-name>",
		Short:       "Move a CRD's objects to its storage version (cluster migrator or client rewrite), then drop old storedVersions",
		Long:        migrateHelp,
		Annotations: map[string]string{DocsAnnotation: "migrate.md"},
		Args:        oneCRDName("migrate"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.ChunkSize <= 0 || opts.Concurrency <= 0 {
				printErr(stderr, "crdforge migrate: --chunk-size and --concurrency must be positive")
				return exitError{ExitErrors}
			}
			cfg, err := kube.restConfig()
			if err != nil {
				printFailure(stderr, "crdforge migrate:", err)
				return exitError{ExitErrors}
			}
			opts.CRD = args[0]
			if printManifest {
				if err := migrate.Print(cmd.Context(), cfg, opts.CRD, stdout); err != nil {
					printFailure(stderr, "crdforge migrate:", fmt.Errorf("--print: %w", err))
					return exitError{ExitErrors}
				}
				return nil
			}
			if !quiet {
				opts.Progress = stderr
				if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
					opts.Terminal = true
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			res, err := migrate.Run(ctx, cfg, opts)
			if res != nil {
				// The exit code stays the one of what happened in the
				// cluster, which scripts act on: a report that could not
				// be printed does not undo the run, and running again is
				// safe and reports again.
				if werr := writeReport(stdout, res, err); werr != nil {
					printFailure(stderr, "crdforge migrate:", fmt.Errorf("writing the report: %w", werr))
				}
			}
			switch {
			case err == nil:
				return nil
			case errors.Is(err, migrate.ErrUsage):
				printFailure(stderr, "crdforge migrate:", err)
				return exitError{ExitErrors}
			default:
				printFailure(stderr, "crdforge migrate:", err)
				return exitError{ExitMigrateFailed}
			}
		},
	}
	f := cmd.Flags()
	kube.register(f)
	f.Int64Var(&opts.ChunkSize, "chunk-size", migrate.DefaultChunkSize, "objects per list page")
	f.IntVar(&opts.Concurrency, "concurrency", migrate.DefaultConcurrency, "objects written concurrently")
	f.BoolVar(&opts.DryRun, "dry-run", false, "only report: writes are server-side dry runs and status.storedVersions is left alone")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress output")
	f.StringVar(&opts.Engine, "engine", migrate.EngineAuto, "auto, cluster or client: who moves the objects (see above)")
	f.DurationVar(&opts.Timeout, "timeout", 0, "with the cluster engine: give up following the migration after this long (it goes on in the cluster); 0 waits until it ends")
	f.BoolVar(&printManifest, "print", false, "print the StorageVersionMigration manifest (for GitOps) instead of migrating")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		printFailure(stderr, "crdforge migrate:", err)
		return exitError{ExitErrors}
	})
	return cmd
}

// oneCRDName accepts the one argument of a command that acts on a CRD of the
// cluster (migrate, status): its name, <plural>.<group>.
func oneCRDName(command string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return fmt.Errorf("%s takes one argument, the CRD name (<plural>.<group>); got %d", command, len(args))
		}
		return nil
	}
}

// writeReport writes what a run found and did to w: the two checks, then the
// summary, which a run the conversion check refused (runErr wraps
// ErrConversion) has none of.
func writeReport(w io.Writer, res *migrate.Result, runErr error) error {
	var b strings.Builder
	if res.StorageCheck != "" {
		b.WriteString("storage version check: " + res.StorageCheck + "\n")
	}
	if res.ConversionCheck != "" {
		b.WriteString("conversion check: " + res.ConversionCheck + "\n")
	}
	if !errors.Is(runErr, migrate.ErrConversion) {
		b.WriteString(res.Summary())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// migrateHelp is `crdforge migrate --help`.
const migrateHelp = `crdforge migrate upgrades the stored objects of a CustomResourceDefinition to
its current storage version, so that older versions can leave
status.storedVersions and then spec.versions:

  1. set storage: true on the new version and apply the CRD (you do this);
  2. crdforge migrate <plural>.<group> moves every object to the storage
     version, with one of two engines (--engine):
       cluster  creates a StorageVersionMigration (storagemigration.k8s.io
                v1, else v1beta1, else v1alpha1), which kube-controller-
                manager's storage version migrator carries out inside the
                cluster, and follows its conditions;
       client   lists every object, page by page, and writes each back
                unchanged, which makes the API server store it there;
       auto     (default) cluster when the API server serves the API and a
                migrator takes the migration up within 30s, else client;
  3. it drops metadata.managedFields entries of versions no longer served
     (the migrator does not; kubernetes/kubernetes#111937), and sets
     status.storedVersions to the storage version alone, unless the
     migrator already did (Kubernetes 1.36 and later do).

Before anything moves it checks that the CRD has one storage version and
that its conversion webhook answers (it reads one object at every served
version). A StorageVersionMigration that fails is reported with the
server's reason and left for inspection; the migrator never runs it again,
so running crdforge migrate again creates a new one. Running it again is
safe with either engine. --print writes the StorageVersionMigration for a
GitOps repository instead, and changes nothing.

Exit codes: 0 done, 1 the migration or objects failed (or the webhook check
refused, or the run was interrupted; status.storedVersions is then
unchanged), 2 usage errors (unknown CRD, bad flags, no cluster, --engine
cluster without the API).

The cluster comes from --kubeconfig, else $KUBECONFIG, else ~/.kube/config,
else the in-cluster service account.`
