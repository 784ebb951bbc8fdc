// Package jsonschema writes a JSON Schema of every served version of every
// kind, from the openAPIV3Schema of the CRD the crd generator writes, for the
// validators that check manifests without a cluster: kubeconform, and
// editors through the YAML language server.
//
// The files are laid out as kubeconform's -schema-location template reads
// them, <group>/<kind>_<version>.json with the kind in lower case (its
// {{.Group}}, {{.ResourceKind}} and {{.ResourceAPIVersion}}, the layout of
// the community CRDs-catalog), so that
//
//	kubeconform -schema-location default \
//	  -schema-location 'DIR/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' ...
//
// finds them.
package jsonschema

import (
	"fmt"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Generator writes the schemas into Dir.
type Generator struct {
	// Dir is where the schemas go, relative to the model's directory or
	// absolute. Empty writes nothing: a run writes schemas only when asked
	// (pipeline.Config.JSONSchemaDir).
	Dir string
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "jsonschema" }

// Needs is nothing beyond the kinds' CRDs: a schema has no conversion in it.
func (Generator) Needs() model.Options { return model.Options{} }

// Owns is the schemas in Dir's group directories, so that a version's
// schema goes when the version does; only files that start with crdforge's
// header are ever deleted.
func (g Generator) Owns(*model.Model) []string {
	if g.Dir == "" {
		return nil
	}
	return []string{filepath.Join(g.Dir, "*", "*_*.json")}
}

// Generate returns one schema per kind and served version, from the CRD as
// the crd generator writes it (without the descriptions its markers omit).
// A version no longer served gets none: the API server refuses its objects,
// and a validator that finds no schema says so.
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	if g.Dir == "" {
		return nil
	}
	kinds := map[string]*model.Kind{}
	for _, grp := range m.Groups {
		for _, k := range grp.Kinds {
			kinds[k.CRD.Name] = k
		}
	}
	var files []output.File
	for _, c := range (crd.Generator{}).CRDs(m, diags, false) {
		for i := range c.Spec.Versions {
			v := &c.Spec.Versions[i]
			if !v.Served || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			content, err := Marshal(c, v)
			if err != nil {
				diags.Errorf(kinds[c.Name].Pos(), "the JSON Schema of %s %s: %v", c.Spec.Names.Kind, v.Name, err)
				continue
			}
			files = append(files, output.File{Path: filepath.Join(g.Dir, Path(c, v)), Content: content})
		}
	}
	return files
}

// Path is where version v of c's schema goes, relative to the schemas'
// directory: <group>/<kind>_<version>.json, the kind in lower case as
// kubeconform's {{.ResourceKind}} is.
func Path(c *apiextensionsv1.CustomResourceDefinition, v *apiextensionsv1.CustomResourceDefinitionVersion) string {
	return filepath.Join(c.Spec.Group, fmt.Sprintf("%s_%s.json", strings.ToLower(c.Spec.Names.Kind), v.Name))
}
