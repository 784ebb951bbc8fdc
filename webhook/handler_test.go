package webhook_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func boxKind() webhook.Kind {
	return webhook.Kind{Group: testkit.BoxGroup, Kind: testkit.BoxKind, Hub: testkit.BoxHub, Versions: testkit.BoxVersions()}
}

func post(h http.Handler, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestNewHandlerAnswersConversionReviews(t *testing.T) {
	h, err := webhook.NewHandler(webhook.HandlerOptions{}, boxKind())
	if err != nil {
		t.Fatal(err)
	}
	w := post(h, testkit.ReviewJSON("apiextensions.k8s.io/v1", "u1", "test.io/v3", testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`)))
	var out struct {
		Response struct {
			UID              string            `json:"uid"`
			ConvertedObjects []json.RawMessage `json:"convertedObjects"`
			Result           struct{ Status string }
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	want := `{"kind":"Box","apiVersion":"test.io/v3","metadata":{"name":"a","namespace":"ns","uid":"u-a"},"host":"h","number":"1"}`
	if out.Response.UID != "u1" || out.Response.Result.Status != "Success" || len(out.Response.ConvertedObjects) != 1 || string(out.Response.ConvertedObjects[0]) != want {
		t.Errorf("response %s", w.Body)
	}
}

func TestNewHandlerRefusesBodiesOverMaxRequestBytes(t *testing.T) {
	h, err := webhook.NewHandler(webhook.HandlerOptions{MaxRequestBytes: 64}, boxKind())
	if err != nil {
		t.Fatal(err)
	}
	w := post(h, testkit.ReviewJSON("apiextensions.k8s.io/v1", "u1", "test.io/v3", testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`)))
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over 64 bytes: %d %s", w.Code, w.Body)
	}
}

func TestNewHandlerRejectsABrokenTable(t *testing.T) {
	broken := boxKind()
	broken.Hub = "v9"
	for name, kinds := range map[string][]webhook.Kind{
		"hub not among the versions": {broken},
		"kind listed twice":          {boxKind(), boxKind()},
	} {
		if h, err := webhook.NewHandler(webhook.HandlerOptions{}, kinds...); err == nil || h != nil || !strings.Contains(err.Error(), "invalid conversion table") {
			t.Errorf("%s: handler %v, error %v", name, h, err)
		}
	}
}

// The metrics go to the Registerer given; a second handler on the same one
// is an error, not a panic, since a main may build its handler more than
// once.
func TestNewHandlerRegistersItsMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	h, err := webhook.NewHandler(webhook.HandlerOptions{Registerer: reg}, boxKind())
	if err != nil {
		t.Fatal(err)
	}
	post(h, testkit.ReviewJSON("apiextensions.k8s.io/v1", "u1", "test.io/v2", testkit.BoxJSON("v1", "a", `"hostPort":"h:1"`)))
	if got := testkit.CounterValue(t, reg, "crdforge_conversion_objects_total", "result", "converted"); got != 1 {
		t.Errorf("objects converted: %v, want 1", got)
	}
	if _, err := webhook.NewHandler(webhook.HandlerOptions{Registerer: reg}, boxKind()); err == nil {
		t.Error("a second handler registered the same metrics")
	}
}
