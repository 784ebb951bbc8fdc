package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/validations"
	"sigs.k8s.io/crdify/pkg/validations/crd/existingfieldremoval"
)

// fieldFindings reports the fields removed from versions that remain:
// crdify's existingFieldRemoval, with crdify's property paths and message,
// one finding per field so that each points at its field in the baseline
// (deprecatedFieldRemoval, a warning, for a field the baseline deprecated);
// and fieldDataLoss for stored values that nothing holds any more.
//
// Whether values survive is decided by where they live (identity, through
// the model's field mapping when both sides come from Go; by property path
// otherwise), in two ways:
//
//   - objects are stored at a version (the cluster's status.storedVersions;
//     without a cluster, the baseline's storage version), and the API
//     server reads them with that version's schema as it is now: a property
//     that version lost is pruned from them as they are read, whatever
//     other versions hold, and even when the version serves the same hub
//     field under a new name (the rename does not move stored values);
//   - past the read, crdforge's conversions carry every value to where its
//     mapping says, and keep what a version cannot hold in the hub's stash
//     annotation: a property removed from a version that objects are not
//     stored at loses nothing while some version still holds its identity
//     (the hub field, under any name, or the spoke's own stashed field),
//     and loses its values for good when none does.
func fieldFindings(old, nw *apiextensionsv1.CustomResourceDefinition, ot, nt *tree) []Finding {
	if ot == nil {
		// Identities are compared within one kind of key: property paths on
		// both sides when the baseline has no Go sources.
		nt = nil
	}
	oldFields, newFields := flattenAll(old), flattenAll(nw)
	// held: every identity the working tree holds, and where.
	held := map[string][]string{}
	for _, nv := range nw.Spec.Versions {
		for _, p := range slices.Sorted(maps.Keys(newFields[nv.Name])) {
			id := nt.identity(nw.Name, nv.Name, p).id
			held[id] = append(held[id], nv.Name+" "+p)
		}
	}
	stored := storedVersions(old)
	deprecated := deprecatedProps(old)

	var out []Finding
	lost := map[string]bool{}
	// report adds f unless it is already said: by a finding about a
	// property with the same key, or about its parent (the topmost lost
	// property speaks for those below).
	report := func(f Finding, path string, keys ...string) {
		said := false
		for _, k := range keys {
			said = said || lost[k] || lost[parentID(k, path)]
			lost[k] = true
		}
		if !said {
			out = append(out, f)
		}
	}
	for _, ov := range old.Spec.Versions {
		_, kept := newFields[ov.Name]
		isStored := slices.Contains(stored, ov.Name)
		for _, p := range slices.Sorted(maps.Keys(oldFields[ov.Name])) {
			if kept && newFields[ov.Name][p] {
				continue
			}
			oid := ot.identity(old.Name, ov.Name, p)
			where := held[oid.id]
			if kept {
				note := ""
				if !isStored {
					note = survivalNote(ov.Name, p, oid, where)
				}
				out = append(out, removal(old.Name, ov.Name, p, note, deprecated))
			}
			switch {
			case kept && isStored:
				// Objects stored at this version lose it as they are read,
				// whatever other versions hold.
				q := renamedTo(ov.Name, where)
				if q == "" {
					q = sameGoField(ot, nt, old, nw, ov.Name, p, newFields[ov.Name])
				}
				msg := prunedOnRead(ov.Name, p, q, oid, where, samePath(newFields, p))
				keys := []string{ov.Name + " " + p}
				if len(where) == 0 {
					keys = append(keys, oid.id)
				}
				report(Finding{Rule: "fieldDataLoss", CRD: old.Name, Version: ov.Name, Path: p, Baseline: true, Message: msg}, p, keys...)
			case len(where) == 0:
				msg := fmt.Sprintf("no version holds %s any more: its stored values are pruned on each object's next write", p)
				if strings.HasPrefix(oid.id, "stash ") {
					msg = fmt.Sprintf("%s of %s, which the hub has no field for, lived in the hub's stash annotation; no version holds it any more: its values are lost", p, ov.Name)
				}
				if oid.handWritten != "" {
					msg += fmt.Sprintf(" (unless the hand-written %s puts them elsewhere)", oid.handWritten)
				}
				report(Finding{Rule: "fieldDataLoss", CRD: old.Name, Version: ov.Name, Path: p, Baseline: true, Message: msg}, p, oid.id)
			}
		}
	}
	return out
}

// removal is the finding about property p removed from version v of crd,
// a version that stays: crdify's existingFieldRemoval, with note (where its
// values still live) when there is one, or deprecatedFieldRemoval when the
// baseline deprecated it (deprecate, release, then remove: its clients were
// warned by +crdforge:deprecated's policy).
func removal(crd, v, p, note string, deprecated map[string]map[string]string) Finding {
	msg := fmt.Errorf("%w : %v.%v", existingfieldremoval.ErrRemovedExistingField, v, p).Error()
	if note != "" {
		msg += " (" + note + ")"
	}
	rule := "existingFieldRemoval"
	if text, ok := deprecated[v][p]; ok {
		rule = "deprecatedFieldRemoval"
		msg += fmt.Sprintf(" (deprecated in the baseline: %s)", text)
	}
	return Finding{Rule: rule, CRD: crd, Version: v, Path: p, Message: msg, Baseline: true}
}

// prunedOnRead is the fieldDataLoss message for property p, which version
// v, one objects are stored at, no longer has: q is the property of v that
// serves the same field now, where the identities that still hold it, and
// same the versions that still have p itself.
func prunedOnRead(v, p, q string, oid identity, where, same []string) string {
	var msg string
	switch {
	case q != "":
		msg = fmt.Sprintf("objects stored at %s hold %s, which %s no longer has: the API server prunes it as it reads them (%s now serves the same field as %s, but the rename does not move stored values)", v, p, v, v, q)
	case len(where) == 0 && len(same) > 0:
		msg = fmt.Sprintf("objects stored at %s hold %s, which %s no longer has: the API server prunes it as it reads them (%s still has %s, but converts it to the hub's stash now, not to the field objects were stored with)", v, p, v, strings.Join(same, ", "), p)
	case len(where) == 0:
		msg = fmt.Sprintf("no version holds %s any more: objects stored at %s lose it as the API server reads them, and each object's next write prunes it for good", p, v)
	default:
		msg = fmt.Sprintf("objects stored at %s hold %s, which %s no longer has: the API server prunes it as it reads them, though %s", v, p, v, survivalNote(v, p, oid, where))
	}
	return msg + "; keep it until every object is stored at a version that holds it (move the storage version, then crdforge migrate)"
}

// survivalNote says where a property removed from a version (not one
// objects are stored at) still lives: under a new name in the same version,
// or in other versions.
func survivalNote(version, path string, oid identity, where []string) string {
	if len(where) == 0 {
		return ""
	}
	if q := renamedTo(version, where); q != "" {
		return fmt.Sprintf("renamed: %s now serves it as %s, converted to the same hub field %s, so stored values survive; clients of %s that use %s break", version, q, hubField(oid), version, path)
	}
	var vs []string
	for _, w := range where {
		v, q, _ := strings.Cut(w, " ")
		if q == path {
			vs = append(vs, v)
		} else {
			vs = append(vs, v+" as "+q)
		}
	}
	verb := "holds"
	if len(vs) > 1 {
		verb = "hold"
	}
	return fmt.Sprintf("%s still %s it: stored values are kept", strings.Join(vs, ", "), verb)
}

// samePath lists the versions of the working tree that have path.
func samePath(fields map[string]map[string]bool, path string) []string {
	var out []string
	for _, v := range slices.Sorted(maps.Keys(fields)) {
		if fields[v][path] {
			out = append(out, v)
		}
	}
	return out
}

// sameGoField is the property of version in the working tree (among
// paths) that the baseline's property at path became by a change of JSON
// name only: the same Go field. "" for none, or without both Go trees.
func sameGoField(ot, nt *tree, old, nw *apiextensionsv1.CustomResourceDefinition, version, path string, paths map[string]bool) string {
	if ot == nil || nt == nil {
		return ""
	}
	want := ot.goPath(old.Name, version, path)
	if want == "" {
		return ""
	}
	for _, q := range slices.Sorted(maps.Keys(paths)) {
		if q != path && nt.goPath(nw.Name, version, q) == want {
			return q
		}
	}
	return ""
}

// renamedTo is the property of version, among where, that holds the same
// identity: the removed one's new name. "" for none.
func renamedTo(version string, where []string) string {
	for _, w := range where {
		if v, q, _ := strings.Cut(w, " "); v == version {
			return q
		}
	}
	return ""
}

func hubField(id identity) string {
	if id.pair == nil || id.mapping == nil {
		return id.id
	}
	return fmt.Sprintf("%s (%s)", id.id, id.pair.HubVersion.Name)
}

// storedVersions are the versions objects are stored at: the cluster's
// status.storedVersions, or, without a cluster, the baseline's storage
// version.
func storedVersions(c *apiextensionsv1.CustomResourceDefinition) []string {
	if len(c.Status.StoredVersions) > 0 {
		return c.Status.StoredVersions
	}
	if s := storageVersion(c); s != "" {
		return []string{s}
	}
	return nil
}

// parentID is the identity of a lost property's parent, for reporting only
// the topmost: the parent of its identity when that is a path, else of the
// key's path.
func parentID(id, path string) string {
	if strings.HasPrefix(id, "^") {
		return parent(id)
	}
	if i := strings.LastIndex(id, " "); i >= 0 {
		return id[:i+1] + parent(id[i+1:])
	}
	return parent(path)
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
