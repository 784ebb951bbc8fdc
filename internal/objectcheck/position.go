package objectcheck

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Locate is where in top the field a path names is written: its key in a
// mapping, its item in a sequence. The path is written as the API server
// writes paths: field.Path's "spec.ports[0].name" and "metadata.labels[app]",
// or pruning's "spec.extra" and "spec.labels.app" for a map's key. A field
// that is not there (a required one) is reported where the deepest field
// that is starts: the object that lacks it. Keys may hold dots and brackets, so each
// step takes the longest key of the mapping that the path goes on from.
func Locate(top *yaml.Node, path string) (line, column int) {
	n, at := top, top
	rest := path
	for rest != "" {
		next, written, r, ok := step(n, rest)
		if !ok {
			break
		}
		n, at, rest = next, written, r
	}
	return at.Line, at.Column
}

// step follows the first step of path from n: a mapping's key (after a
// dot, or in brackets) or a sequence's index (in brackets). It returns the
// node reached, the node that writes it (the key, for a mapping's value)
// and the rest of the path.
func step(n *yaml.Node, path string) (value, written *yaml.Node, rest string, ok bool) {
	path = strings.TrimPrefix(path, ".")
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	bracket := strings.HasPrefix(path, "[")
	switch {
	case n.Kind == yaml.SequenceNode && bracket:
		end := strings.IndexByte(path, ']')
		i, err := strconv.Atoi(path[1:max(end, 1)])
		if end < 0 || err != nil || i < 0 || i >= len(n.Content) {
			return nil, nil, "", false
		}
		return n.Content[i], n.Content[i], path[end+1:], true
	case n.Kind == yaml.MappingNode && bracket:
		return key(n, path[1:], "]")
	case n.Kind == yaml.MappingNode:
		return key(n, path, ".", "[")
	}
	return nil, nil, "", false
}

// key finds the longest key of mapping n that path starts with and that
// one of ends (or the path's end) follows; it returns the key's value, the
// key, and the path after the key (and after a closing bracket).
func key(n *yaml.Node, path string, ends ...string) (value, written *yaml.Node, rest string, ok bool) {
	best := -1
	bestLen := -1
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if len(k) <= bestLen || !strings.HasPrefix(path, k) || !endsAt(path[len(k):], ends) {
			continue
		}
		best, bestLen = i, len(k)
	}
	if best < 0 {
		return nil, nil, "", false
	}
	return n.Content[best+1], n.Content[best], strings.TrimPrefix(path[bestLen:], "]"), true
}

// endsAt reports whether rest is empty or starts with one of ends.
func endsAt(rest string, ends []string) bool {
	if rest == "" {
		return true
	}
	for _, e := range ends {
		if strings.HasPrefix(rest, e) {
			return true
		}
	}
	return false
}
