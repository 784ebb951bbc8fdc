package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators"
	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestCRDsMatchControllerGen is a differential test of controller-gen's
// options: for each case that sets them through its flags file, it runs
// controller-tools' own crd generator (the version in go.mod, as a library,
// as controller-gen's main runs it) with the same options, and requires
// crdforge's CRDs to equal its output but for what crdforge does on purpose:
// versions in priority order, the conversion stanza, cert-manager's
// annotation.
func TestCRDsMatchControllerGen(t *testing.T) {
	for _, name := range []string{
		"dangerous", "unexported", "maxdesclen", "embeddedmeta", "header",
		// deprecated versions with and without a warning, an unserved one
		"deprecation",
		// oneOf-style, CEL, enum, externalDocs, resource, printer-column,
		// subresource, default, format, pattern, list-type, embedded,
		// preserve-unknown-fields and nullable markers
		"validation",
		// several kinds in one group, two of them in two versions
		"multikind",
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			cfg := caseConfig(t, dir) // from its flags file or .crdforge.yaml

			cfg.Only = []string{"crd"}
			res, err := generators.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diags.Items() {
				t.Fatalf("crdforge: %s", d.Format(dir))
			}
			ours := map[string]*apiextensionsv1.CustomResourceDefinition{}
			for _, f := range res.Files {
				ours[filepath.Base(f.Path)] = decodeCRD(t, f.Content)
			}

			omit := true
			gen := genall.Generator(crd.Generator{
				AllowDangerousTypes:        &cfg.AllowDangerousTypes,
				IgnoreUnexportedFields:     &cfg.IgnoreUnexportedFields,
				MaxDescLen:                 cfg.MaxDescLen,
				GenerateEmbeddedObjectMeta: &cfg.GenerateEmbeddedObjectMeta,
				OmitToolVersion:            &omit,
			})
			rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{Dir: dir}, "./...")
			if err != nil {
				t.Fatal(err)
			}
			out := &memoryRule{files: map[string]*bytes.Buffer{}}
			rt.OutputRules = genall.OutputRules{Default: out}
			if failed := rt.Run(); failed {
				t.Fatal("controller-gen reported errors")
			}

			if got, want := slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(out.files)); !slices.Equal(got, want) {
				t.Fatalf("crdforge wrote %v, controller-gen %v", got, want)
			}
			for file, buf := range out.files {
				theirs := normalize(decodeCRD(t, buf.Bytes()))
				mine := normalize(ours[file])
				if mine != theirs {
					t.Errorf("%s differs from controller-gen's:\n%s", file, firstDiff(theirs, mine))
				}
			}
		})
	}
}

// decodeCRD reads the one CRD of a YAML file, skipping the empty document
// that crdforge's header comment makes.
func decodeCRD(t *testing.T, b []byte) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	dec := kyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		var c apiextensionsv1.CustomResourceDefinition
		if err := dec.Decode(&c); err != nil {
			if errors.Is(err, io.EOF) {
				t.Fatalf("no CRD in:\n%s", b)
			}
			t.Fatal(err)
		}
		if c.Kind != "" {
			return &c
		}
	}
}

// normalize drops what crdforge changes on purpose, and renders the rest
// as indented JSON for a readable difference.
func normalize(c *apiextensionsv1.CustomResourceDefinition) string {
	c = c.DeepCopy()
	c.Spec.Conversion = nil
	delete(c.Annotations, "cert-manager.io/inject-ca-from")
	if len(c.Annotations) == 0 {
		c.Annotations = nil
	}
	slices.SortFunc(c.Spec.Versions, func(a, b apiextensionsv1.CustomResourceDefinitionVersion) int {
		return strings.Compare(a.Name, b.Name)
	})
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b)
}

// memoryRule is a genall.OutputRule that keeps controller-gen's files in
// memory.
type memoryRule struct{ files map[string]*bytes.Buffer }

func (r *memoryRule) Open(_ *loader.Package, itemPath string) (io.WriteCloser, error) {
	buf := &bytes.Buffer{}
	r.files[itemPath] = buf
	return nopWriteCloser{buf}, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
