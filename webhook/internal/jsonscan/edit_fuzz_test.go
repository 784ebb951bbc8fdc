package jsonscan

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAppendLabelsAndAnnotations: the metadata written back decodes to the
// annotations the edit asks for: New, and, where the decoder read only some
// entries (those of keys starting with "p"), every other entry as it came
// in; duplicate keys, escapes and invalid UTF-8 included. AppendMetadata,
// which edits the maps in place when it can, writes the same.
func FuzzAppendLabelsAndAnnotations(f *testing.F) {
	f.Add("a", "1", "p1", "stale", "a", "2", "p2", "new", true, false)
	f.Add("k\u00e9", "\u2028", "p", "<&>", "p", "x", "k\u00e9", "\xff", false, true)
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2, nk1, nv1, nk2, nv2 string, all, drop bool) {
		raw := `{"name":"n","annotations":{` + member(k1, v1) + `,` + member(k2, v2) + `},"uid":"u"}`
		var in struct{ Annotations map[string]string }
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Skip()
		}
		e := MapEdit{All: all, Old: map[string]string{}, New: map[string]string{}}
		for k, v := range in.Annotations {
			if all || strings.HasPrefix(k, "p") {
				e.Old[k] = v
			}
		}
		maps.Copy(e.New, e.Old)
		if drop {
			for k := range e.New {
				delete(e.New, k)
				break
			}
		}
		e.New[nk1], e.New[nk2] = nv1, nv2
		if !utf8.ValidString(nk1) || !utf8.ValidString(nk2) {
			// Two keys that differ in invalid UTF-8 alone are one key to
			// the API server, whichever value it reads last: encoding/json
			// writes such a map the same way.
			t.Skip()
		}
		want := map[string]string{}
		for k, v := range in.Annotations {
			if _, decoded := e.Old[k]; !decoded {
				if _, set := e.New[k]; !set {
					want[k] = v
				}
			}
		}
		for k, v := range e.New {
			// What the decoder makes of the new entry, invalid UTF-8
			// replaced, as the API server reads it.
			var kv map[string]string
			if err := json.Unmarshal([]byte(`{`+member(k, v)+`}`), &kv); err != nil {
				t.Fatal(err)
			}
			maps.Copy(want, kv)
		}
		got, err := AppendLabelsAndAnnotations(nil, []byte(raw), MapEdit{All: true}, e, appendJSONString)
		if err != nil {
			t.Fatal(err)
		}
		o, err := ParseObject([]byte(`{"metadata":` + raw + `}`))
		if err != nil {
			t.Fatal(err)
		}
		spliced, err := o.AppendMetadata(nil, MapEdit{All: true}, e, appendJSONString)
		if err != nil || compact(t, spliced) != compact(t, got) {
			t.Errorf("%s edited by %+v: AppendMetadata wrote\n%s, %v\nAppendLabelsAndAnnotations\n%s", raw, e, spliced, err, got)
		}
		var out struct {
			Name, UID   string
			Annotations map[string]string
		}
		if err := json.Unmarshal(got, &out); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		if out.Name != "n" || out.UID != "u" || !maps.Equal(out.Annotations, want) && (len(out.Annotations) > 0 || len(want) > 0) {
			t.Errorf("%s edited by %+v:\n got %s\nwant annotations %q", raw, e, got, want)
		}
	})
}

// member is a member of a JSON object, its key and value quoted as
// encoding/json quotes them.
func member(k, v string) string {
	kb, _ := json.Marshal(k)
	vb, _ := json.Marshal(v)
	return string(kb) + ":" + string(vb)
}
