package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/crdforge/crdforge/cmd/crdforge/command/status"
)

func newStatus(stdout, stderr io.Writer) *cobra.Command {
	var (
		kube   kubeFlags
		output string
	)
	cmd := &cobra.Command{
		Use:   "status <plural>.<group>",
		Short: "Show where a CRD's versions are in their life, and the command to run next",
		Long: `crdforge status reads a CustomResourceDefinition from the cluster and shows,
for each version, whether it is served, the storage version, deprecated (with
the warning clients get) and in status.storedVersions; the conversion
strategy and, for a webhook, whether it answers (it reads one object, if
any, at every served version); and the step of the version's life the CRD
is at, with what to do next:

  make-storage  a newer version is served: make it the storage version
  migrate       older versions are in status.storedVersions: crdforge migrate
  stop-serving  an older version is no longer stored: deprecate it, then
                stop serving it
  remove        an older version is neither served nor stored: delete it
  settled       one version, the only one stored
  webhook-down  the conversion webhook does not answer: start it first

It changes nothing. Exit codes: 0 reported, 2 usage errors (unknown CRD,
bad flags, no cluster).`,
		Annotations: map[string]string{DocsAnnotation: "version-life.md"},
		Args:        oneCRDName("status"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "text" && output != "json" {
				printErrf(stderr, "crdforge status: --output must be text or json, not %q", output)
				return exitError{ExitErrors}
			}
			cfg, err := kube.restConfig()
			if err != nil {
				printFailure(stderr, "crdforge status:", err)
				return exitError{ExitErrors}
			}
			r, err := status.Read(cmd.Context(), cfg, args[0])
			if err != nil {
				printFailure(stderr, "crdforge status:", err)
				return exitError{ExitErrors}
			}
			if output == "json" {
				return status.WriteJSON(stdout, r)
			}
			return status.WriteText(stdout, r)
		},
	}
	kube.register(cmd.Flags())
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json (for scripts: .step.name is make-storage, migrate, stop-serving, remove, settled or webhook-down)")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		printFailure(stderr, "crdforge status:", err)
		return exitError{ExitErrors}
	})
	return cmd
}
