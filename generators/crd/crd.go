// Package crd prints one apiextensions.k8s.io/v1 CustomResourceDefinition per
// kind: controller-tools' schemas, versions in Kubernetes priority order, and
// the conversion stanza. Before anything is written, each CRD goes through
// what the API server does on create: its registry strategy's preparation
// (package crdstrategy) and its own validation.
package crd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	ctcrd "sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/crdyaml"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/parallel"
	"github.com/crdforge/crdforge/internal/passrecord"
	"github.com/crdforge/crdforge/markers"
)

// InjectCAAnnotation asks cert-manager's CA injector to fill in the CRD's
// conversion caBundle from the named Certificate.
const InjectCAAnnotation = "cert-manager.io/inject-ca-from"

// Generator prints CRDs into Dir.
type Generator struct {
	// Dir is where CRD files go, relative to the model's directory or
	// absolute.
	Dir string
	// Header, when set, starts every CRD file, as controller-gen's
	// crd:headerFile does: as it is (YAML comments), then crdforge's own
	// header line and the document.
	Header string
	// ValidationRecord, when set, records the CRDs that passed the API server's
	// validation in earlier runs: a CRD printed the same is not validated
	// again (see package passrecord).
	ValidationRecord *passrecord.Record
	// FitBytes, when positive, is the most bytes a CRD may take applied
	// client-side (see ClientSideApplyLimit): descriptions are left out, the
	// deepest and longest first, until it fits (crdforge generate
	// --fit-crd-bytes).
	FitBytes int
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "crd" }

// CheckFilter is controller-gen's crd generator's: a schema reaches only
// fields with a JSON tag and no interface, so the type checker need only
// check the imports those refer to before the roots.
func (Generator) CheckFilter() loader.NodeFilter { return ctcrd.Generator{}.CheckFilter() }

// Needs is each kind's strategy, which the CRD's conversion stanza prints
// (a kind whose conversion needs functions nobody has written yet stays
// None; see generators/plan's settleEntryPoints).
func (Generator) Needs() model.Options { return model.Options{Strategies: true} }

// Generate returns one file per kind, named as controller-gen names it.
// Kinds are validated and printed in parallel; the result keeps the model's
// order.
func (g Generator) Generate(m *model.Model, diags *diag.List) []output.File {
	v, omit := newValidator(m, g.ValidationRecord), newOmissions(m)
	return eachKind(m, diags, func(k *model.Kind, diags *diag.List) (output.File, bool) {
		return g.generate(v, omit, k, k.Conversion, diags)
	})
}

// CRDs returns each kind's CRD as Generate prints it (but for what
// FitBytes would leave out), unprinted, in the
// model's order, for a caller that compares CRDs rather than writes them
// (crdforge check): printing and reading back YAML is most of a CRD's
// cost after validation. With validate, each CRD also goes through the API
// server's validation, as Generate's do, its problems reported to diags,
// unless Passed records the CRD printed the same as passed: that costs a
// print, a fraction of a validation. Validation defaults what it validates
// in place, so it gets a copy: the CRD returned is the one Generate prints,
// validated or not.
func (g Generator) CRDs(m *model.Model, diags *diag.List, validate bool) []*apiextensionsv1.CustomResourceDefinition {
	var v *validator
	if validate {
		v = newValidator(m, g.ValidationRecord)
	}
	omit := newOmissions(m)
	return eachKind(m, diags, func(k *model.Kind, diags *diag.List) (*apiextensionsv1.CustomResourceDefinition, bool) {
		if k.Storage == nil {
			return nil, false // the model already reported it
		}
		c := Build(k)
		omit.apply(k, c)
		if v != nil && !k.SchemaErrors {
			v.validateCopy(k, c, diags)
		}
		return c, true
	})
}

// eachKind runs fn over the model's kinds in parallel, and returns what it
// made, in the model's order, and its diagnostics.
func eachKind[T any](m *model.Model, diags *diag.List, fn func(k *model.Kind, diags *diag.List) (T, bool)) []T {
	var kinds []*model.Kind
	for _, grp := range m.Groups {
		kinds = append(kinds, grp.Kinds...)
	}
	made := make([]T, len(kinds))
	ok := make([]bool, len(kinds))
	kindDiags := make([]*diag.List, len(kinds))
	parallel.For(len(kinds), func(i int) {
		kindDiags[i] = diag.New(m.Fset)
		made[i], ok[i] = fn(kinds[i], kindDiags[i])
	})
	var out []T
	for i := range kinds {
		diags.Append(kindDiags[i])
		if ok[i] {
			out = append(out, made[i])
		}
	}
	return out
}

// generate prints and validates k's CRD with the conversion conv: the
// kind's own, or, ahead of the model's last steps, what it was then
// (Started); without the descriptions the markers omit, and, with FitBytes,
// those it takes to fit.
func (g Generator) generate(v *validator, omit *omissions, k *model.Kind, conv model.Conversion, diags *diag.List) (output.File, bool) {
	if k.Storage == nil {
		return output.File{}, false // the model already reported it; the server would only repeat it
	}
	c := build(k, conv)
	omit.apply(k, c)
	content, info, ok := g.print(k, c, diags)
	if !ok {
		return output.File{}, false
	}
	if !k.SchemaErrors {
		v.validatePrinted(k, c, content, diags) // after printing: validation defaults c in place
	}
	return output.File{Path: filepath.Join(g.Dir, FileName(c)), Content: WithHeader(g.Header, content), CRD: info}, true
}

// WithHeader puts header before content: a CRD's, or another YAML file's
// beside the CRDs. controller-gen writes the header file's bytes and then
// "---"; a header whose last line has no newline gets one here, or the
// line would run into crdforge's header line (for controller-gen, into the
// "---" it writes, which the comment then hides).
func WithHeader(header string, content []byte) []byte {
	if header == "" {
		return content
	}
	out := make([]byte, 0, len(header)+1+len(content))
	out = append(out, header...)
	if !strings.HasSuffix(header, "\n") {
		out = append(out, '\n')
	}
	return append(out, content...)
}

// FileName is the name of c's file, as controller-gen names it:
// <group>_<plural>.yaml.
func FileName(c *apiextensionsv1.CustomResourceDefinition) string {
	return fmt.Sprintf("%s_%s.yaml", c.Spec.Group, c.Spec.Names.Plural)
}

// Owns is the CRD files: <group>_<plural>.yaml in Dir.
func (g Generator) Owns(*model.Model) []string { return []string{filepath.Join(g.Dir, "*_*.yaml")} }

// Build returns the kind's CRD as crdforge writes it.
func Build(k *model.Kind) *apiextensionsv1.CustomResourceDefinition {
	return build(k, k.Conversion)
}

// build is Build with the conversion conv in the kind's stead.
func build(k *model.Kind, conv model.Conversion) *apiextensionsv1.CustomResourceDefinition {
	c := k.CRD.DeepCopy()
	markDeprecated(c, k.DeprecatedFields)

	// Versions in priority order, as the model sorted them.
	byName := map[string]apiextensionsv1.CustomResourceDefinitionVersion{}
	for _, v := range c.Spec.Versions {
		byName[v.Name] = v
	}
	c.Spec.Versions = c.Spec.Versions[:0]
	for _, v := range k.Versions {
		c.Spec.Versions = append(c.Spec.Versions, byName[v.Name])
	}

	switch conv.Strategy {
	case markers.StrategyWebhook:
		path, port := conv.Service.Path, conv.Service.Port
		c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
			Strategy: apiextensionsv1.WebhookConverter,
			Webhook: &apiextensionsv1.WebhookConversion{
				ClientConfig: &apiextensionsv1.WebhookClientConfig{
					Service: &apiextensionsv1.ServiceReference{
						Namespace: conv.Service.Namespace,
						Name:      conv.Service.Name,
						Path:      &path,
						Port:      &port,
					},
				},
				ConversionReviewVersions: append([]string(nil), model.ConversionReviewVersions...),
			},
		}
		if conv.InjectCA {
			if c.Annotations == nil {
				c.Annotations = map[string]string{}
			}
			c.Annotations[InjectCAAnnotation] = conv.Certificate
		}
	default:
		c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.NoneConverter}
	}
	return c
}

// Marshal renders a CRD as controller-gen does (keys sorted, no status, no
// creationTimestamp), after crdforge's generated-file header. It prints the
// JSON form's generic value directly, where controller-gen goes through JSON
// and YAML parsing once more and then go-yaml; the bytes are the same
// (crdyaml).
func Marshal(c *apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	obj, raw, err := generic(c)
	if err != nil {
		return nil, err
	}
	return marshalGeneric(obj, len(raw))
}

// marshalGeneric prints the generic value of a CRD whose JSON takes
// jsonLen bytes, as Marshal does.
func marshalGeneric(obj map[string]any, jsonLen int) ([]byte, error) {
	head := output.YAMLHeader + "\n---\n"
	out := make([]byte, 0, len(head)+jsonLen*3/2)
	out = append(out, head...)
	out, err := crdyaml.Append(out, obj)
	if err != nil {
		return nil, err
	}
	// Kept until every file is written: its length, not the capacity the
	// appends grew to (up to twice; issue 56).
	kept := make([]byte, len(out))
	copy(kept, out)
	return kept, nil
}

// generic is c as the generic value Marshal prints (keys sorted, no status,
// no creationTimestamp), and c's JSON.
func generic(c *apiextensionsv1.CustomResourceDefinition) (map[string]any, []byte, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, nil, err
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return nil, nil, err
	}
	delete(obj, "status")
	if meta, ok := obj["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
	}
	return obj, raw, nil
}
