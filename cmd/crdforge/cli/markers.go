package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/crdforge/crdforge/markers"
)

func newMarkers(stdout io.Writer) *cobra.Command {
	var brief bool
	cmd := &cobra.Command{
		Use:   "markers",
		Short: "Print every marker crdforge understands, with its arguments",
		Long: `Markers prints the reference of every marker crdforge understands: its own
+crdforge: markers, then controller-gen's kubebuilder markers for CRDs and
deepcopy, which crdforge reads exactly as controller-gen does (through
controller-tools' registry and schema parser). For each: where it goes, what
it does, its arguments with their types and defaults, and an example. The
text comes from the marker definitions themselves, as docs/markers.md's
does.`,
		Annotations: map[string]string{DocsAnnotation: "markers.md"},
		Args:        cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			regs, err := markers.NewRegistries()
			if err != nil {
				return err
			}
			return regs.PrintHelp(stdout, !brief)
		},
	}
	cmd.Flags().BoolVar(&brief, "brief", false, "one line per marker: its syntax, targets and summary")
	return cmd
}
