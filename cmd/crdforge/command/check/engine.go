package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/crdify/pkg/validations/crd/scope"
	"sigs.k8s.io/crdify/pkg/validations/crd/storedversionremoval"
	"sigs.k8s.io/crdify/pkg/validations/property"
	"sigs.k8s.io/crdify/pkg/validators/version/served"
)

// engine holds crdify's validators, configured once, with crdforge's
// property comparators among theirs.
type engine struct {
	cfg            Config
	crdComparators []validations.Comparator[apiextensionsv1.CustomResourceDefinition]
	props          []validations.Comparator[apiextensionsv1.JSONSchemaProps]
	unhandled      config.EnforcementPolicy
	served         *served.Validator
	update         *updateValidator
}

func newEngine(cfg Config) (*engine, error) {
	reg := validations.NewRegistry()
	// crdify's checks, as its runner registers them, but for
	// existingFieldRemoval, which crdforge runs per field (fields.go) so
	// that each removed field is a finding with its own position.
	scope.Register(reg)
	storedversionremoval.Register(reg)
	property.RegisterDefault(reg)
	property.RegisterEnum(reg)
	property.RegisterMaximum(reg)
	property.RegisterMaxItems(reg)
	property.RegisterMaxLength(reg)
	property.RegisterMaxProperties(reg)
	property.RegisterMinimum(reg)
	property.RegisterMinItems(reg)
	property.RegisterMinLength(reg)
	property.RegisterMinProperties(reg)
	property.RegisterRequired(reg)
	property.RegisterType(reg)
	property.RegisterDescription(reg)

	vals, err := validations.LoadValidationsFromRegistry(reg)
	if err != nil {
		return nil, err
	}
	if cfg.AllowEnumAdditions {
		v, err := reg.Validation("enum", map[string]any{"additionPolicy": string(property.AdditionPolicyAllow)})
		if err != nil {
			return nil, err
		}
		vals["enum"] = v
	}
	// Every crdify check reports as an error inside crdify; the rule's
	// enforcement is applied to the finding, where crdforge's severities
	// (info among them) live. Off is crdify's None: the comparator still
	// marks its part of the property handled, so "unhandled" does not
	// report it instead, as in crdify.
	for _, name := range slices.Sorted(maps.Keys(vals)) {
		v := vals[name]
		if cfg.enforcement(name) == Off {
			v.SetEnforcement(config.EnforcementPolicyNone)
		} else {
			v.SetEnforcement(config.EnforcementPolicyError)
		}
	}
	var ordered []validations.Validation
	for _, name := range slices.Sorted(maps.Keys(vals)) {
		ordered = append(ordered, vals[name])
	}
	// crdforge's comparators run first, each over a part of the property
	// no crdify check reads (and before crdify's checks clear the type
	// they read too); the last of them marks those parts handled.
	props := append(schemaComparators(cfg), validations.ComparatorsForValidations[apiextensionsv1.JSONSchemaProps](ordered...)...)

	unhandled := config.EnforcementPolicyError
	if cfg.enforcement("unhandled") == Off {
		unhandled = config.EnforcementPolicyNone
	}
	return &engine{
		cfg:            cfg,
		crdComparators: validations.ComparatorsForValidations[apiextensionsv1.CustomResourceDefinition](ordered...),
		props:          props,
		unhandled:      unhandled,
		// crdify's default conversion policy: served versions are compared
		// whether or not a conversion webhook exists.
		served: served.New(served.WithComparators(props...), served.WithUnhandledEnforcementPolicy(unhandled),
			served.WithConversionPolicy(config.ConversionPolicyNone)),
		update: newUpdateValidator(),
	}, nil
}

// compare returns every finding about one CRD, before enforcement.
// ot and nt are the two sides' Go trees, nil for a side without one.
func (e *engine) compare(old, nw *apiextensionsv1.CustomResourceDefinition, ot, nt *tree) []Finding {
	name := old.Name
	var out []Finding
	for _, c := range e.crdComparators {
		r := c.Compare(old.DeepCopy(), nw.DeepCopy())
		for _, msg := range r.Errors {
			f := Finding{Rule: r.Name, CRD: name, Message: msg}
			if r.Name == "storedVersionRemoval" {
				f.Message += fmt.Sprintf("; objects are stored at them: run crdforge migrate %s on the cluster before removing them", name)
				f.Baseline = true
			}
			out = append(out, f)
		}
	}
	if equality.Semantic.DeepEqual(old.Spec, nw.Spec) {
		// Nothing changed but, maybe, the cluster's status: only the
		// CRD-wide checks (storedVersionRemoval) can find anything.
		return out
	}
	// crdify's same-version validator, one version at a time, skipping
	// versions whose schema did not change: crdify compares every property
	// of both, deep-copying each, which on a pod template takes a while
	// and finds nothing.
	for _, ov := range old.Spec.Versions {
		nv := validations.GetCRDVersionByName(nw, ov.Name)
		if nv == nil || equality.Semantic.DeepEqual(ov.Schema, nv.Schema) || ov.Schema == nil || nv.Schema == nil {
			continue
		}
		byPath := validations.CompareVersions(*ov.DeepCopy(), *nv.DeepCopy(), e.unhandled, e.props...)
		out = append(out, propertyFindings(name, ov.Name, byPath)...)
	}
	// Between served versions crdify reports only what the baseline did not
	// have already: nothing, when the served versions and their schemas
	// are the same.
	if !sameServed(old, nw) {
		for pair, byPath := range e.served.Validate(old, nw) {
			out = append(out, propertyFindings(name, pair, byPath)...)
		}
	}
	out = append(out, fieldFindings(old, nw, ot, nt)...)
	out = append(out, conversionFindings(old, nw, ot, nt)...)
	out = append(out, versionFindings(old, nw)...)
	out = append(out, infoFindings(old, nw)...)
	out = append(out, e.update.findings(old, nw)...)
	deprecateOnly(old, nw, out)
	return removalsOnly(out)
}

// removalsOnly drops what crdify's same-version comparison says about a
// removed property besides its removal (its type and description "changed"
// to nothing): the property's existingFieldRemoval already says what
// happened. crdforge's own rules (fieldDataLoss) stay.
func removalsOnly(fs []Finding) []Finding {
	type at struct{ version, path string }
	removed := map[at]bool{}
	for _, f := range fs {
		if isRemoval(f.Rule) {
			removed[at{f.Version, f.Path}] = true
		}
	}
	return slices.DeleteFunc(fs, func(f Finding) bool {
		r, _ := RuleByName(f.Rule)
		return (r.Crdify || f.Rule == "fieldDeprecated") && !isRemoval(f.Rule) && removed[at{f.Version, f.Path}]
	})
}

// isRemoval says the rule reports a removed field: crdify's, or of a field
// the baseline deprecated.
func isRemoval(rule string) bool {
	return rule == "existingFieldRemoval" || rule == "deprecatedFieldRemoval"
}

func propertyFindings(crd, version string, byPath map[string][]validations.ComparisonResult) []Finding {
	var out []Finding
	for path, results := range byPath {
		for _, r := range results {
			for _, msg := range r.Errors {
				out = append(out, Finding{Rule: r.Name, CRD: crd, Version: version, Path: path, Message: msg})
			}
		}
	}
	return out
}

// cutPair splits a served-version pair ("v1beta1 -> v1").
func cutPair(s string) (from, to string, ok bool) {
	return strings.Cut(s, " -> ")
}

// sameServed reports whether old and nw serve the same versions with the
// same schemas.
func sameServed(old, nw *apiextensionsv1.CustomResourceDefinition) bool {
	served := func(c *apiextensionsv1.CustomResourceDefinition) map[string]*apiextensionsv1.CustomResourceValidation {
		out := map[string]*apiextensionsv1.CustomResourceValidation{}
		for _, v := range c.Spec.Versions {
			if v.Served {
				out[v.Name] = v.Schema
			}
		}
		return out
	}
	return equality.Semantic.DeepEqual(served(old), served(nw))
}
