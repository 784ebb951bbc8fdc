// Command crdforge turns marker-annotated Go types, one package per API
// version, into CRDs, deepcopy methods, hub-and-spoke conversions with their
// round-trip tests, and a conversion webhook with its deployment; check,
// new-version, migrate and status take a version through the rest of its
// life. Everything it is made of is under internal/: the binary is the
// module's only public surface.
package main

import (
	"os"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
