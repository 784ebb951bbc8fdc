// Package controllergen runs controller-tools' CRD, RBAC and webhook
// generators the way controller-gen's `crd`, `rbac` and `webhook` commands
// do, in memory, and puts its output and crdforge's side by side: the
// differential tests against controller-gen (golden cases, a kubebuilder
// project) use it.
package controllergen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/rbac"
	"sigs.k8s.io/controller-tools/pkg/webhook"
)

// CRDs runs gen over paths of dir (./... when none), as `controller-gen crd
// paths=./...` run there would, and returns the files it writes by name. The
// generator's tool version stamp is left out: it names a build, not a schema.
func CRDs(dir string, gen crd.Generator, paths ...string) (map[string][]byte, error) {
	omit := true
	gen.OmitToolVersion = &omit
	g := genall.Generator(gen)
	if len(paths) == 0 {
		paths = []string{"./..."}
	}
	rt, err := genall.Generators{&g}.ForRootsWithConfig(&packages.Config{Dir: dir}, paths...)
	if err != nil {
		return nil, err
	}
	out := &memoryRule{files: map[string]*bytes.Buffer{}}
	rt.OutputRules = genall.OutputRules{Default: out}
	if failed := rt.Run(); failed {
		return nil, fmt.Errorf("controller-gen reported errors in %s", dir)
	}
	files := make(map[string][]byte, len(out.files))
	for name, buf := range out.files {
		files[name] = buf.Bytes()
	}
	return files, nil
}

// Manifests runs controller-gen's rbac and webhook generators over paths of
// dir (./... when none) in one load, as kubebuilder's Makefile line
// `controller-gen rbac:roleName=<roleName> webhook paths="./..."` run there
// would, and returns the files they write by their path below dir:
// config/rbac/role.yaml and config/webhook/manifests.yaml (controller-gen's
// directory per generator), each only when its markers exist.
func Manifests(dir, roleName string, paths ...string) (map[string][]byte, error) {
	roles := genall.Generator(rbac.Generator{RoleName: roleName})
	admission := genall.Generator(webhook.Generator{})
	if len(paths) == 0 {
		paths = []string{"./..."}
	}
	rt, err := genall.Generators{&roles, &admission}.ForRootsWithConfig(&packages.Config{Dir: dir}, paths...)
	if err != nil {
		return nil, err
	}
	rolesOut := &memoryRule{files: map[string]*bytes.Buffer{}}
	admissionOut := &memoryRule{files: map[string]*bytes.Buffer{}}
	rt.OutputRules = genall.OutputRules{ByGenerator: map[*genall.Generator]genall.OutputRule{&roles: rolesOut, &admission: admissionOut}}
	if failed := rt.Run(); failed {
		return nil, fmt.Errorf("controller-gen reported errors in %s", dir)
	}
	files := map[string][]byte{}
	for subdir, out := range map[string]*memoryRule{"config/rbac/": rolesOut, "config/webhook/": admissionOut} {
		for name, buf := range out.files {
			files[subdir+name] = buf.Bytes()
		}
	}
	return files, nil
}

// DecodeCRD reads the one CRD of a YAML file, skipping empty documents (the
// one crdforge's header comment makes).
func DecodeCRD(b []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	dec := kyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		var c apiextensionsv1.CustomResourceDefinition
		if err := dec.Decode(&c); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, fmt.Errorf("no CRD in:\n%s", b)
			}
			return nil, err
		}
		if c.Kind != "" {
			return &c, nil
		}
	}
}

// Header is what a CRD file holds before its first "---" line: the header
// file's text (crd:headerFile) in controller-gen's, that and crdforge's
// own header line in crdforge's.
func Header(b []byte) string {
	if bytes.HasPrefix(b, []byte("---\n")) {
		return ""
	}
	if i := bytes.Index(b, []byte("\n---\n")); i >= 0 {
		return string(b[:i+1])
	}
	return string(b)
}

// Normalize drops what crdforge changes on purpose (the conversion stanza,
// cert-manager's annotation, versions in priority order rather than by
// name) and renders the rest as indented JSON, for a readable difference.
func Normalize(c *apiextensionsv1.CustomResourceDefinition) string {
	c = c.DeepCopy()
	c.Spec.Conversion = nil
	delete(c.Annotations, "cert-manager.io/inject-ca-from")
	if len(c.Annotations) == 0 {
		c.Annotations = nil
	}
	slices.SortFunc(c.Spec.Versions, func(a, b apiextensionsv1.CustomResourceDefinitionVersion) int {
		return strings.Compare(a.Name, b.Name)
	})
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "unprintable CRD: " + err.Error()
	}
	return string(b)
}

// memoryRule is a genall.OutputRule that keeps the files in memory.
type memoryRule struct{ files map[string]*bytes.Buffer }

func (r *memoryRule) Open(_ *loader.Package, itemPath string) (io.WriteCloser, error) {
	buf := &bytes.Buffer{}
	r.files[itemPath] = buf
	return nopWriteCloser{buf}, nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
