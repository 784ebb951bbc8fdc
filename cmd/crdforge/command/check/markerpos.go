package check

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
)

// A finding about a part of a property that a marker wrote (an enum, a
// bound, a default, a CEL rule, a list type, required) points at that
// marker: on the property's field, as an items: marker on the list's field,
// or on the property's type. Which marker wrote what is read off the
// markers themselves: each candidate is applied, through controller-tools'
// own definition, to the property's schema with the part cleared, and the
// one that writes the part back is the one. No table of marker names to
// keep in step with controller-tools.

// markerProbe says which part of a property a finding is about.
type markerProbe struct {
	// keys are the schema keywords (JSON names) the finding compares.
	keys []string
	// rule is the x-kubernetes-validations rule the finding is about.
	rule string
	// names are markers that decide the finding without writing the
	// schema (+required makes the parent's required list).
	names []string
	// child is the property, under the finding's, that the marker is on
	// (required: the field made required).
	child string
}

func (p markerProbe) empty() bool { return len(p.keys) == 0 && p.rule == "" && len(p.names) == 0 }

// requiredMarkers make a field required: they shape the parent's schema, so
// controller-tools reads them by name.
var requiredMarkers = []string{"required", "kubebuilder:validation:Required", "k8s:required"}

// ownRules are the schema keywords each rule about a property compares.
var ownRules = map[string][]string{
	"enum":          {"enum"},
	"default":       {"default"},
	"maximum":       {"maximum", "exclusiveMaximum"},
	"minimum":       {"minimum", "exclusiveMinimum"},
	"maxItems":      {"maxItems"},
	"minItems":      {"minItems"},
	"maxLength":     {"maxLength"},
	"minLength":     {"minLength"},
	"maxProperties": {"maxProperties"},
	"minProperties": {"minProperties"},
	"type":          {"type", "x-kubernetes-int-or-string"},
	"listType":      {"x-kubernetes-list-type"},
	"listMapKeys":   {"x-kubernetes-list-map-keys"},
	"mapType":       {"x-kubernetes-map-type"},
}

// classified are the keywords crdify's and crdforge's rules read: what
// "unhandled" reports is a difference in any other.
var classified = []string{"description", "required", "x-kubernetes-validations", "x-kubernetes-preserve-unknown-fields",
	"properties", "items", "additionalProperties"}

// probeFor says which marker finding f, on old and nw, comes from; empty
// when no marker does (a description, a removal).
func probeFor(f Finding, old, nw *apiextensionsv1.CustomResourceDefinition) markerProbe {
	if f.Path == "" || f.Baseline {
		return markerProbe{}
	}
	if keys, ok := ownRules[f.Rule]; ok {
		p := markerProbe{keys: keys}
		if f.Rule == "enum" {
			p.names = []string{"k8s:enum"}
		}
		return p
	}
	a, b := propertyPair(f, old, nw)
	switch f.Rule {
	case "celRuleAdded", "celRuleRatcheting", "immutabilityAdded":
		if a == nil || b == nil {
			return markerProbe{}
		}
		for _, r := range b.XValidations {
			if hasRule(a.XValidations, r.Rule) {
				continue
			}
			if kind := classifyRule(r); ruleNames[kind] == f.Rule && addedRuleMessage(kind, r) == f.Message {
				return markerProbe{rule: r.Rule}
			}
		}
	case "apiServerUpdate":
		if f.celRule != "" {
			return markerProbe{rule: f.celRule}
		}
	case "required":
		if a == nil || b == nil {
			return markerProbe{}
		}
		for _, name := range b.Required {
			if !slices.Contains(a.Required, name) {
				return markerProbe{names: requiredMarkers, child: name}
			}
		}
	case "unhandled":
		if a == nil || b == nil {
			return markerProbe{}
		}
		ja, jb := schemaKeys(a), schemaKeys(b)
		all := map[string]bool{}
		for k := range ja {
			all[k] = true
		}
		for k := range jb {
			all[k] = true
		}
		for _, ks := range ownRules {
			for _, k := range ks {
				delete(all, k)
			}
		}
		for _, k := range classified {
			delete(all, k)
		}
		var keys []string
		for _, k := range slices.Sorted(maps.Keys(all)) {
			if string(ja[k]) != string(jb[k]) {
				keys = append(keys, k)
			}
		}
		return markerProbe{keys: keys}
	}
	return markerProbe{}
}

// propertyPair returns the property a finding is about in the baseline and
// in the working tree; for a difference between two served versions
// ("v1beta1 -> v1"), in the two versions of the working tree.
func propertyPair(f Finding, old, nw *apiextensionsv1.CustomResourceDefinition) (a, b *apiextensionsv1.JSONSchemaProps) {
	if from, to, ok := cutPair(f.Version); ok {
		return schemaAt(nw, from, f.Path), schemaAt(nw, to, f.Path)
	}
	return schemaAt(old, f.Version, f.Path), schemaAt(nw, f.Version, f.Path)
}

// schemaAt returns the property at a crdify path (^.spec.ports[*].name) of
// a CRD's version, or nil.
func schemaAt(c *apiextensionsv1.CustomResourceDefinition, version, path string) *apiextensionsv1.JSONSchemaProps {
	if c == nil {
		return nil
	}
	i := slices.IndexFunc(c.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool { return v.Name == version })
	if i < 0 || c.Spec.Versions[i].Schema == nil || c.Spec.Versions[i].Schema.OpenAPIV3Schema == nil {
		return nil
	}
	s := c.Spec.Versions[i].Schema.OpenAPIV3Schema
	steps, ok := splitPath(path)
	if !ok || !strings.HasPrefix(path, "^") {
		return nil
	}
	for _, step := range steps {
		switch {
		case !step.items:
			child, ok := s.Properties[step.name]
			if !ok {
				return nil
			}
			s = &child
		case s.Items != nil && s.Items.Schema != nil:
			s = s.Items.Schema
		case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
			s = s.AdditionalProperties.Schema
		default:
			return nil
		}
	}
	return s
}

// schemaKeys is a property's keywords as JSON, its children's left out.
func schemaKeys(s *apiextensionsv1.JSONSchemaProps) map[string]json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}

// withoutKeys returns a copy of s without the keywords keys, its children
// (properties, items, additional properties) kept only as far as a marker
// needs them: items without their own children.
func withoutKeys(s *apiextensionsv1.JSONSchemaProps, keys []string, items bool) *apiextensionsv1.JSONSchemaProps {
	c := s.DeepCopy()
	c.Properties, c.AdditionalProperties = nil, nil
	target := c
	if items {
		if c.Items == nil || c.Items.Schema == nil {
			return c
		}
		target = c.Items.Schema
		target.Properties, target.Items, target.AdditionalProperties = nil, nil, nil
	} else {
		c.Items = nil
	}
	m := schemaKeys(target)
	for _, k := range keys {
		delete(m, k)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return c
	}
	cleared := &apiextensionsv1.JSONSchemaProps{}
	if err := json.Unmarshal(b, cleared); err != nil {
		return c
	}
	*target = *cleared
	return c
}

// found reports whether a schema a marker was applied to holds what p
// looks for.
func (p markerProbe) found(s *apiextensionsv1.JSONSchemaProps) bool {
	if p.rule != "" {
		return hasRule(s.XValidations, p.rule)
	}
	m := schemaKeys(s)
	return slices.ContainsFunc(p.keys, func(k string) bool { _, ok := m[k]; return ok })
}

// markerSite is a declaration whose markers may have written a property:
// the property's field, the list field whose items it is, or its type.
type markerSite struct {
	pos   token.Pos // the field's or type's name
	items bool      // the markers write the property through items: markers
	// path is the property the markers apply to: the finding's, or for
	// items the list's.
	path string
}

// markerIndex holds the marker comments of the model's root packages by
// the position of the field or type they describe.
type markerIndex struct {
	comments map[token.Pos][]markers.Comment
	specs    map[token.Pos]*ast.TypeSpec
	pkgs     map[token.Pos]*loader.Package
}

func newMarkerIndex(m *model.Model) *markerIndex {
	ix := &markerIndex{comments: map[token.Pos][]markers.Comment{}, specs: map[token.Pos]*ast.TypeSpec{}, pkgs: map[token.Pos]*loader.Package{}}
	if m == nil {
		return ix
	}
	for pkg, set := range m.Markers {
		for node, cs := range set.Comments {
			var at []token.Pos
			switch n := node.(type) {
			case *ast.Field:
				for _, name := range n.Names {
					at = append(at, name.Pos())
				}
				if len(n.Names) == 0 {
					at = append(at, n.Type.Pos())
				}
			case *ast.TypeSpec:
				at = append(at, n.Name.Pos())
				ix.specs[n.Name.Pos()] = n
			}
			for _, pos := range at {
				ix.comments[pos] = cs
				ix.pkgs[pos] = pkg
			}
		}
	}
	return ix
}

// locateMarker returns the position of the marker that wrote what probe
// looks for into the property at path of the CRD's version: on its field
// first, then on its type. nw is the working tree's CRD, whose schema the
// markers are tried against.
func (l ModelLocator) locateMarker(nw *apiextensionsv1.CustomResourceDefinition, version, path string, probe markerProbe) (token.Position, bool) {
	if probe.child != "" {
		path += "." + probe.child
	}
	k := l.kind(nw.Name)
	if k == nil {
		return token.Position{}, false
	}
	ver := kindVersion(k, version)
	if ver == nil {
		return token.Position{}, false
	}
	ix := l.markers
	if ix == nil {
		ix = newMarkerIndex(l.Model)
	}
	for _, site := range markerSites(ver.Type, path) {
		s := schemaAt(nw, version, site.path)
		for _, c := range ix.comments[site.pos] {
			if slices.Contains(probe.names, c.Name()) {
				return l.position(c.Pos)
			}
			if s == nil || (len(probe.keys) == 0 && probe.rule == "") {
				continue
			}
			base := withoutKeys(s, probe.keys, site.items)
			if probe.rule != "" {
				target := base
				if site.items && base.Items != nil && base.Items.Schema != nil {
					target = base.Items.Schema
				}
				target.XValidations = nil
			}
			if !markers.ApplyToSchema(l.Model.Collector.Registry, ix.pkgs[site.pos], ix.specs[site.pos], c, base) {
				continue
			}
			target := base
			if site.items {
				if base.Items == nil || base.Items.Schema == nil {
					continue
				}
				target = base.Items.Schema
			}
			if probe.found(target) {
				return l.position(c.Pos)
			}
		}
	}
	return token.Position{}, false
}

// markerSites lists, in the order they are tried, the declarations whose
// markers may have written the property at path of root type t: its field,
// the list field whose items it is (+kubebuilder:validation:items:...) and
// that list's type, and the property's own named type.
func markerSites(t types.Type, path string) []markerSite {
	walk, ok := splitPath(path)
	if !ok {
		return nil
	}
	var field *types.Var
	fieldPath := "^"
	steps := 0 // [*] steps since the last field
	walked := "^"
	for _, step := range walk {
		walked += step.String()
		if step.items {
			steps++
			if t, ok = elem(t); !ok {
				return nil
			}
			continue
		}
		f := model.FieldByJSONName(t, step.name)
		if f == nil {
			return nil
		}
		field, fieldPath, t, steps = f, walked, f.Type(), 0
	}
	var out []markerSite
	switch {
	case field != nil && steps == 0:
		out = append(out, markerSite{pos: field.Pos(), path: path})
	case field != nil && steps == 1:
		out = append(out, markerSite{pos: field.Pos(), items: true, path: fieldPath})
		if n, ok := model.Deref(field.Type()).(*types.Named); ok {
			out = append(out, markerSite{pos: n.Obj().Pos(), items: true, path: fieldPath})
		}
	}
	if n, ok := model.Deref(t).(*types.Named); ok {
		out = append(out, markerSite{pos: n.Obj().Pos(), path: path})
	}
	return out
}
