package review

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/metrics"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func testTable(t testing.TB) *convert.Table {
	t.Helper()
	table, err := convert.NewTable(convert.Kind{Group: testkit.BoxGroup, Kind: testkit.BoxKind, Hub: testkit.BoxHub, Versions: testkit.BoxVersions()})
	if err != nil {
		t.Fatal(err)
	}
	return table
}

func post(h http.Handler, contentType, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

var (
	reviewBody = testkit.ReviewJSON
	box        = testkit.BoxJSON
)

type decodedReview struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Response   struct {
		UID              string            `json:"uid"`
		ConvertedObjects []json.RawMessage `json:"convertedObjects"`
		Result           struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"result"`
	} `json:"response"`
}

func decode(t *testing.T, w *httptest.ResponseRecorder) decodedReview {
	t.Helper()
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var out decodedReview
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, w.Body)
	}
	return out
}

func TestHandlerConvertsEveryObjectInOrderInTheReviewVersionReceived(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	for _, apiVersion := range []string{"apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"} {
		w := post(h, "application/json", reviewBody(apiVersion, "uid-1", "test.io/v3",
			box("v1", "a", `"hostPort":"h1:1"`),
			box("v2", "b", `"host":"h2","port":"2"`),
			box("v3", "c", `"host":"h3","number":"3"`)))
		out := decode(t, w)
		if out.APIVersion != apiVersion || out.Kind != "ConversionReview" || out.Response.UID != "uid-1" || out.Response.Result.Status != "Success" {
			t.Fatalf("%s: response %+v", apiVersion, out)
		}
		want := []string{
			`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"a","namespace":"ns","uid":"u-a"},"host":"h1","number":"1"}`,
			`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"b","namespace":"ns","uid":"u-b"},"host":"h2","number":"2"}`,
			`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"c","namespace":"ns","uid":"u-c"},"host":"h3","number":"3"}`,
		}
		if len(out.Response.ConvertedObjects) != len(want) {
			t.Fatalf("%d objects, want %d", len(out.Response.ConvertedObjects), len(want))
		}
		for i := range want {
			if got := string(out.Response.ConvertedObjects[i]); got != want[i] {
				t.Errorf("object %d = %s\nwant %s", i, got, want[i])
			}
		}
	}
}

func TestHandlerRefusesBadRequests(t *testing.T) {
	ok := reviewBody("apiextensions.k8s.io/v1", "u", "test.io/v2", box("v1", "a", `"hostPort":"h:1"`))
	for _, tc := range []struct {
		name, method, contentType, body string
		max                             int64
		code                            int
		message                         string
	}{
		{"GET", http.MethodGet, "application/json", ok, 0, 405, "method GET not allowed"},
		{"PUT", http.MethodPut, "application/json", ok, 0, 405, "method PUT not allowed"},
		{"text", http.MethodPost, "text/plain", ok, 0, 415, `unsupported Content-Type "text/plain"`},
		{"no content type", http.MethodPost, "", ok, 0, 415, `unsupported Content-Type ""`},
		{"too large", http.MethodPost, "application/json", ok, 64, 413, "request body larger than 64 bytes"},
		{"malformed JSON", http.MethodPost, "application/json", `{"apiVersion":`, 0, 400, "malformed ConversionReview"},
		{"not an object", http.MethodPost, "application/json", `[]`, 0, 400, "malformed ConversionReview"},
		{"no request", http.MethodPost, "application/json", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}`, 0, 400, "has no request"},
		{"no uid", http.MethodPost, "application/json", reviewBody("apiextensions.k8s.io/v1", "", "test.io/v2"), 0, 400, "request has no uid"},
		{"no desired version", http.MethodPost, "application/json", reviewBody("apiextensions.k8s.io/v1", "u", ""), 0, 400, "has no desiredAPIVersion"},
		{"other apiVersion", http.MethodPost, "application/json", reviewBody("apiextensions.k8s.io/v2", "u", "test.io/v2"), 0, 400, `unsupported apiVersion "apiextensions.k8s.io/v2"`},
		{"other kind", http.MethodPost, "application/json", strings.Replace(ok, "ConversionReview", "AdmissionReview", 1), 0, 400, `unsupported kind "AdmissionReview"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := NewHandler(testTable(t), Options{MaxRequestBytes: tc.max})
			r := httptest.NewRequest(tc.method, "/convert", strings.NewReader(tc.body))
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.message) {
				t.Errorf("got %d %q, want %d containing %q", w.Code, w.Body, tc.code, tc.message)
			}
			if tc.code == 405 && w.Header().Get("Allow") != "POST" {
				t.Errorf("Allow = %q", w.Header().Get("Allow"))
			}
		})
	}
	// A charset parameter is still JSON.
	if w := post(NewHandler(testTable(t), Options{}), "application/json; charset=utf-8", ok); w.Code != 200 {
		t.Errorf("application/json with charset: %d %s", w.Code, w.Body)
	}
}

// The envelope reads as the API server's decoder would read it: names are
// case-sensitive and may be escaped, the last of a repeated name wins, and
// the whole body must be JSON, including what the handler has no use for.
func TestHandlerReadsTheEnvelopeAsTheAPIServerDecodes(t *testing.T) {
	obj := box("v1", "a", `"hostPort":"h:1"`)
	for _, tc := range []struct {
		name, body string
		code       int
		want       string // in the response
	}{
		{"escaped names", `{"api\u0056ersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"u\u0069d":"u1","desiredAPIVersion":"test.io/v2","objects":[` + obj + `]}}`,
			200, `"uid":"u1"`},
		{"the last duplicate wins", `{"apiVersion":"apiextensions.k8s.io/v2","apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u0","uid":"u2","desiredAPIVersion":"test.io/v9","desiredAPIVersion":"test.io/v2","objects":[` + obj + `]}}`,
			200, `"uid":"u2"`},
		{"other case is another name", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"UID":"u3","desiredAPIVersion":"test.io/v2","objects":[]}}`,
			400, "request has no uid"},
		{"invalid JSON in an unused member", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","x":[1,],"request":{"uid":"u","desiredAPIVersion":"test.io/v2","objects":[]}}`,
			400, "malformed ConversionReview: invalid JSON at offset"},
		{"invalid JSON inside an object's metadata", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"test.io/v2","objects":[{"metadata":{"managedFields":[tru]}}]}}`,
			400, "malformed ConversionReview: invalid JSON at offset"},
		{"data after the review", reviewBody("apiextensions.k8s.io/v1", "u", "test.io/v2") + `{}`,
			400, "malformed ConversionReview"},
		{"invalid UTF-8 is accepted, as by the decoders", strings.Replace(reviewBody("apiextensions.k8s.io/v1", "u4", "test.io/v2", obj), `"h:1"`, "\"h\xff:1\"", 1),
			200, `"uid":"u4"`},
		{"an object with no apiVersion", reviewBody("apiextensions.k8s.io/v1", "u5", "test.io/v2", `{"kind":"Box","metadata":{"name":"a","namespace":"ns"}}`),
			200, "converting object 0 (ns/a) to test.io/v2: the object has no apiVersion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := post(NewHandler(testTable(t), Options{}), "application/json", tc.body)
			if w.Code != tc.code || !strings.Contains(w.Body.String(), tc.want) {
				t.Errorf("got %d %s, want %d containing %q", w.Code, w.Body, tc.code, tc.want)
			}
		})
	}
}

func TestHandlerFailsTheReviewNamingTheObject(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	for _, tc := range []struct {
		name    string
		desired string
		object  string
		message string
	}{
		{"conversion error", "test.io/v2", box("v1", "bad", `"hostPort":"nocolon"`),
			"converting object 1 (ns/bad) to test.io/v2: hostPort could not be parsed into a separate host and port"},
		{"panic", "test.io/v2", box("v1", "p", `"hostPort":"panic"`), "converting object 1 (ns/p) to test.io/v2: " + panicked},
		{"unknown kind", "test.io/v2", `{"apiVersion":"test.io/v1","kind":"Crate","metadata":{"name":"c"}}`, "converting object 1 (c) to test.io/v2: unknown kind Crate.test.io"},
		{"unknown version", "test.io/v2", box("v9", "v", `"host":"h"`), "converting object 1 (ns/v) to test.io/v2: unknown version v9 of Box.test.io"},
		{"unknown desired version", "test.io/v9", box("v2", "d", `"host":"h"`), "converting object 0 (ns/fine) to test.io/v9: unknown version v9 of Box.test.io"},
		{"other group", "other.io/v2", box("v2", "g", `"host":"h"`), "cannot convert Box.test.io to another group"},
		{"not an object", "test.io/v2", `1`, "converting object 1 to test.io/v2: 1 is not a JSON object"},
		{"an array", "test.io/v2", ` [{"kind":"Box"}]`, `converting object 1 to test.io/v2: [{"kind":"Box"}] is not a JSON object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := decode(t, post(h, "application/json", reviewBody("apiextensions.k8s.io/v1", "uid-9", tc.desired, box("v1", "fine", `"hostPort":"h:1"`), tc.object)))
			if out.Response.UID != "uid-9" || out.Response.Result.Status != "Failed" || out.Response.Result.Message != tc.message && !strings.Contains(out.Response.Result.Message, tc.message) {
				t.Errorf("response %+v\nwant Failed with %q", out.Response, tc.message)
			}
			if len(out.Response.ConvertedObjects) != 0 {
				t.Errorf("a failed review carries objects")
			}
		})
	}
}

// FuzzHandler throws arbitrary bodies at the handler: it must never panic,
// and must answer either a refusal or a well-formed ConversionReview.
func FuzzHandler(f *testing.F) {
	f.Add(reviewBody("apiextensions.k8s.io/v1", "u", "test.io/v3", box("v1", "a", `"hostPort":"h:1"`), box("v2", "b", `"host":"x"`)))
	f.Add(reviewBody("apiextensions.k8s.io/v1beta1", "u", "test.io/v1", box("v3", "a", `"number":"7"`)))
	f.Add(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"x","desiredAPIVersion":"test.io/v2","objects":[{}]}}`)
	f.Add(`{`)
	h := NewHandler(testTable(f), Options{MaxRequestBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, body string) {
		w := post(h, "application/json", body)
		switch w.Code {
		case http.StatusOK:
			var out decodedReview
			if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.Kind != "ConversionReview" || out.Response.UID == "" {
				t.Fatalf("200 with a bad review %q for %q", w.Body, body)
			}
			if s := out.Response.Result.Status; s != "Success" && s != "Failed" {
				t.Fatalf("result status %q", s)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("unexpected status %d for %q", w.Code, body)
		}
	})
}

// TestHandlerRecordsMetrics posts a good review, a failing one and a refused
// request, and reads the counters back from the registry.
func TestHandlerRecordsMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := metrics.New(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHandler(testTable(t), Options{Metrics: m})
	post(h, "application/json", reviewBody("apiextensions.k8s.io/v1", "u1", "test.io/v2",
		box("v1", "a", `"hostPort":"h:1"`), box("v3", "b", `"host":"h","number":"2"`)))
	post(h, "application/json", reviewBody("apiextensions.k8s.io/v1", "u2", "test.io/v2", box("v1", "bad", `"hostPort":"x"`)))
	post(h, "text/plain", "{}")

	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			key := f.GetName()
			for _, l := range m.GetLabel() {
				key += "{" + l.GetName() + "=" + l.GetValue() + "}"
			}
			switch {
			case m.GetCounter() != nil:
				got[key] = m.GetCounter().GetValue()
			case m.GetHistogram() != nil:
				got[key] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	for key, want := range map[string]float64{
		"crdforge_conversion_requests_total{code=200}":                      2,
		"crdforge_conversion_requests_total{code=415}":                      1,
		"crdforge_conversion_request_duration_seconds":                      3,
		"crdforge_conversion_objects_total{result=converted}":               2,
		"crdforge_conversion_objects_total{result=failed}":                  1,
		"crdforge_conversion_failures_total{reason=conversion_error}":       1,
		"crdforge_conversion_failures_total{reason=unsupported_media_type}": 1,
	} {
		if got[key] != want {
			t.Errorf("%s = %v, want %v", key, got[key], want)
		}
	}
}

// TestHandlerAnswersAPanicWithoutItsText: a conversion that panics is
// answered with a message that says so and names the object, never with
// the panic's text, which may hold a secret of the object or of the
// process and would reach whoever reads the API server's error; the log,
// the operator's, has the text, the stack and what was converted.
func TestHandlerAnswersAPanicWithoutItsText(t *testing.T) {
	log, logs := testkit.NewLogger()
	h := NewHandler(testTable(t), Options{Logger: log})
	w := post(h, "application/json", reviewBody("apiextensions.k8s.io/v1", "uid-p", "test.io/v3", box("v1", "p", `"hostPort":"panic"`)))
	out := decode(t, w)
	if want := "converting object 0 (ns/p) to test.io/v3: " + panicked; out.Response.Result.Status != "Failed" || out.Response.Result.Message != want {
		t.Errorf("result %+v, want Failed with %q", out.Response.Result, want)
	}
	if strings.Contains(w.Body.String(), "s3cr3t") {
		t.Errorf("the response holds the panic's text %q:\n%s", testkit.PanicText, w.Body)
	}
	for _, want := range []string{`"msg":"conversion panicked"`, `"uid":"uid-p"`, `"object":"ns/p"`, `"kind":"Box"`,
		`"from":"test.io/v1"`, `"to":"test.io/v3"`, `"panic":"` + testkit.PanicText + `"`, `"stack":"goroutine `} {
		if !logs.Contains(want) {
			t.Errorf("the log lacks %s:\n%s", want, logs)
		}
	}
}

// brokenWriter is a ResponseRecorder whose body writes fail, as they do once
// the caller has hung up.
type brokenWriter struct{ *httptest.ResponseRecorder }

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

// TestHandlerLogsAResponseThatCannotBeWritten: a converted review that does
// not reach the caller is logged with its uid, the only trace of why the
// API server got no answer.
func TestHandlerLogsAResponseThatCannotBeWritten(t *testing.T) {
	log, logs := testkit.NewLogger()
	h := NewHandler(testTable(t), Options{Logger: log})
	r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(
		reviewBody("apiextensions.k8s.io/v1", "uid-w", "test.io/v2", box("v1", "a", `"hostPort":"h:1"`))))
	r.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(brokenWriter{httptest.NewRecorder()}, r)
	for _, want := range []string{"writing the ConversionReview response failed", `"uid":"uid-w"`, "connection reset by peer"} {
		if !logs.Contains(want) {
			t.Errorf("the logs lack %s:\n%s", want, logs)
		}
	}
}

// The handler reuses its memory from one request to the next: each answer
// is its own review's, byte for byte what encoding/json writes of it, after
// longer and shorter reviews, failed and refused ones.
func TestHandlerAnswersEachReviewAloneOneAfterAnother(t *testing.T) {
	h := NewHandler(testTable(t), Options{})
	converted := func(name, host, port string) json.RawMessage {
		return json.RawMessage(`{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"` + name + `","namespace":"ns","uid":"u-` + name + `"},"host":"` + host + `","number":"` + port + `"}`)
	}
	type result struct {
		Status  string `json:"status"`
		Message string `json:"message,omitempty"`
	}
	type response struct {
		UID              string            `json:"uid"`
		Result           result            `json:"result"`
		ConvertedObjects []json.RawMessage `json:"convertedObjects,omitempty"`
	}
	want := func(apiVersion string, r response) string {
		b, err := json.Marshal(struct {
			APIVersion string   `json:"apiVersion"`
			Kind       string   `json:"kind"`
			Response   response `json:"response"`
		}{apiVersion, "ConversionReview", r})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	v1, v1beta1 := "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"
	for i, tc := range []struct{ body, want string }{
		{reviewBody(v1, "u<1>", "test.io/v3", box("v1", "a", `"hostPort":"h1:1"`), box("v1", "bb", `"hostPort":"host2:22"`), box("v2", "c", `"host":"h3","port":"3"`)),
			want(v1, response{UID: "u<1>", Result: result{Status: "Success"}, ConvertedObjects: []json.RawMessage{converted("a", "h1", "1"), converted("bb", "host2", "22"), converted("c", "h3", "3")}})},
		{reviewBody(v1beta1, "u2", "test.io/v3", box("v1", "d", `"hostPort":"h:4"`)),
			want(v1beta1, response{UID: "u2", Result: result{Status: "Success"}, ConvertedObjects: []json.RawMessage{converted("d", "h", "4")}})},
		{reviewBody(v1, "u3", "test.io/v3", box("v1", "e", `"hostPort":"h:5"`), box("v1", "bad", `"hostPort":"nocolon"`)),
			want(v1, response{UID: "u3", Result: result{Status: "Failed", Message: "converting object 1 (ns/bad) to test.io/v3: hostPort could not be parsed into a separate host and port"}})},
		{reviewBody(v1, "u4", "test.io/v3"), want(v1, response{UID: "u4", Result: result{Status: "Success"}})},
		{reviewBody(v1, "u5", "test.io/v3", box("v1", "p", `"hostPort":"panic"`)),
			want(v1, response{UID: "u5", Result: result{Status: "Failed", Message: "converting object 0 (ns/p) to test.io/v3: " + panicked}})},
		{`{"apiVersion":`, ""},
		{reviewBody(v1, "u6", "test.io/v3", box("v3", "f", `"host":"h6","number":"6"`)),
			want(v1, response{UID: "u6", Result: result{Status: "Success"}, ConvertedObjects: []json.RawMessage{converted("f", "h6", "6")}})},
	} {
		w := post(h, "application/json", tc.body)
		if tc.want == "" {
			if w.Code != http.StatusBadRequest {
				t.Errorf("request %d: %d %s, want 400", i, w.Code, w.Body)
			}
			continue
		}
		if got := w.Body.String(); w.Code != http.StatusOK || got != tc.want {
			t.Errorf("request %d: %d\n got %s\nwant %s", i, w.Code, got, tc.want)
		}
	}
}
