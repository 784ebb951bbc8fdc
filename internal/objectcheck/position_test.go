package objectcheck

import (
	"fmt"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

const located = `apiVersion: g.example.com/v1
kind: Thing
metadata:
  labels:
    app.kubernetes.io/name: x
spec:
  ports:
  - name: a
  - name: bcd
    port: 80
  selector: {a.b: c, a: {b: d}}
`

// Locate finds a field as each of the API server's path forms writes it:
// field.Path's indices and keys in brackets (a key may hold dots and
// slashes), pruning's dotted map keys; a missing field is reported at the
// object that lacks it.
func TestLocateFindsTheFieldAsThePathNamesIt(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(located), &doc); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{"", "1:1"},
		{"spec", "6:1"},
		{"spec.ports[1].name", "9:5"},
		{"spec.ports[1]", "9:5"},
		{"spec.ports[1].port", "10:5"},
		{"metadata.labels[app.kubernetes.io/name]", "5:5"},
		{"metadata.labels.app.kubernetes.io/name", "5:5"}, // pruning's form
		{"spec.selector.a.b", "11:14"},                    // the longest key wins
		{"spec.selector[a].b", "11:26"},
		{"spec.ports[2].name", "7:3"}, // no such item: the list
		{"spec.missing", "6:1"},       // required: the object that lacks it
	} {
		line, col := Locate(doc.Content[0], tt.path)
		if got := fmt.Sprintf("%d:%d", line, col); got != tt.want {
			t.Errorf("Locate(%q) = %s, want %s", tt.path, got, tt.want)
		}
	}
}
