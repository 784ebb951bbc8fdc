package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

var validityCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `-12.0E-3`, `true`, `false`, `null`,
	` {"a" : [1, {"b":"\u00e9\n\"\\\/"}, null] } `, "\"\xff invalid UTF-8 is JSON\"",
	`{"a":1,"a":2}`, `[[[[[]]]]]`,
	// invalid
	``, ` `, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a":1 "b":2}`, `{a:1}`,
	`01`, `1.`, `.5`, `-`, `1e`, `+1`, `0x1`, `tru`, `nul`, `True`, `"\x"`, `"\u12"`, `"\u12g4"`,
	"\"tab\tin a string\"", `"unterminated`, `{"a":1}}`, `{"a":1} x`, `[1]]`, `"\`,
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range validityCases {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", in, got, want)
		}
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if Valid([]byte(deep)) {
		t.Error("nesting past the limit accepted")
	}
}

// FuzzValid checks the one-pass validation against encoding/json's.
func FuzzValid(f *testing.F) {
	for _, in := range validityCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := Valid(in), json.Valid(in); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", in, got, want)
		}
		// ParseReview fails with a syntax error exactly on invalid JSON.
		_, err := ParseReview(in)
		var syntax *SyntaxError
		if errors.As(err, &syntax) == json.Valid(in) {
			t.Errorf("ParseReview(%q): %v, json.Valid says %v", in, err, json.Valid(in))
		}
	})
}

func TestParseReviewReadsTheEnvelopeAndEveryObject(t *testing.T) {
	body := `{"kind":"Nope","api\u0056ersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","extra":[1,{"x":"]"}],
	"request":{"uid":"u0","uid":"u1","desiredAPIVersion":"g/v2","objects":[
		{"apiVersion":"g/v0","kind":"K","api\u0056ersion":"g/v1","metadata":{"name":"a"},"spec":{"apiVersion":"nested/v9"}},
		{"kind":"K","metadata":null},
		{"apiVersion":"g/v1"}
	]}}`
	r, err := ParseReview([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if r.APIVersion != "apiextensions.k8s.io/v1" || r.Kind != "ConversionReview" || r.Request == nil ||
		r.Request.UID != "u1" || r.Request.DesiredAPIVersion != "g/v2" || len(r.Request.Objects) != 3 {
		t.Fatalf("review %+v, request %+v", r, r.Request)
	}
	o := r.Request.Objects
	if o[0].APIVersion != "g/v1" || !o[0].HasAPIVersion || o[0].Kind != "K" || string(o[0].Metadata) != `{"name":"a"}` ||
		!strings.HasPrefix(string(o[0].Raw), `{"apiVersion":"g/v0"`) || !strings.HasSuffix(string(o[0].Raw), `"nested/v9"}}`) {
		t.Errorf("object 0: %+v", o[0])
	}
	if o[1].HasAPIVersion || o[1].Kind != "K" || o[1].Metadata != nil {
		t.Errorf("object 1: %+v", o[1])
	}
	if !o[2].HasAPIVersion || o[2].HasKind {
		t.Errorf("object 2: %+v", o[2])
	}
	for _, body := range []string{`{"request":null}`, `{}`} {
		if r, err := ParseReview([]byte(body)); err != nil || r.Request != nil {
			t.Errorf("%s: %+v, %v", body, r, err)
		}
	}
}

func TestParseReviewRefusesInvalidJSONAndOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		body   string
		syntax bool
		msg    string
	}{
		{`{"request":{"objects":[{"a":1}]}`, true, "invalid JSON"},
		{`{"request":{"objects":[{"a":01}]}}`, true, "invalid JSON"},
		{`{"request":{"objects":[{"metadata":{"managedFields":[}}]}}`, true, "invalid JSON"},
		{`{"request":{}} {}`, true, "data after"},
		{`[]`, false, "not a JSON object"},
		{`{"request":[]}`, false, "request is [], not an object"},
		{`{"request":{"objects":{}}}`, false, "request.objects is {}, not an array"},
		{`{"request":{"uid":7}}`, false, "request.uid is 7, not a string"},
		{`{"apiVersion":["x"]}`, false, `apiVersion is ["x"], not a string`},
		// A shape error does not hide a syntax error later on.
		{`{"apiVersion":1,"request":{"uid":}}`, true, "invalid JSON"},
	} {
		_, err := ParseReview([]byte(tc.body))
		var syntax *SyntaxError
		if err == nil || errors.As(err, &syntax) != tc.syntax || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want a syntax error %v containing %q", tc.body, err, tc.syntax, tc.msg)
		}
	}
}

func TestWithoutManagedFieldsLeavesOutTheMemberAndOneComma(t *testing.T) {
	mf := `"managedFields" : [{"manager":"m","fieldsV1":{"f:a":{}}}]`
	for meta, want := range map[string]string{
		`{` + mf + `,"name":"a"}`:                   `{"name":"a"}`,
		`{"name":"a", ` + mf + ` ,"uid":"u"}`:       `{"name":"a", "uid":"u"}`,
		`{"name":"a" , ` + mf + `}`:                 `{"name":"a" }`,
		`{ ` + mf + ` }`:                            `{  }`,
		`{"name":"a"}`:                              `{"name":"a"}`,
		`{"managedFields":1,"name":"a",` + mf + `}`: `{"managedFields":1,"name":"a"}`,
	} {
		raw := `{"kind":"K","metadata":` + meta + `,"spec":{"managedFields":[1]}}`
		o, err := ParseObject([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		got := string(o.WithoutManagedFields())
		if w := `{"kind":"K","metadata":` + want + `,"spec":{"managedFields":[1]}}`; got != w || !json.Valid([]byte(got)) {
			t.Errorf("%s:\n got %s\nwant %s", meta, got, w)
		}
		if string(o.Metadata) != meta {
			t.Errorf("metadata %s, want %s", o.Metadata, meta)
		}
	}
}

// appendJSONString quotes s as encoding/json does.
func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}

// Labels and annotations are edited in place: an entry the edit does not
// decide on, or whose value it keeps, stays as it came in, escapes and all;
// the others are dropped, and New's other entries added, sorted; an edited
// map left empty is left out; every other member stays as it was.
func TestAppendLabelsAndAnnotationsEditsTheMaps(t *testing.T) {
	meta := `{"name":"a","labels":{"x":"1","k\u0065ep":"s\u0061me"},"managedFields":[{"manager":"m"}],"annotations":{"old":"1","conversion.crdforge.io/v1":"stale","kubectl":"{\"big\":1}"},"uid":"u"}`
	for _, tc := range []struct {
		name                string
		labels, annotations MapEdit
		want                string
	}{
		{"every entry decoded",
			MapEdit{Old: map[string]string{"x": "1", "keep": "same"}, New: map[string]string{"keep": "same", "y": "2"}, All: true},
			MapEdit{Old: map[string]string{"old": "1", "conversion.crdforge.io/v1": "stale", "kubectl": `{"big":1}`}, New: map[string]string{"b": "2", "a": "1"}, All: true},
			`{"name":"a","labels":{"k\u0065ep":"s\u0061me","y":"2"},"managedFields":[{"manager":"m"}],"annotations":{"a":"1","b":"2"},"uid":"u"}`},
		{"a stash added, every entry decoded",
			MapEdit{Old: map[string]string{"x": "1", "keep": "same"}, New: map[string]string{"x": "1", "keep": "same"}, All: true},
			MapEdit{Old: map[string]string{"old": "1", "conversion.crdforge.io/v1": "stale", "kubectl": `{"big":1}`},
				New: map[string]string{"old": "1", "conversion.crdforge.io/v1": "stale", "kubectl": `{"big":1}`, "conversion.crdforge.io/v2": "new"}, All: true},
			`{"name":"a","labels":{"x":"1","k\u0065ep":"s\u0061me"},"managedFields":[{"manager":"m"}],"annotations":{"old":"1","conversion.crdforge.io/v1":"stale","kubectl":"{\"big\":1}","conversion.crdforge.io/v2":"new"},"uid":"u"}`},
		{"only the stash decoded",
			MapEdit{},
			MapEdit{Old: map[string]string{"conversion.crdforge.io/v1": "stale"}, New: map[string]string{"conversion.crdforge.io/v2": "new"}},
			`{"name":"a","labels":{"x":"1","k\u0065ep":"s\u0061me"},"managedFields":[{"manager":"m"}],"annotations":{"old":"1","kubectl":"{\"big\":1}","conversion.crdforge.io/v2":"new"},"uid":"u"}`},
		{"emptied",
			MapEdit{Old: map[string]string{"x": "1", "keep": "same"}, All: true},
			MapEdit{Old: map[string]string{"old": "1", "conversion.crdforge.io/v1": "stale", "kubectl": `{"big":1}`}},
			`{"name":"a","managedFields":[{"manager":"m"}],"uid":"u"}`},
	} {
		got, err := AppendLabelsAndAnnotations([]byte("before"), []byte(meta), tc.labels, tc.annotations, appendJSONString)
		if err != nil || string(got) != "before"+tc.want {
			t.Errorf("%s:\n got  %s, %v\n want before%s", tc.name, got, err, tc.want)
		}
	}
	got, err := AppendLabelsAndAnnotations(nil, []byte(`{"name":"a","labels":null}`), MapEdit{New: map[string]string{"n": "1"}}, MapEdit{New: map[string]string{"a": "1"}}, appendJSONString)
	if want := `{"name":"a","labels":{"n":"1"},"annotations":{"a":"1"}}`; err != nil || string(got) != want {
		t.Errorf("maps not there: %s, %v; want %s", got, err, want)
	}
}

func TestReplaceMember(t *testing.T) {
	got, err := ReplaceMember([]byte(`{"kind":"K","metadata":{"creationTimestamp":null},"spec":{"metadata":1}}`), "metadata", []byte(`{"name":"a"}`))
	if err != nil || string(got) != `{"kind":"K","metadata":{"name":"a"},"spec":{"metadata":1}}` {
		t.Errorf("%s, %v", got, err)
	}
	if _, err := ReplaceMember([]byte(`{"kind":"K"}`), "metadata", []byte(`{}`)); err == nil {
		t.Error("replaced a member that is not there")
	}
}

// Parse reuses a Review for one review after another: what the next holds
// is all it holds, however much longer the last one was.
func TestReviewParseForgetsTheLastReview(t *testing.T) {
	var r Review
	long := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u1","desiredAPIVersion":"g/v2","objects":[{"apiVersion":"g/v1","kind":"K"},{"apiVersion":"g/v1","kind":"K"},{"apiVersion":"g/v0","kind":"J"}]}}`
	short := `{"apiVersion":"apiextensions.k8s.io/v1beta1","request":{"uid":"u2","objects":[{"kind":"K"}]}}`
	if err := r.Parse([]byte(long)); err != nil || len(r.Request.Objects) != 3 || r.Request.Objects[2].Kind != "J" {
		t.Fatalf("%+v, %v", r.Request, err)
	}
	if err := r.Parse([]byte(short)); err != nil {
		t.Fatal(err)
	}
	o := r.Request.Objects
	if r.APIVersion != "apiextensions.k8s.io/v1beta1" || r.Kind != "" || r.Request.UID != "u2" || r.Request.DesiredAPIVersion != "" ||
		len(o) != 1 || o[0].HasAPIVersion || o[0].Kind != "K" || string(o[0].Raw) != `{"kind":"K"}` {
		t.Errorf("review %+v, request %+v", r, r.Request)
	}
	if err := r.Parse([]byte(`{"request":null}`)); err != nil || r.Request != nil || r.APIVersion != "" {
		t.Errorf("%+v, %v", r, err)
	}
	if err := r.Parse([]byte(long)); err != nil {
		t.Fatal(err)
	}
	if err := r.Parse([]byte(`{"request":{"objects":[}`)); err == nil || r.Request != nil || r.APIVersion != "" {
		t.Errorf("a failed Parse kept %+v (%v)", r, err)
	}
}

// compact is b, JSON, without the space between its tokens.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return buf.String()
}

// AppendMetadata, from the members the first pass noted, writes what
// AppendLabelsAndAnnotations writes walking the metadata again, but for
// the space between members, which it may copy as it came in.
func TestAppendMetadataAgreesWithAWalk(t *testing.T) {
	metas := []string{
		`{"name":"a","labels":{"x":"1"}, "managedFields":[{"manager":"m"}],"annotations":{"old":"1"},"uid":"u","labels":{"x":"2"}}`,
		`{ "l\u0061bels" : {"x":"1"} , "name" : "b" }`,
		`{"annotations":{},"labels":{}}`,
		`{}`,
		`{"name":"c"}`,
	}
	var objects []string
	for _, m := range metas {
		objects = append(objects, `{"apiVersion":"g/v1","kind":"K","metadata":`+m+`,"spec":{"labels":{"no":"t"}}}`)
	}
	r, err := ParseReview([]byte(`{"request":{"objects":[` + strings.Join(objects, ",") + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range metas {
		for _, edits := range [][2]MapEdit{
			{{All: true}, {All: true}},
			{{New: map[string]string{"new": "l", "x": "1"}, All: true}, {New: map[string]string{"a": "1", "b": "<2>"}, All: true}},
			{{Old: map[string]string{"x": "2"}}, {New: map[string]string{"a": "1"}}},
		} {
			want, err := AppendLabelsAndAnnotations([]byte("x"), []byte(m), edits[0], edits[1], appendJSONString)
			if err != nil {
				t.Fatal(err)
			}
			o, err := ParseObject([]byte(objects[i]))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range []*Object{&r.Request.Objects[i], &o} {
				if o.metaMembers == nil && m != `{}` {
					t.Errorf("%s: no members noted", m)
				}
				got, err := o.AppendMetadata([]byte("x"), edits[0], edits[1], appendJSONString)
				if err != nil || compact(t, got[1:]) != compact(t, want[1:]) {
					t.Errorf("%s: got %s, %v\nwant %s", m, got, err, want)
				}
			}
		}
	}
}

// An element of request.objects that is not an object is read as one object
// of the request, marked: its failure is its own, not the review's.
func TestAnElementThatIsNotAnObjectIsReadAsOne(t *testing.T) {
	r, err := ParseReview([]byte(`{"request":{"objects":[{"kind":"A"}, 7 ,null]}}`))
	if err != nil {
		t.Fatal(err)
	}
	objs := r.Request.Objects
	if len(objs) != 3 || objs[0].NotObject || objs[0].Kind != "A" ||
		!objs[1].NotObject || string(objs[1].Raw) != "7" || !objs[2].NotObject || string(objs[2].Raw) != "null" {
		t.Errorf("objects %+v", objs)
	}
}

// TestPlainWordIsPlainInStringEightTimes checks plainWord against the
// byte table on every byte in every position, among plain neighbours and
// among other stops.
func TestPlainWordIsPlainInStringEightTimes(t *testing.T) {
	for pos := 0; pos < 8; pos++ {
		for c := 0; c < 256; c++ {
			for _, fill := range []byte{'a', 0x21, 0x7f, 0x23, 0x5d, 0x1f, 0x80} {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[pos] = byte(c)
				want := true
				for _, b := range w {
					want = want && plainInString[b]
				}
				if got := plainWord(binary.LittleEndian.Uint64(w[:])); got != want {
					t.Fatalf("plainWord(% x) = %v, want %v", w, got, want)
				}
			}
		}
	}
}
