package check

import (
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/utils/ptr"

	"github.com/crdforge/crdforge/internal/objectcheck"
)

// diffCorpus is the differential test's corpus: the rule table's pairs,
// every pair of consecutive versions of the examples' committed CRDs
// through the repository's history, and mutations of each example's CRD.
func diffCorpus(t *testing.T) []diffPair {
	var out []diffPair
	for _, tt := range ruleCases {
		old, nw := tt.pair(t)
		out = append(out, diffPair{name: "rule case " + tt.name, old: old, nw: nw, cfg: tt.cfg})
	}
	out = append(out, goTreePairs(t)...)
	out = append(out, historyPairs(t)...)
	examples, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "examples", "*", "config", "crd", "bases", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var bases []*apiextensionsv1.CustomResourceDefinition
	for _, f := range examples {
		crds, err := ReadCRDs(f)
		if err != nil {
			continue // the kustomization
		}
		bases = append(bases, crds...)
	}
	if len(bases) == 0 {
		t.Fatal("no example CRDs found")
	}
	bases = append(bases, decode(t, baseCRD))
	for _, base := range bases {
		out = append(out, mutations(base)...)
	}
	return out
}

// goTreePairs are the CRD pairs of the Go-tree rule tables: the marker
// cases' and the conversion cases' baseline and working tree, generated.
func goTreePairs(t *testing.T) []diffPair {
	var out []diffPair
	for _, tree := range []struct {
		name     string
		old, new map[string]string
	}{
		{"marker cases", map[string]string{"api/v1/groupversion_info.go": fmt.Sprintf(groupInfo, "v1"), "api/v1/types.go": markerTree(true)},
			map[string]string{"api/v1/groupversion_info.go": fmt.Sprintf(groupInfo, "v1"), "api/v1/types.go": markerTree(false)}},
		{"conversion cases", convFiles(true), convFiles(false)},
	} {
		old := generateSide(t, goModule(t, "example.com/widgets", tree.old))
		nw := generateSide(t, goModule(t, "example.com/widgets", tree.new))
		if len(old.CRDs) != 1 || len(nw.CRDs) != 1 {
			t.Fatalf("%s: %d and %d CRDs", tree.name, len(old.CRDs), len(nw.CRDs))
		}
		out = append(out, diffPair{name: "Go tree " + tree.name, old: old.CRDs[0], nw: nw.CRDs[0]})
	}
	return out
}

// historyPairs pairs each example CRD with its previous committed version.
func historyPairs(t *testing.T) []diffPair {
	root := filepath.Join("..", "..", "..", "..")
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		out, err := cmd.Output()
		return string(out), err
	}
	files, err := git("log", "--format=", "--name-only", "--", "examples/*/config/crd/bases/*.yaml")
	if err != nil {
		t.Logf("no git history (%v): the corpus has no history pairs", err)
		return nil
	}
	var out []diffPair
	seen := map[string]bool{}
	for _, f := range strings.Fields(files) {
		if seen[f] || strings.HasSuffix(f, "kustomization.yaml") {
			continue
		}
		seen[f] = true
		revs, err := git("log", "--format=%h", "--reverse", "--", f)
		if err != nil {
			t.Fatal(err)
		}
		var prev *apiextensionsv1.CustomResourceDefinition
		var prevRev string
		for _, rev := range strings.Fields(revs) {
			content, err := git("show", rev+":"+f)
			if err != nil {
				prev = nil // deleted at rev
				continue
			}
			crds, err := objectcheck.DecodeCRDs([]byte(content))
			if err != nil || len(crds) != 1 {
				t.Fatalf("%s at %s: %v", f, rev, err)
			}
			if prev != nil {
				out = append(out, diffPair{name: fmt.Sprintf("%s %s..%s", f, prevRev, rev), old: prev, nw: crds[0]})
			}
			prev, prevRev = crds[0], rev
		}
	}
	return out
}

// mutations changes one thing of base at a time: each property in turn
// gets one change of a rotating list, and each version one of its own.
func mutations(base *apiextensionsv1.CustomResourceDefinition) []diffPair {
	type propChange struct {
		name string
		fn   func(p *apiextensionsv1.JSONSchemaProps)
	}
	changes := []propChange{
		{"type", func(p *apiextensionsv1.JSONSchemaProps) {
			if p.Type == "string" {
				p.Type = "integer"
			} else {
				p.Type = "string"
			}
		}},
		{"description", func(p *apiextensionsv1.JSONSchemaProps) { p.Description += " Changed." }},
		{"enum", func(p *apiextensionsv1.JSONSchemaProps) {
			p.Enum = append(p.Enum, apiextensionsv1.JSON{Raw: []byte(`"x"`)})
		}},
		{"maxLength", func(p *apiextensionsv1.JSONSchemaProps) { p.MaxLength = ptr.To[int64](3) }},
		{"required", func(p *apiextensionsv1.JSONSchemaProps) {
			for _, k := range slices.Sorted(maps.Keys(p.Properties)) {
				if !slices.Contains(p.Required, k) {
					p.Required = append(p.Required, k)
					return
				}
			}
		}},
		{"cel", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = append(p.XValidations, apiextensionsv1.ValidationRule{Rule: "self == oldSelf"})
		}},
		{"pattern", func(p *apiextensionsv1.JSONSchemaProps) { p.Pattern = "^x" }},
		{"minimum", func(p *apiextensionsv1.JSONSchemaProps) { p.Minimum = ptr.To(1.0) }},
		{"default", func(p *apiextensionsv1.JSONSchemaProps) { p.Default = &apiextensionsv1.JSON{Raw: []byte(`"d"`)} }},
		{"listType", func(p *apiextensionsv1.JSONSchemaProps) { p.XListType = ptr.To("set") }},
		{"preserve", func(p *apiextensionsv1.JSONSchemaProps) { p.XPreserveUnknownFields = nil }},
	}
	var out []diffPair
	n := 0
	for vi, v := range base.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		paths := propertyPaths(v.Schema.OpenAPIV3Schema, nil)
		// Some 10 properties of each version, spread over the schema: a
		// CronJob's pod template has thousands, and crdify takes seconds
		// over each pair of it.
		per := 10
		if len(paths) > 300 {
			per = 3
		}
		stride := max(1, len(paths)/per)
		for i := 0; i < len(paths); i += stride {
			path := paths[i]
			ch := changes[n%len(changes)]
			n++
			nw := base.DeepCopy()
			nw.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
			mutateAt(nw.Spec.Versions[vi].Schema.OpenAPIV3Schema, path, ch.fn)
			out = append(out, diffPair{name: fmt.Sprintf("%s %s %s: %s", base.Name, v.Name, strings.Join(path, "."), ch.name), old: base, nw: nw})
			if n%5 == 0 {
				// And the removal of the property.
				nw := base.DeepCopy()
				nw.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
				mutateAt(nw.Spec.Versions[vi].Schema.OpenAPIV3Schema, path[:len(path)-1], func(p *apiextensionsv1.JSONSchemaProps) {
					delete(p.Properties, path[len(path)-1])
				})
				out = append(out, diffPair{name: fmt.Sprintf("%s %s %s: removed", base.Name, v.Name, strings.Join(path, ".")), old: base, nw: nw})
			}
		}
		// Version-level changes.
		nw := base.DeepCopy()
		nw.Spec.Versions[vi].Served = !v.Served
		out = append(out, diffPair{name: fmt.Sprintf("%s %s: served flipped", base.Name, v.Name), old: base, nw: nw})
		if !v.Storage {
			nw := base.DeepCopy()
			nw.Spec.Versions = slices.Delete(nw.Spec.Versions, vi, vi+1)
			old := base.DeepCopy()
			old.Status.StoredVersions = []string{v.Name, storageVersion(base)}
			out = append(out, diffPair{name: fmt.Sprintf("%s %s: stored version dropped", base.Name, v.Name), old: old, nw: nw})
		}
	}
	nw := base.DeepCopy()
	nw.Spec.Scope = map[apiextensionsv1.ResourceScope]apiextensionsv1.ResourceScope{
		apiextensionsv1.NamespaceScoped: apiextensionsv1.ClusterScoped, apiextensionsv1.ClusterScoped: apiextensionsv1.NamespaceScoped,
	}[base.Spec.Scope]
	out = append(out, diffPair{name: base.Name + ": scope", old: base, nw: nw})
	return out
}

// propertyPaths lists the paths (property names, "items" for array
// items) below s, parents first.
func propertyPaths(s *apiextensionsv1.JSONSchemaProps, prefix []string) [][]string {
	var out [][]string
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		p := append(slices.Clone(prefix), k)
		out = append(out, p)
		child := s.Properties[k]
		out = append(out, propertyPaths(&child, p)...)
		if child.Items != nil && child.Items.Schema != nil {
			out = append(out, propertyPaths(child.Items.Schema, append(slices.Clone(p), "[]"))...)
		}
	}
	return out
}

// mutateAt applies fn to the schema at path.
func mutateAt(s *apiextensionsv1.JSONSchemaProps, path []string, fn func(*apiextensionsv1.JSONSchemaProps)) {
	switch {
	case len(path) == 0:
		fn(s)
	case path[0] == "[]":
		mutateAt(s.Items.Schema, path[1:], fn)
	default:
		c := s.Properties[path[0]]
		mutateAt(&c, path[1:], fn)
		s.Properties[path[0]] = c
	}
}
