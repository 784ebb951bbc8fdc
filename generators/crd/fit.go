package crd

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// description is one description in a CRD's schemas.
type description struct {
	// path names the schema that holds it: the version, then a property
	// path (v1.spec.template.spec.containers[*].name; {*} for a map's
	// values, /allOf[0] and the like for the rest). Paths are unique in a
	// CRD.
	path string
	// depth is how many steps path takes below the version's schema.
	depth int
	// text is the description.
	text string
}

// descriptions lists every description in c's schemas in the order
// --fit-crd-bytes leaves them out: the deepest first, since they describe
// the details (a container's probe's port), then the longest, which save
// the most, then by path, so that the order is the same on every run.
func descriptions(c *apiextensionsv1.CustomResourceDefinition) []description {
	var out []description
	eachSchema(c, func(s *apiextensionsv1.JSONSchemaProps, path string, depth int) {
		if s.Description != "" {
			out = append(out, description{path: path, depth: depth, text: s.Description})
		}
	})
	slices.SortFunc(out, func(a, b description) int {
		if c := cmp.Compare(b.depth, a.depth); c != 0 {
			return c
		}
		if c := cmp.Compare(len(b.text), len(a.text)); c != 0 {
			return c
		}
		return cmp.Compare(a.path, b.path)
	})
	return out
}

// dropDescriptions leaves out, in place, the descriptions of c's schemas
// at the paths drop holds.
func dropDescriptions(c *apiextensionsv1.CustomResourceDefinition, drop map[string]bool) {
	eachSchema(c, func(s *apiextensionsv1.JSONSchemaProps, path string, _ int) {
		if drop[path] {
			s.Description = ""
		}
	})
}

// eachSchema calls fn on every schema of every version of c, with its path
// and depth (see description), parents before children. fn may change the
// schema it is given: a property's schema, a map value, is written back.
func eachSchema(c *apiextensionsv1.CustomResourceDefinition, fn func(s *apiextensionsv1.JSONSchemaProps, path string, depth int)) {
	for i := range c.Spec.Versions {
		v := &c.Spec.Versions[i]
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			walkSchema(v.Schema.OpenAPIV3Schema, v.Name, 0, fn)
		}
	}
}

func walkSchema(s *apiextensionsv1.JSONSchemaProps, path string, depth int, fn func(*apiextensionsv1.JSONSchemaProps, string, int)) {
	if s == nil {
		return
	}
	fn(s, path, depth)
	for name, prop := range s.Properties {
		walkSchema(&prop, path+propertyStep(name), depth+1, fn)
		s.Properties[name] = prop
	}
	if s.Items != nil {
		walkSchema(s.Items.Schema, path+"[*]", depth+1, fn)
		for i := range s.Items.JSONSchemas {
			walkSchema(&s.Items.JSONSchemas[i], path+"["+strconv.Itoa(i)+"]", depth+1, fn)
		}
	}
	if s.AdditionalProperties != nil {
		walkSchema(s.AdditionalProperties.Schema, path+"{*}", depth+1, fn)
	}
	for _, sub := range []struct {
		name string
		list []apiextensionsv1.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		for i := range sub.list {
			walkSchema(&sub.list[i], path+"/"+sub.name+"["+strconv.Itoa(i)+"]", depth+1, fn)
		}
	}
	walkSchema(s.Not, path+"/not", depth+1, fn)
}

// propertyStep is the step of a path to the property name: .name, or
// ["name"] when the name holds a character that paths use, so that paths
// stay unique.
func propertyStep(name string) string {
	if strings.ContainsAny(name, ".[]{}/\"") {
		return "[" + strconv.Quote(name) + "]"
	}
	return "." + name
}

// descriptionKey is what the key of a description takes in the JSON
// kubectl writes, at least: "description":"" around the text, which takes
// at least its own length (escaping only adds to it).
const descriptionKey = len(`"description":""`)

// fitResult is what fitting a CRD into a number of bytes came to.
type fitResult struct {
	// size is what the CRD measures then, untrimmed what it measured before.
	size, untrimmed int
	// trimmed is how many descriptions were left out.
	trimmed int
	// fits says size is within the bytes asked for; when not, every
	// description is left out.
	fits bool
}

// fit leaves out the fewest of c's descriptions, in the order descriptions
// lists them, that bring c, measured by measure, within limit bytes, and
// changes c to match. Leaving out a description never makes a CRD larger,
// so the fewest is found by bisection, each step measuring a copy of c.
func fit(c *apiextensionsv1.CustomResourceDefinition, limit int, measure func(*apiextensionsv1.CustomResourceDefinition) (int, error)) (fitResult, error) {
	size, err := measure(c)
	if err != nil || size <= limit {
		return fitResult{size: size, untrimmed: size, fits: true}, err
	}
	all := descriptions(c)
	probe := func(n int) (int, error) {
		trial := c.DeepCopy()
		dropDescriptions(trial, firstPaths(all, n))
		return measure(trial)
	}
	// Each description saves at least its text and its key: enough of
	// them to save the excess surely fits, which bounds the search.
	hi, saved := len(all), 0
	for i, d := range all {
		if saved += len(d.text) + descriptionKey; saved >= size-limit {
			hi = i + 1
			break
		}
	}
	best, err := probe(hi)
	if err != nil {
		return fitResult{}, err
	}
	if best > limit && hi < len(all) {
		hi = len(all) // the bound is only an estimate: never trust it alone
		if best, err = probe(hi); err != nil {
			return fitResult{}, err
		}
	}
	res := fitResult{size: best, untrimmed: size, trimmed: hi, fits: best <= limit}
	for lo := 0; res.fits && hi-lo > 1; { // probe(lo) does not fit; probe(hi) does
		mid := lo + (hi-lo)/2
		n, err := probe(mid)
		if err != nil {
			return fitResult{}, err
		}
		if n <= limit {
			hi, res.size, res.trimmed = mid, n, mid
		} else {
			lo = mid
		}
	}
	dropDescriptions(c, firstPaths(all, res.trimmed))
	return res, nil
}

// firstPaths is the set of the paths of the first n of list.
func firstPaths(list []description, n int) map[string]bool {
	out := make(map[string]bool, n)
	for _, d := range list[:n] {
		out[d.path] = true
	}
	return out
}
