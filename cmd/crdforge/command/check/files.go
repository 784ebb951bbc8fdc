package check

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// DecodeCRDs returns the CustomResourceDefinitions among the YAML (or JSON)
// documents of b; other kinds (a kustomization, a Namespace) are skipped.
func DecodeCRDs(b []byte) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	dec := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
	var out []*apiextensionsv1.CustomResourceDefinition
	for {
		doc, err := dec.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		var meta struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			return nil, err
		}
		if meta.Kind != "CustomResourceDefinition" || !strings.HasPrefix(meta.APIVersion, apiextensionsv1.GroupName+"/") {
			continue
		}
		if meta.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("%s CustomResourceDefinition: only %s is supported", meta.APIVersion, apiextensionsv1.SchemeGroupVersion)
		}
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(doc, c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
}

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
		crds, err := DecodeCRDs(b)
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
