package check

import (
	"fmt"
	"regexp"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/crdify/pkg/validations"
)

// comparator is one of crdforge's property rules, run by crdify's
// validators beside crdify's own. It reads, and leaves alone, one part of
// the property; handled then clears the parts crdforge's rules read, as
// crdify's comparators clear theirs, so that crdify's "unhandled" reports
// only what no rule classifies.
type comparator struct {
	name    string
	compare func(a, b *apiextensionsv1.JSONSchemaProps) []string
}

func (c comparator) Compare(a, b *apiextensionsv1.JSONSchemaProps) validations.ComparisonResult {
	if b.Type == "" && a.Type != "" && c.name != "handled" {
		// The property is gone (crdify compares it with an empty schema):
		// existingFieldRemoval and type say so; how it merged or what
		// rules it had no longer matter.
		return validations.ComparisonResult{Name: c.name}
	}
	return validations.ComparisonResult{Name: c.name, Errors: c.compare(a, b)}
}

func schemaComparators(Config) []validations.Comparator[apiextensionsv1.JSONSchemaProps] {
	return []validations.Comparator[apiextensionsv1.JSONSchemaProps]{
		comparator{"celRuleAdded", func(a, b *apiextensionsv1.JSONSchemaProps) []string { return addedRules(a, b, ruleTightens) }},
		comparator{"celRuleRatcheting", func(a, b *apiextensionsv1.JSONSchemaProps) []string { return addedRules(a, b, ruleRatchets) }},
		comparator{"immutabilityAdded", func(a, b *apiextensionsv1.JSONSchemaProps) []string { return addedRules(a, b, ruleImmutable) }},
		comparator{"celRuleRemoved", removedRules},
		comparator{"listType", func(a, b *apiextensionsv1.JSONSchemaProps) []string {
			return changed(a, b, "x-kubernetes-list-type", listType(a), listType(b))
		}},
		comparator{"listMapKeys", func(a, b *apiextensionsv1.JSONSchemaProps) []string {
			if slices.Equal(a.XListMapKeys, b.XListMapKeys) {
				return nil
			}
			return []string{fmt.Sprintf("x-kubernetes-list-map-keys changed : %q -> %q", a.XListMapKeys, b.XListMapKeys)}
		}},
		comparator{"mapType", func(a, b *apiextensionsv1.JSONSchemaProps) []string {
			return changed(a, b, "x-kubernetes-map-type", mapType(a), mapType(b))
		}},
		comparator{"preserveUnknownFieldsRemoved", func(a, b *apiextensionsv1.JSONSchemaProps) []string {
			if isTrue(a.XPreserveUnknownFields) && !isTrue(b.XPreserveUnknownFields) {
				return []string{"x-kubernetes-preserve-unknown-fields removed: unknown fields stored under it are pruned on the next write"}
			}
			return nil
		}},
		comparator{"handled", func(a, b *apiextensionsv1.JSONSchemaProps) []string {
			for _, s := range []*apiextensionsv1.JSONSchemaProps{a, b} {
				s.XValidations = nil
				s.XListType, s.XListMapKeys, s.XMapType = nil, nil, nil
				// Adding x-kubernetes-preserve-unknown-fields only keeps
				// more: nothing breaks.
				s.XPreserveUnknownFields = nil
			}
			return nil
		}},
	}
}

// ruleKind classifies an x-kubernetes-validations rule added to a field
// that already existed.
type ruleKind int

const (
	// ruleTightens: the rule judges self alone; objects already stored that
	// break it fail their next update, and clients' writes that passed
	// before now fail.
	ruleTightens ruleKind = iota
	// ruleRatchets: a transition rule (it reads oldSelf, so it runs on
	// updates only, and only when the field had a value) or one with
	// optionalOldSelf.
	ruleRatchets
	// ruleImmutable: self == oldSelf.
	ruleImmutable
)

var (
	oldSelfRE   = regexp.MustCompile(`\boldSelf\b`)
	immutableRE = regexp.MustCompile(`^\s*(self\s*==\s*oldSelf|oldSelf\s*==\s*self)\s*$`)
)

func classifyRule(r apiextensionsv1.ValidationRule) ruleKind {
	switch {
	case immutableRE.MatchString(r.Rule):
		return ruleImmutable
	case oldSelfRE.MatchString(r.Rule) || isTrue(r.OptionalOldSelf):
		return ruleRatchets
	}
	return ruleTightens
}

// addedRules lists the rules of b, of kind want, that a does not have. A
// rule whose text changed is a new rule: the old one is gone (removedRules)
// and the new one judges objects afresh.
func addedRules(a, b *apiextensionsv1.JSONSchemaProps, want ruleKind) []string {
	var out []string
	for _, r := range b.XValidations {
		if hasRule(a.XValidations, r.Rule) || classifyRule(r) != want {
			continue
		}
		out = append(out, addedRuleMessage(want, r))
	}
	return out
}

// ruleNames are the rules that report an added rule of each kind.
var ruleNames = map[ruleKind]string{ruleTightens: "celRuleAdded", ruleRatchets: "celRuleRatcheting", ruleImmutable: "immutabilityAdded"}

// addedRuleMessage is the message of the finding about r, added, of kind.
func addedRuleMessage(kind ruleKind, r apiextensionsv1.ValidationRule) string {
	switch kind {
	case ruleRatchets:
		return fmt.Sprintf("transition rule added : %q: it constrains updates only", r.Rule)
	case ruleImmutable:
		return fmt.Sprintf("field made immutable : %q: updates that change it now fail", r.Rule)
	}
	return fmt.Sprintf("validation rule added : %q: objects already stored that break it fail their next update", r.Rule)
}

func removedRules(a, b *apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	for _, r := range a.XValidations {
		if !hasRule(b.XValidations, r.Rule) {
			out = append(out, fmt.Sprintf("validation rule removed : %q", r.Rule))
		}
	}
	return out
}

func hasRule(rules apiextensionsv1.ValidationRules, rule string) bool {
	return slices.ContainsFunc(rules, func(r apiextensionsv1.ValidationRule) bool { return r.Rule == rule })
}

// listType is a list's x-kubernetes-list-type, "atomic" when unset as the
// API server takes it; empty for what is not a list.
func listType(s *apiextensionsv1.JSONSchemaProps) string {
	if s.XListType != nil {
		return *s.XListType
	}
	if s.Type == "array" {
		return "atomic"
	}
	return ""
}

// mapType is an object's x-kubernetes-map-type, "granular" when unset.
func mapType(s *apiextensionsv1.JSONSchemaProps) string {
	if s.XMapType != nil {
		return *s.XMapType
	}
	if s.Type == "object" {
		return "granular"
	}
	return ""
}

func changed(a, b *apiextensionsv1.JSONSchemaProps, what, from, to string) []string {
	if from == to || a.Type != b.Type {
		// A list that became a string: crdify's type check says it.
		return nil
	}
	return []string{fmt.Sprintf("%s changed : %q -> %q", what, from, to)}
}

func isTrue(b *bool) bool { return b != nil && *b }
