// Command crdforge runs crdforge at the version this module requires, so
// that `go run ./cmd/crdforge generate ./...` (and the //go:generate line)
// needs nothing installed. Projects outside this repository get the same
// with `go get -tool github.com/crdforge/crdforge/cmd/crdforge` and
// `go tool crdforge`.
package main

import (
	"os"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
