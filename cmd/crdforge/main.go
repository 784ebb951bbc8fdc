// Command crdforge generates multi-version CRDs, deepcopy methods and, as it
// grows, conversions and their webhook from marker-annotated Go types.
package main

import (
	"os"

	"github.com/crdforge/crdforge/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
