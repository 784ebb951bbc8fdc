package check

import (
	"fmt"
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/crdify/pkg/validations/crd/existingfieldremoval"
)

// fieldFindings reports the fields removed from versions that remain:
// crdify's existingFieldRemoval, with crdify's property paths and message,
// one finding per field so that each points at its field in the baseline;
// and, knowing every version, fieldDataLoss for a field that no version
// holds any more.
//
// A field removed from one version but still in another is not data loss:
// the API server stores objects at the storage version, and crdforge's
// conversions keep what a spoke cannot hold in the hub's stash annotation
// (runtime/lossless) and give it back on the way out. A field no version
// declares is pruned from every stored object on its next write.
func fieldFindings(old, nw *apiextensionsv1.CustomResourceDefinition) []Finding {
	oldFields, newFields := flattenAll(old), flattenAll(nw)
	remaining := map[string]bool{}
	for _, fields := range newFields {
		for p := range fields {
			remaining[p] = true
		}
	}
	var out []Finding
	for _, nv := range nw.Spec.Versions {
		ofs, ok := oldFields[nv.Name]
		if !ok {
			continue
		}
		for _, p := range slices.Sorted(maps.Keys(ofs)) {
			if newFields[nv.Name][p] {
				continue
			}
			msg := fmt.Errorf("%w : %v.%v", existingfieldremoval.ErrRemovedExistingField, nv.Name, p).Error()
			if remaining[p] {
				msg += " (other versions still hold it: stored values are kept)"
			}
			out = append(out, Finding{Rule: "existingFieldRemoval", CRD: old.Name, Version: nv.Name, Path: p, Message: msg, Baseline: true})
		}
	}
	// Every version of the baseline counts, removed ones too: a field only a
	// removed version had is lost as well. Only the topmost lost field is
	// reported.
	lost := map[string]bool{}
	for _, ov := range old.Spec.Versions {
		for _, p := range slices.Sorted(maps.Keys(oldFields[ov.Name])) {
			if remaining[p] || lost[p] {
				continue
			}
			lost[p] = true
			if lost[parent(p)] {
				continue
			}
			out = append(out, Finding{Rule: "fieldDataLoss", CRD: old.Name, Version: ov.Name, Path: p, Baseline: true,
				Message: fmt.Sprintf("no version holds %s any more: its stored values are pruned on each object's next write", p)})
		}
	}
	return out
}

// flattenAll flattens every version of c, by name.
func flattenAll(c *apiextensionsv1.CustomResourceDefinition) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, v := range c.Spec.Versions {
		out[v.Name] = flatten(v)
	}
	return out
}

// flatten lists a version's property paths as crdify writes them.
func flatten(v apiextensionsv1.CustomResourceDefinitionVersion) map[string]bool {
	out := map[string]bool{}
	if v.Schema == nil {
		return out
	}
	// crdify's walk, with its paths, but without FlattenCRDVersion's deep
	// copy of every property: only the paths are needed here.
	validations.SchemaHas(v.Schema.OpenAPIV3Schema, field.NewPath("^"), field.NewPath("^"), nil,
		func(_ *apiextensionsv1.JSONSchemaProps, _, simple *field.Path, _ []*apiextensionsv1.JSONSchemaProps) bool {
			out[simple.String()] = true
			return false
		})
	return out
}

// parent is the path of a property's parent: ^.spec.a for ^.spec.a.b and
// ^.spec.a[*].
func parent(p string) string {
	for i := len(p) - 1; i > 0; i-- {
		switch p[i] {
		case '.':
			return p[:i]
		case '[':
			return p[:i]
		}
	}
	return ""
}
