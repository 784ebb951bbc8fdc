package widgets_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	kruntime "k8s.io/apimachinery/pkg/runtime"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// reflectionHandler is crdforge's handler without generated codecs: every
// object decoded and encoded by the reflection codec, which passes nothing.
func reflectionHandler(tb testing.TB) http.Handler {
	h, err := webhook.NewHandler(webhook.HandlerOptions{MaxRequestBytes: 1 << 30}, widgetKind())
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// serveReview answers a review of the object obj, raw JSON, at desired.
func serveReview(h http.Handler, obj []byte, desired string) (int, []byte) {
	body := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"1","desiredAPIVersion":"` +
		desired + `","objects":[` + string(obj) + `]}}`)
	r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

// withStatus is a stored v1 Widget whose status member is status, raw
// JSON (none when empty); annotations, when set, are its annotations.
func withStatus(t testing.TB, status, annotations string) []byte {
	w := widget(0)
	w.Status = v1.WidgetStatus{}
	if annotations != "" {
		w.Annotations = nil
	}
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `,"status":{}`, "", 1)
	if annotations != "" {
		s = strings.Replace(s, `"metadata":{`, `"metadata":{"annotations":`+annotations+`,`, 1)
	}
	if status != "" {
		s = s[:len(s)-1] + `,"status":` + status + `}`
	}
	return []byte(s)
}

// passedStatuses are statuses that the generated transcoders must write as
// decoding and encoding them would, or leave to the typed path.
var passedStatuses = []string{
	``, `null`, `{}`, `{"conditions":null}`, `{"conditions":[]}`, `{"observedGeneration":0}`,
	`{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2030-01-02T03:04:05Z","reason":"Built","message":"ok"}],"observedGeneration":2}`,
	`{"conditions":[{"message":"line\u2028sep\u2029par","type":"A\u0042","reason":"<&>","status":"é\"\\"}]}`,
	"{\"conditions\":[{\"message\":\"raw \u2028 sep\",\"type\":\"\xff\xfe bytes\"}]}",
	`{"conditions":[{"type":"","observedGeneration":0,"lastTransitionTime":null},{}]}`,
	`{"conditions":[{"lastTransitionTime":"2030-01-02T04:04:05+01:00"},{"lastTransitionTime":"2030-13-02T03:04:05Z"}]}`,
	`{"observedGeneration":1,"observedGeneration":2}`,
	`{"conditions":[{"type":"a","type":"b"}]}`,
	`{"observedGeneration":"2"}`, `{"observedGeneration":1.0}`, `{"observedGeneration":-0}`, `{"observedGeneration":1e3}`,
	`{"conditions":{}}`, `{"conditions":[1]}`, `[]`, `"status"`,
	`{"unknown":{"a":[1,2]},"conditions":[{"unknown":true,"type":"x"}]}`,
	`{"conditions":[null]}`,
}

// TestPassedStatusAsTheTypedPath converts Widgets with each status, and
// with and without a stash on them, to every version, through the handler
// with generated codecs (which passes the status: it is one JSON form in
// every version) and through the reflection codec: the answers are the
// same bytes.
func TestPassedStatusAsTheTypedPath(t *testing.T) {
	passing, reflection := crdforgeHandler(t), reflectionHandler(t)
	for _, status := range passedStatuses {
		for _, annotations := range []string{"",
			`{"conversion.crdforge.io/v1beta1":"sparse:{\"status\":{\"observedGeneration\":7}}"}`,
			`{"conversion.crdforge.io/v1alpha1":"sparse:{\"spec\":{\"legacyID\":\"W-1\"},\"status\":{\"observedGeneration\":0}}"}`,
		} {
			obj := withStatus(t, status, annotations)
			for _, desired := range []string{"v1", "v1beta1", "v1alpha1"} {
				checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/"+desired)
			}
		}
	}
}

// FuzzPassedStatus: whatever the status, the two handlers answer alike.
func FuzzPassedStatus(f *testing.F) {
	for _, status := range passedStatuses {
		f.Add(status)
	}
	passing, reflection := crdforgeHandler(f), reflectionHandler(f)
	f.Fuzz(func(t *testing.T, status string) {
		obj := withStatus(t, status, "")
		checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/v1beta1")
		checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/v1alpha1")
	})
}

func checkSameAnswer(t *testing.T, passing, reflection http.Handler, obj []byte, desired string) {
	t.Helper()
	gotCode, got := serveReview(passing, obj, desired)
	wantCode, want := serveReview(reflection, obj, desired)
	if gotCode != wantCode || !bytes.Equal(got, want) {
		t.Fatalf("%s of %s\npassing:    %d %s\nreflection: %d %s", desired, obj, gotCode, got, wantCode, want)
	}
}

// withSpec is a stored Widget of version from whose spec is its name (title
// in v1alpha1, displayName elsewhere) followed by members, raw JSON (a
// leading comma each), and annotations as withStatus takes them.
func withSpec(t testing.TB, from, members, annotations string) []byte {
	name := `"displayName":"W"`
	if from == "v1alpha1" {
		name = `"title":"W"`
	}
	obj := withStatus(t, "", annotations)
	var root map[string]json.RawMessage
	if err := json.Unmarshal(obj, &root); err != nil {
		t.Fatal(err)
	}
	root["apiVersion"] = json.RawMessage(`"widgets.example.com/` + from + `"`)
	delete(root, "spec")
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return append(b[:len(b)-1], `,"spec":{`+name+members+`}}`...)
}

// passedSpecMembers are members of a spec that the versions pass (parts,
// finishes and labels: every version holds them alike, and every
// conversion copies them) that the transcoders must write as decoding and
// encoding them would, or leave to the typed path.
var passedSpecMembers = []string{
	``, `,"parts":null`, `,"parts":[]`, `,"finishes":null`, `,"finishes":{}`, `,"labels":null`, `,"labels":{}`,
	`,"parts":[{"name":"gear","count":3,"weight":"250m"},{"name":"bolt","count":12}],"finishes":{"side":{"color":"blue"},"top":{"color":"red","gloss":80}},"labels":{"line":"a"}`,
	`,"labels":{"b":"1","a":"2"}`, `,"labels":{"a":"1","a":"2"}`, `,"labels":{"a":"1","a ":"2","a!":"3"}`,
	`,"labels":{"\u0061":"x","b\n":"y"}`, `,"labels":{"line\u2028":"x"}`, ",\"labels\":{\"\xff\":\"x\"}",
	`,"labels":{"a":null,"b":"<&>","c":"\u2029"}`, `,"labels":{"a":1}`, `,"labels":[]`,
	`,"finishes":{"a":null,"b":{},"c":{"color":"x","gloss":0,"unknown":[1]}}`, `,"finishes":{"z":{"color":"x"},"a":{"color":"y"}}`,
	`,"finishes":{"a":{"gloss":"1"}}`, `,"finishes":{"a":{"gloss":1,"gloss":2}}`,
	`,"parts":[null,{},{"name":"x","count":-0,"weight":"1.50"}]`, `,"parts":[{"weight":"1e3"},{"weight":"0.1Ki"},{"weight":null}]`,
	`,"parts":[{"count":2147483648}]`, `,"parts":[{"count":1.0}]`, `,"parts":{}`, `,"parts":[1]`,
	`,"parts":[],"parts":[{"name":"twice"}]`, `,"labels":{},"labels":{"a":"b"}`,
}

// TestPassedSpecMembersAsTheTypedPath converts Widgets of every version
// with each set of spec members, with and without a stash on them, to
// every version, through the handler with generated codecs and through
// the reflection codec: the answers are the same bytes.
func TestPassedSpecMembersAsTheTypedPath(t *testing.T) {
	passing, reflection := crdforgeHandler(t), reflectionHandler(t)
	for _, members := range passedSpecMembers {
		for _, annotations := range []string{"",
			`{"conversion.crdforge.io/v1":"sparse:{\"spec\":{\"warranty\":{\"years\":2}}}"}`,
			`{"conversion.crdforge.io/v1alpha1":"sparse:{\"spec\":{\"legacyID\":\"W-1\"}}"}`,
		} {
			for _, from := range []string{"v1", "v1beta1", "v1alpha1"} {
				obj := withSpec(t, from, members, annotations)
				for _, desired := range []string{"v1", "v1beta1", "v1alpha1"} {
					checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/"+desired)
				}
			}
		}
	}
}

// FuzzPassedSpecMembers: whatever the spec's members, the two handlers
// answer alike.
func FuzzPassedSpecMembers(f *testing.F) {
	for _, members := range passedSpecMembers {
		f.Add(members)
	}
	passing, reflection := crdforgeHandler(f), reflectionHandler(f)
	f.Fuzz(func(t *testing.T, members string) {
		for _, from := range []string{"v1", "v1alpha1"} {
			obj := withSpec(t, from, members, "")
			checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/v1beta1")
			checkSameAnswer(t, passing, reflection, obj, "widgets.example.com/v1alpha1")
		}
	})
}

// TestStoredWidgetPassesItsMembers: on a Widget as the API server stores
// it, DecodeData passes the status and the spec's parts, finishes and
// labels, and every version's transcoders write them, so that the
// handler takes the passing path the tests above compare with the typed
// one, rather than declining to it.
func TestStoredWidgetPassesItsMembers(t *testing.T) {
	obj, err := json.Marshal(widget(0))
	if err != nil {
		t.Fatal(err)
	}
	tape, ok := typedjson.ObjectTape(obj)
	if !ok {
		t.Fatal("a stored widget has no tape")
	}
	kind := withCodecs([]webhook.Kind{widgetKind()})[0]
	var marks typedjson.Marks
	if err := typedjson.DecodePassing[kruntime.Object](obj, tape, new(v1.Widget), kind.Codecs["v1"].DecodeData, &marks); err != nil {
		t.Fatalf("DecodeData declined a stored widget: %v", err)
	}
	// Every version holds the members passed in one JSON form: each
	// version's transcoders take the v1 widget's.
	for version, c := range kind.Codecs {
		if len(c.Transcode) != 4 {
			t.Fatalf("%s passes %d members, want 4", version, len(c.Transcode))
		}
		for i, transcode := range c.Transcode {
			if marks[i] == 0 {
				t.Fatalf("member %d of a stored widget was not passed", i)
			}
			if _, err := typedjson.Transcode(obj, tape, marks[i], nil, transcode); err != nil {
				t.Errorf("%s's transcoder %d declined a stored widget's member: %v", version, i, err)
			}
		}
	}
}
