// Package deprecation writes, beside each CRD whose fields carry
// +crdforge:deprecated, a ValidatingAdmissionPolicy and its binding that
// make the API server warn the clients that set those fields: no webhook,
// nothing refused (admissionregistration.k8s.io/v1, Kubernetes 1.30+).
package deprecation

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	ctcrd "sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/yaml"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Suffix ends the name of a kind's policy file, which starts with its CRD
// file's name: <group>_<plural>.deprecation.yaml sorts next to
// <group>_<plural>.yaml, in the same directory, so that whatever applies
// the CRDs (kubectl apply -f on the directory, its kustomization) applies
// their policies with them. Readers of CRDs skip it: envtest, crdforge
// check --against-files and kubectl take only CustomResourceDefinitions
// as CRDs.
const Suffix = ".deprecation.yaml"

// Generator writes the policy files into Dir, the CRDs' directory.
type Generator struct {
	// Dir is where the CRD generator writes CRDs, relative to the model's
	// directory or absolute.
	Dir string
	// Header, when set, starts every file, as it starts the CRD files
	// (--crd-header-file).
	Header string
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "deprecation" }

// Needs is nothing beyond the kinds: their deprecated fields are resolved
// with their schemas.
func (Generator) Needs() model.Options { return model.Options{} }

// CheckFilter is the CRD generator's: the policies read only what the
// schemas reach.
func (Generator) CheckFilter() loader.NodeFilter { return ctcrd.Generator{}.CheckFilter() }

// Owns is the policy files in Dir.
func (g Generator) Owns(*model.Model) []string { return []string{filepath.Join(g.Dir, "*_*"+Suffix)} }

// File is the name of k's policy file in the CRD directory, or "" when k
// deprecates no field (or has no CRD).
func File(k *model.Kind) string {
	if len(k.DeprecatedFields) == 0 || k.Storage == nil || k.CRD == nil {
		return ""
	}
	return fmt.Sprintf("%s_%s%s", k.CRD.Spec.Group, k.CRD.Spec.Names.Plural, Suffix)
}

// Files are the names of the policy files, in the model's order.
func Files(m *model.Model) []string {
	var out []string
	for _, g := range m.Groups {
		for _, k := range g.Kinds {
			if f := File(k); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// Generate returns one file per kind that deprecates fields: its policy
// and the policy's binding, two YAML documents.
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	var files []output.File
	for _, grp := range m.Groups {
		for _, k := range grp.Kinds {
			name := File(k)
			if name == "" {
				continue
			}
			content, err := render(k)
			if err != nil {
				diags.Errorf(k.DeprecatedFields[0].Pos, "the deprecation policy of %s: %v", k.CRD.Name, err)
				continue
			}
			files = append(files, output.File{Path: filepath.Join(g.Dir, name), Content: crd.WithHeader(g.Header, content)})
		}
	}
	return files
}

// render prints k's policy and binding after crdforge's header and a line
// that says what they are for.
func render(k *model.Kind) ([]byte, error) {
	policy, binding, err := Build(k)
	if err != nil {
		return nil, err
	}
	out := []byte(output.YAMLHeader + "\n" +
		fmt.Sprintf("# Warns the clients that set deprecated fields of %s (+crdforge:deprecated);\n", k.CRD.Name) +
		"# ValidatingAdmissionPolicy is admissionregistration.k8s.io/v1, Kubernetes 1.30 and later.\n")
	for _, obj := range []any{policy, binding} {
		b, err := marshal(obj)
		if err != nil {
			return nil, err
		}
		out = append(out, "---\n"...)
		out = append(out, b...)
	}
	return out, nil
}

// marshal prints an object as YAML, keys sorted, without the empty
// creationTimestamp and status that its Go type always has.
func marshal(obj any) ([]byte, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m, "status")
	if meta, ok := m["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
	}
	return yaml.Marshal(m)
}
