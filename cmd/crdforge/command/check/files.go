package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/objectcheck"
)

// ReadCRDs reads the CRDs of a YAML file, or of every .yaml, .yml and .json
// file under a directory.
func ReadCRDs(path string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var files []string
	if fi.IsDir() {
		err := filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch filepath.Ext(p) {
			case ".yaml", ".yml", ".json":
				if !d.IsDir() {
					files = append(files, p)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
	} else {
		files = []string{path}
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	seen := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		crds, err := objectcheck.DecodeCRDs(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, c := range crds {
			if prev, ok := seen[c.Name]; ok {
				return nil, fmt.Errorf("%s: CRD %s is in %s too", f, c.Name, prev)
			}
			seen[c.Name] = f
		}
		out = append(out, crds...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no CustomResourceDefinition found", path)
	}
	return out, nil
}
