// Command dumpschemas prints the names of the schemas package schemas
// describes: it imports a package whose every file is generated.
package main

import (
	"fmt"

	"github.com/crdforge/crdforge/testdata/onlygenerated/schemas"
)

func main() {
	for _, name := range schemas.Names() {
		fmt.Println(name)
	}
}
