package validate

import (
	"fmt"

	"github.com/crdforge/crdforge/cmd/crdforge/command/check"
	"github.com/crdforge/crdforge/internal/objectcheck"
)

// ReadCatalog reads the CRDs of every path, a file or a directory (every
// .yaml, .yml and .json file under it), as crdforge check reads a baseline.
func ReadCatalog(paths []string) (*objectcheck.Catalog, error) {
	c := objectcheck.NewCatalog()
	for _, p := range paths {
		crds, err := check.ReadCRDs(p)
		if err != nil {
			return nil, err
		}
		for _, crd := range crds {
			if err := c.Add(crd); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
	}
	return c, nil
}
