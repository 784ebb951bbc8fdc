// Package check compares the CRDs crdforge generates from the working tree
// with a baseline (the CRDs of a git revision, of YAML files, or installed in
// a cluster) and reports the changes that break the API's users or its
// stored objects.
//
// crdify's checks run through crdify's own code (sigs.k8s.io/crdify, as a
// library), so that they mean exactly what they mean there; crdforge adds
// the rules crdify lacks (CEL, versions, conversions, server-side apply),
// its comparators plugged into crdify's comparison of each property, and
// positions every finding at the Go field or type it comes from.
package check

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Finding is one change a rule reports.
type Finding struct {
	Rule     string      `json:"rule"`
	Severity Enforcement `json:"severity"`
	// CRD is the CRD's name, <plural>.<group>.
	CRD string `json:"crd"`
	// Version is the version the change is in; "v1beta1 -> v1" for a
	// difference between two served versions that the baseline did not
	// have; empty for the CRD as a whole.
	Version string `json:"version,omitempty"`
	// Path is the property, as crdify writes it (^.spec.items[*].name);
	// empty for the CRD or a version as a whole.
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
	// Pos is where in the Go sources the change is: the field, type or
	// marker in the working tree, or, for what only the baseline has, in
	// the baseline's tree (Baseline is then set). Zero when unknown.
	Pos      token.Position `json:"-"`
	Baseline bool           `json:"-"`

	// celRule is the x-kubernetes-validations rule an apiServerUpdate
	// finding is about, so that it points at the rule's marker.
	celRule string
}

// Result is what Compare found, and, with --objects, what StoredObjects
// found.
type Result struct {
	Findings []Finding
	// Objects is nil unless the stored objects were checked.
	Objects *Objects
}

// HasErrors reports whether any finding is an error, or any stored object
// is refused.
func (r *Result) HasErrors() bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Severity == Error }) ||
		r.Objects != nil && len(r.Objects.Refused) > 0
}

// Counts returns how many findings there are of each severity.
func (r *Result) Counts() (errors, warnings, infos int) {
	for _, f := range r.Findings {
		switch f.Severity {
		case Error:
			errors++
		case Warn:
			warnings++
		case Info:
			infos++
		}
	}
	return
}

// Locator positions findings in Go sources; see ModelLocator.
type Locator interface {
	// Locate returns the position of a property (path as in Finding; empty
	// for the version's root type) of a CRD's version, or of the CRD when
	// version is empty. ok is false when it has none.
	Locate(crd, version, path string) (pos token.Position, ok bool)
}

// Input is what Compare compares.
type Input struct {
	// Old is the baseline's CRDs; their status.storedVersions is used when
	// set (a cluster's CRDs).
	Old []*apiextensionsv1.CustomResourceDefinition
	// New is the working tree's CRDs.
	New []*apiextensionsv1.CustomResourceDefinition
	// NewLocator and OldLocator position findings; either may be nil.
	NewLocator, OldLocator Locator
}

// Compare runs every rule that cfg leaves on over each CRD of the baseline
// and its counterpart, by name. CRDs only the working tree has are new: there
// is nothing to break.
func Compare(in Input, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	// Both sides as the API server defaults them (a cluster's CRDs come
	// defaulted, files and generated CRDs do not), so that only changes
	// are compared.
	byName := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, c := range in.New {
		c = c.DeepCopy()
		e.update.scheme.Default(c)
		c.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
		byName[c.Name] = c
	}
	res := &Result{}
	ot, nt := treeOf(in.OldLocator), treeOf(in.NewLocator)
	for _, old := range in.Old {
		old = old.DeepCopy()
		stored := old.Status.StoredVersions
		e.update.scheme.Default(old)
		// Defaulting makes up status.storedVersions from the storage
		// version; only a cluster knows them.
		old.Status.StoredVersions = stored
		nw, ok := byName[old.Name]
		if !ok {
			res.add(e, Finding{Rule: "crdRemoved", CRD: old.Name, Message: "CRD removed: every object of it is deleted with it", Baseline: true}, false)
			continue
		}
		hidden := hiddenVersions(old, nw)
		for _, f := range e.compare(old, nw, ot, nt) {
			locateMarker(&f, old, nw, in.NewLocator)
			res.add(e, f, hidden[f.Version])
		}
	}
	for i := range res.Findings {
		if !res.Findings[i].Pos.IsValid() {
			locate(&res.Findings[i], in.NewLocator, in.OldLocator)
		}
	}
	slices.SortStableFunc(res.Findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.CRD, b.CRD),
			cmp.Compare(a.Version, b.Version),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
	res.Findings = slices.Compact(res.Findings)
	return res, nil
}

// add records f with the severity its rule's enforcement gives it, unless
// the rule is off. In a hidden version (see hiddenVersions) an error is a
// warning, unless its rule is one of stillErrors.
func (r *Result) add(e *engine, f Finding, hidden bool) {
	sev := e.cfg.enforcement(f.Rule)
	if sev == Off {
		return
	}
	if hidden && sev == Error && !slices.Contains(stillErrors, f.Rule) {
		sev = Warn
		f.Message += fmt.Sprintf(" (a warning: %s is served neither in the baseline nor now, so no client reads or writes it)", f.Version)
	}
	f.Severity = sev
	r.Findings = append(r.Findings, f)
}

// hiddenVersions are the versions no client has ever seen nor stored
// objects at: served neither in the baseline nor now, storage in neither,
// not in the cluster's status.storedVersions.
func hiddenVersions(old, nw *apiextensionsv1.CustomResourceDefinition) map[string]bool {
	hidden := map[string]bool{}
	for _, ov := range old.Spec.Versions {
		hidden[ov.Name] = !ov.Served && !ov.Storage && !slices.Contains(old.Status.StoredVersions, ov.Name)
	}
	for _, nv := range nw.Spec.Versions {
		hidden[nv.Name] = hidden[nv.Name] && !nv.Served && !nv.Storage
	}
	return hidden
}

// stillErrors are the rules that stay errors in a hidden version: stored
// data lost, and a CRD update the API server refuses.
var stillErrors = []string{"fieldDataLoss", "apiServerUpdate"}

// locateMarker positions f at the marker of the working tree it comes from,
// when it comes from one and the locator knows markers.
func locateMarker(f *Finding, old, nw *apiextensionsv1.CustomResourceDefinition, l Locator) {
	ml, ok := l.(ModelLocator)
	if !ok {
		return
	}
	probe := probeFor(*f, old, nw)
	if probe.empty() {
		return
	}
	version := f.Version
	if _, to, ok := cutPair(version); ok {
		version = to
	}
	if pos, ok := ml.locateMarker(nw, version, f.Path, probe); ok {
		f.Pos = pos
		return
	}
	if probe.child != "" {
		// The field made required, without a marker: it lost +optional
		// or omitempty.
		if pos, ok := ml.Locate(f.CRD, version, f.Path+"."+probe.child); ok {
			f.Pos = pos
		}
	}
}

// locate positions f: at its property in the working tree, else (a property
// the tree no longer has) in the baseline, else at its version or CRD.
func locate(f *Finding, nw, old Locator) {
	version := f.Version
	if _, to, ok := cutPair(version); ok {
		version = to
	}
	try := func(l Locator, version, path string, baseline bool) bool {
		if l == nil {
			return false
		}
		pos, ok := l.Locate(f.CRD, version, path)
		if ok {
			f.Pos, f.Baseline = pos, baseline
		}
		return ok
	}
	first, second := nw, old
	if f.Baseline {
		first, second = old, nw
	}
	switch {
	case f.Path != "" && try(first, version, f.Path, f.Baseline):
	case f.Path != "" && try(second, version, f.Path, !f.Baseline):
	case version != "" && try(first, version, "", f.Baseline):
	case version != "" && try(second, version, "", !f.Baseline):
	case try(first, "", "", f.Baseline):
	default:
		try(second, "", "", !f.Baseline)
	}
}
