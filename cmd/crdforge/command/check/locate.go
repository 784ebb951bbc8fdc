package check

import (
	"go/token"
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
)

// ModelLocator positions findings in the Go sources a model was built
// from: a property at the struct field that produced it (through embedded
// and inline fields, slices, maps and pointers, as encoding/json reads
// them), a version at its root type, a CRD at its kind's root type in its
// highest-priority version.
type ModelLocator struct {
	Model *model.Model
	// File, when set, rewrites a position's file name: a baseline built in
	// a temporary tree names the revision's file instead.
	File func(string) string

	// markers indexes the model's marker comments; built on first use
	// when nil.
	markers *markerIndex
}

// NewModelLocator returns a locator into m's sources, its markers indexed.
func NewModelLocator(m *model.Model) ModelLocator {
	return ModelLocator{Model: m, markers: newMarkerIndex(m)}
}

// Locate implements Locator.
func (l ModelLocator) Locate(crd, version, path string) (token.Position, bool) {
	k := l.kind(crd)
	if k == nil {
		return token.Position{}, false
	}
	if version == "" {
		return l.position(k.Pos())
	}
	ver := kindVersion(k, version)
	if ver == nil {
		return token.Position{}, false
	}
	if path == "" {
		return l.position(ver.Pos())
	}
	pos, ok := fieldPos(ver.Type, path)
	if !ok {
		return token.Position{}, false
	}
	return l.position(pos)
}

func (l ModelLocator) kind(crd string) *model.Kind {
	if l.Model == nil {
		return nil
	}
	for _, g := range l.Model.Groups {
		for _, k := range g.Kinds {
			if k.CRD != nil && k.CRD.Name == crd {
				return k
			}
		}
	}
	return nil
}

func (l ModelLocator) position(p token.Pos) (token.Position, bool) {
	if !p.IsValid() {
		return token.Position{}, false
	}
	pos := l.Model.Fset.Position(p)
	if l.File != nil {
		pos.Filename = l.File(pos.Filename)
	}
	return pos, true
}

// fieldPos walks a crdify property path (^.spec.items[*].name) through the
// Go type t and returns the position of the struct field it ends at; ok is
// false when the path leaves the Go types (a field the tree does not have).
func fieldPos(t types.Type, path string) (token.Pos, bool) {
	steps, ok := splitPath(path)
	if !ok {
		return token.NoPos, false
	}
	var pos token.Pos
	for _, step := range steps {
		if step.items {
			if t, ok = elem(t); !ok {
				return token.NoPos, false
			}
			continue
		}
		f := model.FieldByJSONName(t, step.name)
		if f == nil {
			return token.NoPos, false
		}
		pos, t = f.Pos(), f.Type()
	}
	return pos, pos.IsValid()
}
