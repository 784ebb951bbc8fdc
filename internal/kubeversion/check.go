package kubeversion

import (
	"bytes"
	"errors"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// use is a feature found in a generated file, at the first place it is.
type use struct {
	feature
	pos token.Position
}

// Check warns, at each generated manifest that uses something target does
// not have, what it is and since when Kubernetes has it; once per feature
// and file. dir is the run's directory, which the files' paths are
// relative to. Files that do not parse as YAML (Helm templates) are left
// out: the kustomize manifests beside them hold the same objects.
func Check(dir string, files []output.File, target Release, diags *diag.List) {
	if target.Before(Oldest) {
		diags.Add(diag.Diagnostic{Severity: diag.Warning,
			Msg: "you target Kubernetes " + target.String() + ", older than the oldest crdforge supports, " + Oldest.String()}).
			Note("crdforge's end-to-end tests run on %s and later", Oldest)
	}
	for _, f := range files {
		if f.Delete || !isYAML(f.Path) {
			continue
		}
		for _, u := range uses(output.Abs(dir, f.Path), f.Content) {
			if target.Before(u.since) {
				diags.Add(diag.Diagnostic{Pos: u.pos, Severity: diag.Warning,
					Msg: u.what + " needs Kubernetes " + u.since.String() + "; you target " + target.String()}).
					Note("%s", u.why).
					Help("%s", u.help)
			}
		}
	}
}

func isYAML(path string) bool {
	ext := filepath.Ext(path)
	return ext == ".yaml" || ext == ".yml"
}

// uses are the features the YAML documents in content use, the first use
// of each; none when content is not YAML.
func uses(file string, content []byte) []use {
	var found []use
	seen := map[string]bool{}
	add := func(f feature, n *yaml.Node) {
		if !seen[f.what] {
			seen[f.what] = true
			found = append(found, use{f, token.Position{Filename: file, Line: n.Line, Column: n.Column}})
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if !errors.Is(err, io.EOF) {
				return nil // a Helm template, or not YAML at all
			}
			return found
		}
		if len(doc.Content) == 1 {
			object(doc.Content[0], add)
			walk(doc.Content[0], add)
		}
	}
}

// object finds the features of a whole object: its apiVersion and kind.
func object(n *yaml.Node, add func(feature, *yaml.Node)) {
	apiVersion, kind := value(n, "apiVersion"), value(n, "kind")
	if apiVersion == nil || kind == nil {
		return
	}
	if f, ok := apiFeatures[[2]string{apiVersion.Value, kind.Value}]; ok {
		add(f, kind)
	}
}

// walk finds the features of fields, at any depth under n.
func walk(n *yaml.Node, add func(feature, *yaml.Node)) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			switch {
			case key.Value == "x-kubernetes-validations" && val.Kind == yaml.SequenceNode:
				add(celRules, key)
				rules(val, add)
			case key.Value == "preStop" && value(val, "sleep") != nil:
				add(preStopSleep, keyOf(val, "sleep"))
			}
		}
	}
	for _, c := range n.Content {
		walk(c, add)
	}
}

// rules finds the features of the fields of a list of CEL rules.
func rules(list *yaml.Node, add func(feature, *yaml.Node)) {
	for _, rule := range list.Content {
		if rule.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(rule.Content); i += 2 {
			if f, ok := ruleFields[rule.Content[i].Value]; ok && !isFalse(rule.Content[i+1]) {
				add(f, rule.Content[i])
			}
		}
	}
}

// isFalse is a field set to its zero, which asks for nothing.
func isFalse(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Value == "false" || strings.TrimSpace(n.Value) == "")
}

// value is the value of key in the mapping n, nil when n has none.
func value(n *yaml.Node, key string) *yaml.Node {
	if i := keyIndex(n, key); i >= 0 {
		return n.Content[i+1]
	}
	return nil
}

// keyOf is the key node named key in the mapping n, nil when n has none.
func keyOf(n *yaml.Node, key string) *yaml.Node {
	if i := keyIndex(n, key); i >= 0 {
		return n.Content[i]
	}
	return nil
}

// keyIndex is the index in n.Content of the key named key in the mapping
// n, -1 when n has none.
func keyIndex(n *yaml.Node, key string) int {
	if n == nil || n.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return i
		}
	}
	return -1
}
