package check

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	crdifyconfig "sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/runner"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/yaml"
)

// crdifyResults is the shape of crdify's --output json (runner.Results).
type crdifyResults struct {
	CRDValidation           []crdifyResult                       `json:"crdValidation"`
	SameVersionValidation   map[string]map[string][]crdifyResult `json:"sameVersionValidation"`
	ServedVersionValidation map[string]map[string][]crdifyResult `json:"servedVersionValidation"`
}

type crdifyResult struct {
	Name     string   `json:"name"`
	Errors   []string `json:"errors"`
	Warnings []string `json:"warnings"`
}

// crdifyFinding is one error or warning crdify printed.
type crdifyFinding struct {
	rule, severity, version, path, message string
}

// runCrdify runs crdify v0.5.0 on one pair, with the configuration that
// means cfg, through the packages its command line calls (config.Load,
// runner.New with the default registry, Run, the JSON report): crdify's
// own code, in process, with no tool to build. It runs on its own
// goroutine: it reports with t.Error, never t.Fatal.
func runCrdify(t *testing.T, old, nw *apiextensionsv1.CustomResourceDefinition, cfg Config) []crdifyFinding {
	t.Helper()
	var vals []map[string]any
	for _, name := range slices.Sorted(maps.Keys(cfg.Rules)) {
		e := map[Enforcement]string{Error: "Error", Warn: "Warn", Off: "None"}[cfg.Rules[name]]
		vals = append(vals, map[string]any{"name": name, "enforcement": e})
	}
	if cfg.AllowEnumAdditions {
		vals = append(vals, map[string]any{"name": "enum", "enforcement": "Error", "configuration": map[string]any{"additionPolicy": "Allow"}})
	}
	configFile := "" // crdify's defaults
	if len(vals) > 0 {
		b, err := yaml.Marshal(map[string]any{"validations": vals})
		if err != nil {
			t.Error(err)
			return nil
		}
		configFile = filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(configFile, b, 0o644); err != nil {
			t.Error(err)
			return nil
		}
	}
	c, err := crdifyconfig.Load(configFile)
	if err != nil {
		t.Errorf("crdify: loading its configuration: %v", err)
		return nil
	}
	r, err := runner.New(c, runner.DefaultRegistry())
	if err != nil {
		t.Errorf("crdify: configuring its runner: %v", err)
		return nil
	}
	report, err := r.Run(old, nw).RenderJSON()
	if err != nil {
		t.Errorf("crdify: rendering its report: %v", err)
		return nil
	}
	var res crdifyResults
	if err := json.Unmarshal([]byte(report), &res); err != nil {
		t.Errorf("crdify's report: %v\n%s", err, report)
		return nil
	}
	var out []crdifyFinding
	add := func(version, path string, rs []crdifyResult) {
		for _, r := range rs {
			for _, m := range r.Errors {
				out = append(out, crdifyFinding{r.Name, "error", version, path, m})
			}
			for _, m := range r.Warnings {
				out = append(out, crdifyFinding{r.Name, "warn", version, path, m})
			}
		}
	}
	add("", "", res.CRDValidation)
	for _, m := range []map[string]map[string][]crdifyResult{res.SameVersionValidation, res.ServedVersionValidation} {
		for version, byPath := range m {
			for path, rs := range byPath {
				add(version, path, rs)
			}
		}
	}
	return out
}

// schemaRules are crdforge's rules over parts of a property that crdify's
// checks leave to its catch-all, "unhandled".
var schemaRules = []string{"celRuleAdded", "celRuleRatcheting", "celRuleRemoved", "immutabilityAdded",
	"listType", "listMapKeys", "mapType", "preserveUnknownFieldsRemoved"}

// diffPair is one pair of the differential corpus.
type diffPair struct {
	name    string
	old, nw *apiextensionsv1.CustomResourceDefinition
	cfg     Config
}

// agree checks that crdforge reports everything crdify reports on a pair,
// with the same classification, and that whatever crdforge reports besides
// has a named reason. It returns the counts.
func agree(t *testing.T, p diffPair, ours []Finding, theirs []crdifyFinding, more map[string]int) (agreements int) {
	t.Helper()
	used := make([]bool, len(ours))
	hidden := hiddenVersions(p.old, p.nw)
	for _, c := range theirs {
		match := func(f Finding) bool {
			return f.Rule == c.rule && (c.version == "" || f.Version == c.version) && (c.path == "" || f.Path == c.path) &&
				strings.HasPrefix(f.Message, c.message)
		}
		i := slices.IndexFunc(ours, match)
		if i >= 0 {
			if hidden[ours[i].Version] && c.severity == "error" && ours[i].Severity == Warn {
				// Why crdforge says less: no client has seen the version,
				// served neither in the baseline nor now.
				t.Logf("%s: crdify: %s error at %s %s; crdforge: a warning (%s is a version no client sees)", p.name, c.rule, c.version, c.path, ours[i].Version)
			} else if string(ours[i].Severity) != c.severity {
				t.Errorf("%s: crdify's %s at %s %s is a %s, crdforge's a %s", p.name, c.rule, c.version, c.path, c.severity, ours[i].Severity)
			}
			// crdify reports every field removed in one message per
			// field; crdforge one finding per field: mark them all.
			for j, f := range ours {
				if match(f) {
					used[j] = true
				}
			}
			agreements++
			continue
		}
		if j := deprecatedAlike(ours, c); j >= 0 {
			// Why crdforge says less: the baseline deprecated the field
			// (a "Deprecated:" line in its description), so its removal
			// is the deprecate-then-remove its clients were warned of
			// (deprecatedFieldRemoval), and a deprecation added breaks
			// no client (fieldDeprecated).
			t.Logf("%s: crdify: %s error at %s %s; crdforge: %s %s", p.name, c.rule, c.version, c.path, ours[j].Rule, ours[j].Severity)
			used[j] = true
			for k, f := range ours {
				if f.Rule == ours[j].Rule && strings.HasPrefix(f.Message, c.message) {
					used[k] = true
				}
			}
			agreements++
			continue
		}
		if c.version != "" && slices.ContainsFunc(ours, func(f Finding) bool {
			return isRemoval(f.Rule) && f.Version == c.version && f.Path == c.path
		}) {
			// Why crdforge says less: crdify reports a removed property
			// more than once, as removed and as its type, description
			// and so on changed to nothing; crdforge reports the removal
			// once.
			agreements++
			continue
		}
		if c.rule == "unhandled" {
			// Why crdforge differs: it classifies what crdify leaves
			// unhandled (CEL rules, list and map types, preserved unknown
			// fields) with rules of its own, at the same property; what is
			// left, if anything, it still reports as unhandled there. Of
			// a property removed, crdforge reports the removal and the
			// type, not how the property used to merge.
			j := slices.IndexFunc(ours, func(f Finding) bool {
				return f.Version == c.version && f.Path == c.path &&
					(slices.Contains(schemaRules, f.Rule) || f.Severity == Error)
			})
			if j >= 0 {
				t.Logf("%s: crdify: unhandled at %s %s; crdforge: %s (classified by crdforge)", p.name, c.version, c.path, ours[j].Rule)
				agreements++
				continue
			}
			if onlyLoosened(p.old, p.nw, c.version, c.path) {
				// Why crdforge says less: an x-kubernetes-list-type or
				// -map-type set to the value the API server takes when it
				// is unset (atomic, granular) changes nothing, and adding
				// x-kubernetes-preserve-unknown-fields only keeps more.
				t.Logf("%s: crdify: unhandled at %s %s; crdforge: nothing breaks (a default spelled out, or unknown fields preserved)", p.name, c.version, c.path)
				agreements++
				continue
			}
		}
		t.Errorf("%s: crdify reports %s (%s) at %q %q: %s; crdforge does not", p.name, c.rule, c.severity, c.version, c.path, c.message)
	}
	for i, f := range ours {
		if used[i] {
			continue
		}
		r, _ := RuleByName(f.Rule)
		switch {
		case !r.Crdify:
			// Said more, by a rule crdify does not have: its reason is the
			// rule's doc.
			more[f.Rule]++
		case f.Rule == "unhandled" || f.Rule == "existingFieldRemoval":
			// Matched above through crdify's coarser report.
		default:
			t.Errorf("%s: crdforge reports crdify's %s at %q %q: %s; crdify does not", p.name, f.Rule, f.Version, f.Path, f.Message)
		}
	}
	return agreements
}

// deprecatedAlike finds crdforge's finding that reclassifies crdify's c
// for a deprecated field: deprecatedFieldRemoval for its
// existingFieldRemoval (the same message, said more), fieldDeprecated for
// its description at the same version and path. -1 for none.
func deprecatedAlike(ours []Finding, c crdifyFinding) int {
	return slices.IndexFunc(ours, func(f Finding) bool {
		switch c.rule {
		case "existingFieldRemoval":
			return f.Rule == "deprecatedFieldRemoval" && strings.HasPrefix(f.Message, c.message)
		case "description":
			return f.Rule == "fieldDeprecated" && f.Version == c.version && f.Path == c.path
		}
		return false
	})
}

// onlyLoosened reports whether the property at path of version (or of a
// served pair's two versions) differs between old and nw only by a list or
// map type going from unset to its default, or back, or by
// x-kubernetes-preserve-unknown-fields added.
func onlyLoosened(old, nw *apiextensionsv1.CustomResourceDefinition, version, path string) bool {
	ov, nv := validations.GetCRDVersionByName(old, version), validations.GetCRDVersionByName(nw, version)
	if from, to, ok := cutPair(version); ok {
		ov, nv = validations.GetCRDVersionByName(nw, from), validations.GetCRDVersionByName(nw, to)
	}
	if ov == nil || nv == nil {
		return false
	}
	a, b := validations.FlattenCRDVersion(*ov)[path], validations.FlattenCRDVersion(*nv)[path]
	if a == nil || b == nil {
		return false
	}
	norm := func(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSONSchemaProps {
		s = validations.DropChildrenPropertiesFromJSONSchema(s)
		if t := listType(s); t != "" {
			s.XListType = &t
		}
		if t := mapType(s); t != "" {
			s.XMapType = &t
		}
		return s
	}
	a, b = norm(a), norm(b)
	if isTrue(b.XPreserveUnknownFields) {
		a.XPreserveUnknownFields, b.XPreserveUnknownFields = nil, nil
	}
	return equality.Semantic.DeepEqual(a, b)
}

// TestAgainstCrdify is the differential test: on every pair of the corpus,
// crdforge's findings include crdify v0.5.0's, with the same
// classification.
func TestAgainstCrdify(t *testing.T) {
	corpus := diffCorpus(t)
	// One runner per pair, GOMAXPROCS at a time: crdify compares every
	// property of every version, which takes a while on a pod template.
	theirsAll := make([][]crdifyFinding, len(corpus))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range corpus {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			theirsAll[i] = runCrdify(t, p.old, p.nw, p.cfg)
		})
	}
	wg.Wait()
	var pairs, theirsN, oursN, agreed int
	more := map[string]int{}
	for i, p := range corpus {
		res, err := Compare(Input{Old: []*apiextensionsv1.CustomResourceDefinition{p.old}, New: []*apiextensionsv1.CustomResourceDefinition{p.nw}}, p.cfg)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		theirs := theirsAll[i]
		pairs++
		theirsN += len(theirs)
		oursN += len(res.Findings)
		agreed += agree(t, p, res.Findings, theirs, more)
	}
	// Where crdforge says more, by rules crdify does not have, and why.
	for _, name := range slices.Sorted(maps.Keys(more)) {
		r, _ := RuleByName(name)
		t.Logf("crdforge says more: %d %s finding(s): %s", more[name], name, r.Doc)
	}
	t.Logf("differential against crdify v0.5.0: %d pairs, %d findings by crdify, %d by crdforge, %d agreements", pairs, theirsN, oursN, agreed)
	fmt.Fprintf(os.Stderr, "differential against crdify v0.5.0: %d pairs, %d findings by crdify, %d by crdforge, %d agreements\n", pairs, theirsN, oursN, agreed)
}
