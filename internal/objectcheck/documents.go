package objectcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	yaml "go.yaml.in/yaml/v3"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	sigsyaml "sigs.k8s.io/yaml"
)

// Document is one object of a YAML or JSON file, with the YAML node it was
// read from, so that a problem found in the object is reported at the line
// and column of its field.
type Document struct {
	File string
	// Node is the document's top node, a mapping.
	Node *yaml.Node
	// Object is the object as the API server decodes it: kubectl's YAML to
	// JSON, integers as int64.
	Object map[string]any
}

// ReadDocuments reads every document of a YAML (or JSON) file; empty
// documents are skipped.
func ReadDocuments(file string) ([]Document, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var docs []Document
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if len(n.Content) == 0 || n.Content[0].Tag == "!!null" {
			continue
		}
		doc, err := document(file, n.Content[0])
		if err != nil {
			return nil, err
		}
		docs = append(docs, doc)
	}
}

// document decodes top as kubectl does (sigs.k8s.io/yaml, so that a date
// stays a string), after yaml.v3 has given it its positions.
func document(file string, top *yaml.Node) (Document, error) {
	at := fmt.Sprintf("%s:%d:%d", file, top.Line, top.Column)
	if top.Kind != yaml.MappingNode {
		return Document{}, fmt.Errorf("%s: want an object (a map with apiVersion and kind)", at)
	}
	y, err := yaml.Marshal(top)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", at, err)
	}
	j, err := sigsyaml.YAMLToJSON(y)
	if err != nil {
		return Document{}, fmt.Errorf("%s: %w", at, err)
	}
	var obj map[string]any
	if err := utiljson.Unmarshal(j, &obj); err != nil {
		return Document{}, fmt.Errorf("%s: %w", at, err)
	}
	return Document{File: file, Node: top, Object: obj}, nil
}
