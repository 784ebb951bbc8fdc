package crdyaml

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/crdforge/crdforge/internal/output"
)

// goYAML is go-yaml v2's document for v, as controller-gen prints it.
func goYAML(t testing.TB, v map[string]any) []byte {
	t.Helper()
	out, err := yaml.Marshal(yamlValue(clone(v)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// clone deep-copies a generic value, since yamlValue converts in place.
func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = clone(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = clone(e)
		}
		return out
	}
	return v
}

func decode(t testing.TB, jsonDoc []byte) map[string]any {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(jsonDoc))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// Every CRD crdforge's goldens and examples hold (controller-gen's bytes,
// which the golden tests hold crdforge to) prints the same through this
// package as through go-yaml, and without handing any over to go-yaml: the
// printer covers what real CRDs hold.
func TestGoldenCRDsPrintDirectly(t *testing.T) {
	root := filepath.Join("..", "..")
	var files []string
	for _, dir := range []string{"testdata", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// A Helm chart's CRDs are templates: YAML once helm renders them.
			if d.IsDir() && (d.Name() == "_bench" || d.Name() == "charts") {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".yaml") {
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				if bytes.Contains(b, []byte("\nkind: CustomResourceDefinition\n")) {
					files = append(files, path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("found %d CRDs, want the goldens' and examples' (at least 50)", len(files))
	}
	for _, path := range files {
		b, _ := os.ReadFile(path)
		// crdforge's own files: its header, then the document.
		_, body, ours := bytes.Cut(b, []byte(output.YAMLHeader+"\n---\n"))
		if !ours {
			body = bytes.TrimPrefix(b, []byte("---\n"))
		}
		j, err := sigsyaml.YAMLToJSON(body)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		obj := decode(t, j)
		want := goYAML(t, obj)
		got, ok := appendDirect(nil, clone(obj).(map[string]any))
		if !ok {
			t.Errorf("%s: handed over to go-yaml", path)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: differs from go-yaml:\n%s", path, firstDiff(got, want))
		}
		if ours && !bytes.Equal(want, body) {
			t.Errorf("%s: go-yaml does not print the file's own bytes:\n%s", path, firstDiff(want, body))
		}
	}
}

// Generated documents of every shape and awkward text: whatever this
// package prints itself is go-yaml's bytes, and it prints most of them
// itself.
func TestGeneratedDocumentsMatchGoYAML(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	direct, n := 0, 3000
	for i := range n {
		doc := map[string]any{}
		for range 1 + rng.IntN(4) {
			doc[genKey(rng)] = genValue(rng, 0)
		}
		want := goYAML(t, doc)
		got, ok := appendDirect(nil, clone(doc).(map[string]any))
		if !ok {
			continue
		}
		direct++
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d differs from go-yaml:\n%s\ngo-yaml:\n%s\nthis package:\n%s", i, firstDiff(got, want), want, got)
		}
	}
	if direct < n/3 {
		t.Errorf("printed %d of %d documents directly, want at least a third", direct, n)
	}
}

// The strings and keys go-yaml quotes, folds or escapes, each alone as a
// value and as a key at several depths.
func TestStringsMatchGoYAML(t *testing.T) {
	for _, s := range stringSamples {
		for depth := range 4 {
			for _, asKey := range []bool{false, true} {
				doc := nest(s, depth, asKey)
				want := goYAML(t, doc)
				if got, ok := appendDirect(nil, clone(doc).(map[string]any)); ok && !bytes.Equal(got, want) {
					t.Errorf("%q (depth %d, key %v):\n%s", s, depth, asKey, firstDiff(got, want))
				}
			}
		}
	}
}

// Appending keeps what dst held, and a document handed over to go-yaml
// comes out as go-yaml's.
func TestAppendKeepsPrefixAndFallsBack(t *testing.T) {
	doc := map[string]any{"a": "tab\there", "n": json.Number("12345678901234567890123"), "list": []any{"x"}}
	got, err := Append([]byte("head\n"), clone(doc).(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	if want := append([]byte("head\n"), goYAML(t, doc)...); !bytes.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if _, ok := appendDirect(nil, clone(doc).(map[string]any)); ok {
		t.Error("a tab was printed directly; go-yaml escapes it")
	}
}

func nest(s string, depth int, asKey bool) map[string]any {
	var v any = s
	if asKey {
		v = map[string]any{s: "v"}
	}
	for d := range depth {
		if d%2 == 0 {
			v = []any{v, "x"}
		} else {
			v = map[string]any{"key": v}
		}
	}
	return map[string]any{"root": v}
}

var stringSamples = []string{
	"", " ", "a", "-", "- a", "-a", "--- a", "...", ":", "a:", "a: b", "a:b", "?", "? a", "#", "a #b", "a#b",
	"'", "a'b", "'a'", `"`, `a"b`, `\`, "a\\b", "!a", "&a", "*a", "|", ">", "%", "@", "`", "[", "]", "{", "}", ",a", "a,b",
	"true", "True", "yes", "on", "off", "y", "n", "no", "null", "~", "Null", "NULL", "nil", "<<",
	"1", "-1", "+1", "1.5", ".5", "1e3", "0x1F", "0o17", "017", "0b101", "-0b101", "1_000", "1:20", "-1:20:30.5", "2024-01-02", "2024-1-2 3:04:05",
	".inf", "-.inf", ".nan", ".NaN", "+.inf", "1.", "-", "+", ".", "..", "1a", "0.1.2", "Infinity", "inf", "nan",
	" leading", "trailing ", "two  spaces", "a\nb", "a\n\nb", "a\n b", "a \nb", "\nlead", "trail\n", "a\n", "a\n\n", "a\nb\n", "a\n\nb\n", "x\n\n\n", " a\nb",
	"tab\there", "é", "naïve café", "—dash", "😀", "a\u2028b", "\u00a0nbsp", "\ufeffbom", "a\rb", "a\u0085b", "\x7f", "\x01",
	strings.Repeat("word ", 30), strings.Repeat("w", 90) + " tail", strings.Repeat("ab ", 40) + "'", strings.Repeat("x ", 60),
	strings.Repeat("é ", 50), "a: " + strings.Repeat("b ", 50), strings.Repeat("long line of text, ", 8) + "\nsecond line\n\nthird",
	strings.Repeat("k", 128), strings.Repeat("k", 129), strings.Repeat("1", 100), "\"" + strings.Repeat("q ", 45) + "\"",
}

var wordPool = []string{
	"the", "quick", "brown", "fox", "Kind", "v1", "v10", "v2", "x-kubernetes", "$ref", "a-b", "a_b", "a.b", "10", "09", "0",
	":", ": ", " #", "#", "-", "- ", "'", `"`, `\`, "\n", "\n\n", " \n", "\n ", " ", "  ", "\t", "é", "—", "😀", "?", "!", "*",
	"&", "{", "}", "[", "]", "|", ">", "%", "@", "`", ",", "true", "1.5", "0x1F", "2024-01-02", "1:20", "---", "...", "~", "null",
}

func genText(rng *rand.Rand, maxWords int) string {
	var b strings.Builder
	for range rng.IntN(maxWords + 1) {
		w := wordPool[rng.IntN(len(wordPool))]
		if rng.IntN(3) > 0 {
			w = []string{"alpha", "beta", "Gamma", "delta", "Epsilon", "zeta", "eta", "theta"}[rng.IntN(8)]
		}
		b.WriteString(w)
		if rng.IntN(4) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func genKey(rng *rand.Rand) string {
	switch rng.IntN(6) {
	case 0:
		return genText(rng, 3)
	case 1:
		return fmt.Sprintf("%s%d", []string{"v", "item", "a", "port", ""}[rng.IntN(5)], rng.IntN(120))
	}
	return []string{"name", "type", "description", "x-kubernetes-list-type", "properties", "items", "default",
		"minimum", "a", "B", "_x", "$ref", "0", "00", "01", "1", "10", "9", "v1alpha1", "v1beta1", "v1", "é", "on"}[rng.IntN(23)]
}

func genValue(rng *rand.Rand, depth int) any {
	n := 7
	if depth > 5 {
		n = 4
	}
	switch rng.IntN(n) {
	case 0:
		return genText(rng, 30)
	case 1:
		return genText(rng, 3)
	case 2:
		return []any{json.Number("1"), json.Number("-2.5"), json.Number("1e21"), json.Number("0.000001"), true, false, nil}[rng.IntN(7)]
	case 3:
		return map[string]any{}
	case 4:
		m := map[string]any{}
		for range 1 + rng.IntN(4) {
			m[genKey(rng)] = genValue(rng, depth+1)
		}
		return m
	case 5:
		s := make([]any, rng.IntN(4))
		for i := range s {
			s[i] = genValue(rng, depth+1)
		}
		return s
	}
	return strings.Repeat(genText(rng, 4)+"\n", rng.IntN(3)) + genText(rng, 20)
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  got  %q\n  want %q", i+1, x, y)
		}
	}
	return "(same lines)"
}

// FuzzStrings holds a key and a value of any text to go-yaml's bytes, at
// a depth that reaches the fold column sooner.
func FuzzStrings(f *testing.F) {
	for _, s := range stringSamples {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, key, value string) {
		doc := map[string]any{"spec": map[string]any{"versions": []any{map[string]any{key: value, "other": []any{value}}}}}
		want, err := yaml.Marshal(clone(doc))
		if err != nil {
			return
		}
		if got, ok := appendDirect(nil, clone(doc).(map[string]any)); ok && !bytes.Equal(got, want) {
			t.Errorf("key %q value %q:\n%s", key, value, firstDiff(got, want))
		}
	})
}

// BenchmarkPrint prints the cronjob example's CRD (a PodTemplateSpec in
// each of three versions, 1.4 MB of YAML) through go-yaml, as controller-gen
// and crdforge did, and through this package.
func BenchmarkPrint(b *testing.B) {
	path := filepath.Join("..", "..", "examples", "cronjob", "config", "crd", "bases", "batch.tutorial.kubebuilder.io_cronjobs.yaml")
	file, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	j, err := sigsyaml.YAMLToJSON(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("printer=go-yaml", func(b *testing.B) {
		doc := yamlValue(decode(b, j))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := yaml.Marshal(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("printer=crdyaml", func(b *testing.B) {
		doc := decode(b, j)
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := appendDirect(nil, doc); !ok {
				b.Fatal("handed over to go-yaml")
			}
		}
	})
}
