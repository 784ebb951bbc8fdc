package check

import (
	"strings"

	"github.com/crdforge/crdforge/generators/model"
)

// pathStep is one step of a finding's property path: into a property by its
// JSON name, or into the items of a list or the values of a map ("[*]").
type pathStep struct {
	items bool
	name  string
}

// splitPath splits a property path as findings write it ("^.spec.ports[*].name")
// into its steps (the leading ^ may be left out); ok is false when the path
// is not of that form. Every walk
// of a path, over a schema or over Go types, starts here.
func splitPath(path string) (steps []pathStep, ok bool) {
	rest := strings.TrimPrefix(path, "^")
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "[*]"):
			rest = rest[len("[*]"):]
			steps = append(steps, pathStep{items: true})
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			steps = append(steps, pathStep{name: rest[:end]})
			rest = rest[end:]
		default:
			return nil, false
		}
	}
	return steps, true
}

// String is the step as a path writes it.
func (s pathStep) String() string {
	if s.items {
		return "[*]"
	}
	return "." + s.name
}

// kindVersion is k's version called name, or nil.
func kindVersion(k *model.Kind, name string) *model.Version {
	for _, v := range k.Versions {
		if v.Name == name {
			return v
		}
	}
	return nil
}
