package check

import (
	"fmt"
	"slices"
	"strings"
)

// Enforcement is what a rule's finding does to the run: an error fails it
// (exit 1), a warning and information are printed, off drops the rule.
type Enforcement string

// The enforcements a project can give a rule.
const (
	Error Enforcement = "error"
	Warn  Enforcement = "warn"
	Info  Enforcement = "info"
	Off   Enforcement = "off"
)

// Rule is one check: its name (crdify's name for crdify's checks, so that a
// crdify configuration reads the same), its default enforcement, and what
// it guards.
type Rule struct {
	Name    string
	Default Enforcement
	// Crdify says the rule is one of crdify v0.5.0's checks, run through
	// crdify's own code with crdify's meaning.
	Crdify bool
	Doc    string
}

// Rules lists every rule, crdify's first, in the order docs/check.md's table
// shows them. crdify's defaults are its own: every check of crdify is an
// error unless configured otherwise, description changes included.
var Rules = []Rule{
	{"scope", Error, true, "the CRD's scope changed (Namespaced ⇄ Cluster)"},
	{"existingFieldRemoval", Error, true, "a field of a version that still exists was removed"},
	{"storedVersionRemoval", Error, true, "a version listed in the cluster's status.storedVersions left spec.versions; run crdforge migrate first"},
	{"enum", Error, true, "enum values removed, an enum added to a field that had none, or (unless enum additions are allowed) values added"},
	{"default", Error, true, "a default added, changed or removed"},
	{"maximum", Error, true, "maximum added or lowered"},
	{"maxItems", Error, true, "maxItems added or lowered"},
	{"maxLength", Error, true, "maxLength added or lowered"},
	{"maxProperties", Error, true, "maxProperties added or lowered"},
	{"minimum", Error, true, "minimum added or raised"},
	{"minItems", Error, true, "minItems added or raised"},
	{"minLength", Error, true, "minLength added or raised"},
	{"minProperties", Error, true, "minProperties added or raised"},
	{"required", Error, true, "a field became required"},
	{"type", Error, true, "a field's type changed"},
	{"description", Error, true, "a field's description changed"},
	{"unhandled", Error, true, "any other schema change no rule above or below classifies (crdify's catch-all: pattern, format, nullable, ...)"},

	{"deprecatedFieldRemoval", Warn, false, "a field removed that the baseline deprecated (a \"Deprecated:\" line in its description, as +crdforge:deprecated writes): deprecate, release, then remove; crdify's existingFieldRemoval otherwise"},
	{"fieldDeprecated", Info, false, "a field's description only gained a \"Deprecated:\" line (+crdforge:deprecated): crdify's description change otherwise, though no client breaks"},
	{"celRuleAdded", Error, false, "an x-kubernetes-validations rule added to or changed on an existing field, that neither is a transition rule nor ratchets (optionalOldSelf)"},
	{"celRuleRatcheting", Info, false, "a rule added to an existing field that only constrains updates (oldSelf) or ratchets: objects already stored are not rejected"},
	{"celRuleRemoved", Info, false, "an x-kubernetes-validations rule removed: a loosening"},
	{"immutabilityAdded", Error, false, "a field became immutable (a self == oldSelf rule): clients that update it now fail"},
	{"apiServerUpdate", Error, false, "the API server would reject this update of the CRD (CEL rules that no longer compile against the new schema, CEL cost over the budget, storedVersions), from its own update validation"},
	{"listType", Error, false, "x-kubernetes-list-type changed: server-side apply merges the list differently"},
	{"listMapKeys", Error, false, "x-kubernetes-list-map-keys changed: server-side apply identifies items differently"},
	{"mapType", Error, false, "x-kubernetes-map-type changed (mapType or structType): server-side apply merges the object differently"},
	{"preserveUnknownFieldsRemoved", Error, false, "x-kubernetes-preserve-unknown-fields removed: the API server now prunes what it kept"},
	{"fieldDataLoss", Error, false, "stored values nothing holds any more: a field whose data (its hub field, under any name, or its own stashed field) no version holds, or a field removed from, or renamed in, a version objects are stored at (the API server prunes it as it reads them); a field removed from another version whose data a version still holds is not"},
	{"conversionTypeChange", Error, false, "a field's type changed so that the conversion crdforge generates between its version and the hub cannot carry it (no mechanical conversion, no hand-written Convert_): objects fail to convert"},
	{"storageVersionRemoved", Error, false, "the baseline's storage version left spec.versions: objects are stored at it; run crdforge migrate first"},
	{"servedVersionRemoved", Error, false, "a served version removed from spec.versions, or no longer served: its clients fail"},
	{"storageVersionChanged", Warn, false, "the storage version changed: after rolling it out, run crdforge migrate so old versions can leave status.storedVersions"},
	{"deprecatedWithoutWarning", Warn, false, "a version newly deprecated without a deprecationWarning text"},
	{"crdRemoved", Error, false, "a CRD of the baseline is no longer generated"},
	{"printerColumns", Info, false, "additionalPrinterColumns changed"},
	{"selectableFields", Info, false, "selectableFields changed"},
	{"shortNames", Info, false, "names.shortNames changed"},
	{"categories", Info, false, "names.categories changed"},
}

// RuleByName returns the rule named name.
func RuleByName(name string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.Name == name })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// Config is a project's settings for check, set once (in .crdforge.yaml's
// check section).
type Config struct {
	// Rules overrides rules' default enforcement, by rule name.
	Rules map[string]Enforcement
	// AllowEnumAdditions makes adding enum values to an existing enum
	// compatible, as crdify's enum additionPolicy: Allow does.
	AllowEnumAdditions bool
}

// Validate reports unknown rules and enforcements.
func (c Config) Validate() error {
	var errs []string
	for name, e := range c.Rules {
		if _, ok := RuleByName(name); !ok {
			errs = append(errs, fmt.Sprintf("unknown rule %q", name))
		}
		switch e {
		case Error, Warn, Info, Off:
		default:
			errs = append(errs, fmt.Sprintf("rule %s: unknown enforcement %q (want error, warn, info or off)", name, e))
		}
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// enforcement is the rule's enforcement under c.
func (c Config) enforcement(name string) Enforcement {
	if e, ok := c.Rules[name]; ok {
		return e
	}
	r, ok := RuleByName(name)
	if !ok {
		panic("check: no rule " + name)
	}
	return r.Default
}
