package cli

import (
	"io"

	"github.com/crdforge/crdforge/internal/markers"
	"github.com/spf13/cobra"
)

func newMarkers(stdout io.Writer) *cobra.Command {
	var brief bool
	cmd := &cobra.Command{
		Use:   "markers",
		Short: "Print every marker crdforge understands, with its arguments",
		Long: `Markers prints the reference of every marker crdforge understands: its own
+crdforge: markers, then controller-gen's kubebuilder markers for CRDs and
deepcopy, which crdforge reads exactly as controller-gen does. The text comes
from the marker definitions themselves.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			regs, err := markers.NewRegistries()
			if err != nil {
				return err
			}
			return regs.PrintHelp(stdout, !brief)
		},
	}
	cmd.Flags().BoolVar(&brief, "brief", false, "one line per marker")
	return cmd
}
