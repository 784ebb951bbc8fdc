// Package templates holds the text/template files crdforge renders its
// non-Go artifacts from: Kubernetes manifests and kustomizations. Go code is
// never templated; generators build it with jennifer.
//
// Templates are embedded, parsed once, and named by their path below this
// directory without the .tmpl suffix: "webhook/deployment.yaml".
// A template that refers to a missing map key fails instead of printing an
// empty string. Templates below helm/ print Helm templates, whose own actions
// are {{ }}: crdforge's actions there are [[ ]].
//
// Its Go API carries no compatibility promise before v1 (ARCHITECTURE.md):
// crdforge's binary is the product.
package templates

import (
	"bytes"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"text/template"
)

//go:embed webhook/*.tmpl certs/*.tmpl helm/*.tmpl
var files embed.FS

const suffix = ".tmpl"

// helmDir holds the templates of a Helm chart's files.
const helmDir = "helm/"

var all = parse()

func parse() *template.Template {
	root := template.New("").Option("missingkey=error").Funcs(template.FuncMap{
		"base64": func(b []byte) string { return base64.StdEncoding.EncodeToString(b) },
		"indent": indent,
	})
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, suffix) {
			return err
		}
		text, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		t := root.New(strings.TrimSuffix(p, suffix))
		if strings.HasPrefix(p, helmDir) {
			t = t.Delims("[[", "]]")
		}
		_, err = t.Parse(string(text))
		return err
	})
	if err != nil {
		panic(fmt.Sprintf("templates: %v", err)) // embedded at build time: a bug, caught by any test
	}
	return root
}

// indent puts n spaces before every line of s, YAML printed at no
// indentation, so that a block Go code holds lands where a template needs it.
func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "")
}

// Render executes the named template with data.
func Render(name string, data any) ([]byte, error) {
	t := all.Lookup(name)
	if t == nil {
		return nil, fmt.Errorf("templates: no template %q (have %s)", name, strings.Join(Names(), ", "))
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Names lists every template's name, sorted.
func Names() []string {
	var names []string
	for _, t := range all.Templates() {
		if t.Name() != "" {
			names = append(names, t.Name())
		}
	}
	slices.Sort(names)
	return names
}
