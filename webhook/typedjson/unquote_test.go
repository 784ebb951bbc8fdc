package typedjson

import (
	"encoding/json"
	"testing"
)

// unquote gives what encoding/json gives for every valid string literal:
// escapes of each kind, surrogate pairs and lone surrogates, invalid UTF-8
// left raw in the literal.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{
		`plain`, `{"apiVersion":"v1","kind":"Widget"}` + "\n", "é ü \u2028 <&>", "\x00\x1f\x7f",
		"\xff\xfe", "\xc3\x28", "\xed\xa0\x80", "😀",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Add([]byte(`\uD83D\uDE00 \uD83D x \uDE00 \u0041\/\b\f\n\r\t\"\\`), true)
	f.Fuzz(func(t *testing.T, s []byte, verbatim bool) {
		raw, err := json.Marshal(string(s))
		if err != nil {
			t.Skip()
		}
		if verbatim {
			// s itself between quotes, escapes and raw bytes as they are,
			// when that is a valid literal.
			raw = append(append([]byte{'"'}, s...), '"')
			if !json.Valid(raw) {
				t.Skip()
			}
		}
		var want string
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Skip()
		}
		if got := unquote([]byte("x"), raw); string(got) != "x"+want {
			t.Fatalf("unquote(%s) = %q, encoding/json %q", raw, got[1:], want)
		}
	})
}

func TestUnquoteResolvesEveryEscape(t *testing.T) {
	if got := unquote(nil, []byte(`"a\"b\u00e9\ud83d\ude00\ud83d\/"`)); string(got) != "a\"bé😀\ufffd/" {
		t.Errorf("unquote = %q", got)
	}
}

// BenchmarkUnquote: kubectl's last-applied-configuration annotation of a
// stored widget (JSON quoted in JSON), by unquote and by encoding/json.
func BenchmarkUnquote(b *testing.B) {
	applied, _ := json.Marshal(map[string]any{
		"apiVersion": "widgets.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "widget-7", "namespace": "default", "labels": map[string]string{"app": "widgets", "tier": "gold"}},
		"spec": map[string]any{"displayName": "Widget", "size": "Large", "network": map[string]any{"host": "widget.local", "port": 8080},
			"parts": []map[string]any{{"name": "gear", "count": 3, "weight": "250m"}, {"name": "spring", "count": 2, "weight": "1Ki"}}},
	})
	raw, _ := json.Marshal(string(applied) + "\n")
	for _, c := range []struct {
		name    string
		unquote func(dst, raw []byte) []byte
	}{{"typedjson", unquote}, {"encoding-json", jsonUnquote}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			var dst []byte
			for i := 0; i < b.N; i++ {
				dst = c.unquote(dst[:0], raw)
			}
		})
	}
}
