package widgets_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	ctrlconversion "sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
	kjson "sigs.k8s.io/json"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/examples/widgets/api/v1alpha1"
	"github.com/crdforge/crdforge/examples/widgets/api/v1beta1"
	"github.com/crdforge/crdforge/webhook"
)

// widget is a fully populated v1 Widget, as the API server stores it: with
// labels, annotations, a finalizer, an owner, managedFields and conditions.
func widget(i int) v1.Widget {
	w1, w2 := resource.MustParse("250m"), resource.MustParse("1Ki")
	replicas, yes := int32(3), true
	until := metav1.NewTime(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	return v1.Widget{
		TypeMeta: metav1.TypeMeta{APIVersion: "widgets.example.com/v1", Kind: "Widget"},
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("widget-%d", i), Namespace: "default", UID: "3415a7fc-162b-4300-b5da-fd6083580d66",
			ResourceVersion: "143", Generation: 2, CreationTimestamp: until,
			Labels: map[string]string{"app": "widgets", "tier": "gold"}, Annotations: map[string]string{"owner": "team-a"},
			ManagedFields: managedFields(until),
			Finalizers:    []string{"widgets.example.com/cleanup"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "widget-factory",
				UID: "0b6e2f3c-3d0a-4c84-9a4e-7f1c2b5d8e90", Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		Spec: v1.WidgetSpec{
			DisplayName: "Widget", Size: v1.SizeLarge, Replicas: &replicas,
			Network:  v1.Network{Host: "widget.local", Port: intstr.FromInt32(8080)},
			Parts:    []v1.Part{{Name: "gear", Count: 3, Weight: &w1}, {Name: "spring", Count: 2, Weight: &w2}, {Name: "bolt", Count: 12}},
			Finishes: map[string]v1.Finish{"top": {Color: "red", Gloss: 80}, "side": {Color: "blue"}},
			Labels:   map[string]string{"line": "a"},
			Options:  kruntime.RawExtension{Raw: []byte(`{"fast":true}`)},
			Warranty: &v1.Warranty{Years: 2, Until: &until},
		},
		Status: v1.WidgetStatus{ObservedGeneration: 2, Conditions: []metav1.Condition{
			{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Built", Message: "ok", LastTransitionTime: until},
		}},
	}
}

// managedFields is what the API server records of a Widget created with
// kubectl apply and whose status a controller updates: two managers, as on
// most objects read from a cluster, where managedFields are often the larger
// part of the metadata.
func managedFields(at metav1.Time) []metav1.ManagedFieldsEntry {
	return []metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "widgets.example.com/v1", Time: &at, FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{},"f:owner":{}},"f:labels":{".":{},"f:app":{},"f:tier":{}}},` +
				`"f:spec":{".":{},"f:displayName":{},"f:finishes":{".":{},"f:side":{".":{},"f:color":{}},"f:top":{".":{},"f:color":{},"f:gloss":{}}},"f:labels":{".":{},"f:line":{}},` +
				`"f:network":{".":{},"f:host":{},"f:port":{}},"f:options":{},"f:parts":{},"f:replicas":{},"f:size":{},"f:warranty":{".":{},"f:until":{},"f:years":{}}}}`)},
		{Manager: "widget-controller", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "widgets.example.com/v1", Time: &at, FieldsType: "FieldsV1", Subresource: "status",
			FieldsV1: metav1.NewFieldsV1(`{"f:status":{".":{},"f:conditions":{".":{},"k:{\"type\":\"Ready\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{}}}`)},
	}
}

// reviewOf is a v1 ConversionReview asking for n stored v1 Widgets at
// desired; with v1Only, each carries the warranty that only v1 has, which
// the conversion must stash.
func reviewOf(tb testing.TB, n int, desired string, v1Only bool) []byte {
	objs := make([]v1.Widget, n)
	for i := range objs {
		objs[i] = widget(i)
		if !v1Only {
			objs[i].Spec.Warranty = nil
		}
	}
	b, err := json.Marshal(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"request": map[string]any{"uid": "705ab4f5-6393-11e8-b7cc-42010a800002", "desiredAPIVersion": desired, "objects": objs},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// withCodecs sets a kind's generated codecs, where the tree has them
// (jsoncodec_test.go sets it to the generated webhook's jsoncodec.With): a
// tree without them benchmarks the reflection codec with this same file.
var withCodecs = func(kinds []webhook.Kind) []webhook.Kind { return kinds }

// moreHandlers are handlers that only a tree with generated codecs can
// build (jsoncodec_test.go adds the floor through them), by name.
var moreHandlers = func(testing.TB) map[string]http.Handler { return nil }

// widgetKind is the Widget kind as the generated webhook's main registers
// it, without codecs.
func widgetKind() webhook.Kind {
	return webhook.Kind{
		Group: "widgets.example.com", Kind: "Widget", Hub: "v1",
		Versions: map[string]func() kruntime.Object{
			"v1":       func() kruntime.Object { return new(v1.Widget) },
			"v1beta1":  func() kruntime.Object { return new(v1beta1.Widget) },
			"v1alpha1": func() kruntime.Object { return new(v1alpha1.Widget) },
		},
	}
}

func crdforgeHandler(tb testing.TB) http.Handler {
	h, err := webhook.NewHandler(webhook.HandlerOptions{MaxRequestBytes: 1 << 30}, withCodecs([]webhook.Kind{widgetKind()})...)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

func controllerRuntimeHandler(tb testing.TB) http.Handler {
	scheme := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{v1.AddToScheme, v1beta1.AddToScheme, v1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			tb.Fatal(err)
		}
	}
	return ctrlconversion.NewWebhookHandler(scheme, ctrlconversion.NewRegistry())
}

// floorHandler decodes the review, objects included, as crdforge's handler
// does, and encodes it back with no conversion: the cost of the JSON alone.
type floorHandler struct{}

func (floorHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in, _, ok := readFloorReview[v1.Widget](w, r)
	if !ok {
		return
	}
	out, err := json.Marshal(map[string]any{"apiVersion": in.APIVersion, "kind": in.Kind, "response": map[string]any{
		"uid": in.Request.UID, "result": map[string]string{"status": "Success"}, "convertedObjects": in.Request.Objects,
	}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	// The status is sent: a failed write means the client is gone, and
	// there is no one left to tell.
	_, _ = w.Write(out)
}

// floorReview is a ConversionReview as the floors read it, its objects of
// type O.
type floorReview[O any] struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Request    struct {
		UID               string `json:"uid"`
		DesiredAPIVersion string `json:"desiredAPIVersion"`
		Objects           []O    `json:"objects"`
	} `json:"request"`
}

// readFloorReview reads r's body into a floorReview with the API server's codec,
// answering 400 itself when it cannot; it also returns the body's length.
func readFloorReview[O any](w http.ResponseWriter, r *http.Request) (in floorReview[O], size int, ok bool) {
	var body bytes.Buffer
	if _, err := body.ReadFrom(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return in, 0, false
	}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(body.Bytes(), &in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return in, 0, false
	}
	return in, body.Len(), true
}

// writeFloorResponse writes the ConversionReview response to in, each of
// its objects as each appends it, on a buffer the size of the request; an
// error from each is answered with the status it gives.
func writeFloorResponse(w http.ResponseWriter, in floorReview[json.RawMessage], size int,
	each func(out []byte, raw json.RawMessage) ([]byte, int, error)) {
	head, err := json.Marshal(map[string]any{"apiVersion": in.APIVersion, "kind": in.Kind, "response": map[string]any{
		"uid": in.Request.UID, "result": map[string]string{"status": "Success"}}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// head ends in }}: the objects go in before them.
	out := make([]byte, 0, size+len(head))
	out = append(out, head[:len(head)-2]...)
	out = append(out, `,"convertedObjects":[`...)
	for i, raw := range in.Request.Objects {
		if i > 0 {
			out = append(out, ',')
		}
		var status int
		if out, status, err = each(out, raw); err != nil {
			http.Error(w, err.Error(), status)
			return
		}
	}
	out = append(out, "]}}"...)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out) // as in floorHandler
}

// BenchmarkConversionReview compares, on reviews of 1, 100 and 1000 stored
// v1 Widgets read as v1alpha1 and as v1beta1, with and without data only v1
// holds (which both handlers' conversions stash in an annotation),
// crdforge's handler, controller-runtime's conversion webhook on the same
// types and conversion functions, and the floor of decoding and encoding the
// review alone, with the API server's codec (floor) and, where the tree has
// them, with the generated codecs (floor-generated).
func BenchmarkConversionReview(b *testing.B) {
	handlers := []struct {
		name string
		h    http.Handler
	}{
		{"crdforge", crdforgeHandler(b)},
		{"controller-runtime", controllerRuntimeHandler(b)},
		{"floor", floorHandler{}},
		{"floor-copy", copyFloorHandler{}},
	}
	more := moreHandlers(b)
	for _, name := range slices.Sorted(maps.Keys(more)) {
		handlers = append(handlers, struct {
			name string
			h    http.Handler
		}{name, more[name]})
	}
	for _, desired := range []string{"v1alpha1", "v1beta1"} {
		for _, v1Only := range []bool{false, true} {
			for _, n := range []int{1, 100, 1000} {
				body := reviewOf(b, n, "widgets.example.com/"+desired, v1Only)
				for _, hc := range handlers {
					b.Run(fmt.Sprintf("to=%s/v1only=%t/objects=%d/handler=%s", desired, v1Only, n, hc.name), func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(body)))
						serve := func() *httptest.ResponseRecorder {
							r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
							r.Header.Set("Content-Type", "application/json")
							w := httptest.NewRecorder()
							hc.h.ServeHTTP(w, r)
							return w
						}
						// Checked once, outside the loop: the handlers answer
						// the same review the same way every time, and a
						// search of every answer was up to a tenth of the
						// copy floor's time.
						if w := serve(); w.Code != http.StatusOK || bytes.Contains(w.Body.Bytes(), []byte(`"Failed"`)) || bytes.Contains(w.Body.Bytes(), []byte(`"Failure"`)) {
							b.Fatalf("%s: %d %.300s", hc.name, w.Code, w.Body)
						}
						for b.Loop() {
							serve()
						}
						perObject := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
						b.ReportMetric(1e9/perObject, "objects/s")
						b.ReportMetric(perObject, "ns/object")
					})
				}
			}
		}
	}
}

// TestHandlersAgree checks that the benchmark compares like with like:
// crdforge's and controller-runtime's handlers answer the same objects.
func TestHandlersAgree(t *testing.T) {
	body := reviewOf(t, 3, "widgets.example.com/v1beta1", true)
	var answers [2]map[string]any
	for i, h := range []http.Handler{crdforgeHandler(t), controllerRuntimeHandler(t)} {
		r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if err := json.Unmarshal(w.Body.Bytes(), &answers[i]); err != nil || w.Code != 200 {
			t.Fatalf("handler %d: %d %s", i, w.Code, w.Body)
		}
	}
	got := answers[0]["response"].(map[string]any)["convertedObjects"]
	want := answers[1]["response"].(map[string]any)["convertedObjects"]
	g, _ := json.Marshal(got)
	wnt, _ := json.Marshal(want)
	if !bytes.Equal(g, wnt) {
		t.Errorf("the handlers disagree:\ncrdforge           %s\ncontroller-runtime %s", g, wnt)
	}
}

// TestHandlersAgreeThereAndBack: objects with annotations of their own (a
// kubectl last-applied-configuration, escapes and all) and the warranty only
// v1 holds convert to each other version and back to v1 through crdforge's
// handler, which decodes of their metadata only the stash, as through
// controller-runtime's, which decodes all of it: both answer the same
// objects at each step, and the round trip gives the objects again.
func TestHandlersAgreeThereAndBack(t *testing.T) {
	objs := make([]v1.Widget, 3)
	for i := range objs {
		objs[i] = widget(i)
		objs[i].Annotations["kubectl.kubernetes.io/last-applied-configuration"] = `{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w \u003c\u003e é"}}` + "\n"
		objs[i].Annotations["conversion.crdforge.io/v0"] = "sparse:{}" // another version's stash: not this conversion's to touch
	}
	objs[2].Labels = nil
	want, err := json.Marshal(objs)
	if err != nil {
		t.Fatal(err)
	}
	for _, desired := range []string{"widgets.example.com/v1beta1", "widgets.example.com/v1alpha1"} {
		there := convertAll(t, want, desired)
		back := convertAll(t, there, "widgets.example.com/v1")
		var got, orig []map[string]any
		if err := json.Unmarshal(back, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &orig); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		o, _ := json.Marshal(orig)
		if !bytes.Equal(g, o) {
			t.Errorf("to %s and back:\n got  %s\n want %s", desired, g, o)
		}
	}
}

// convertAll converts the JSON array objs to desired with crdforge's
// handler and controller-runtime's, checks they answer the same objects, and
// returns crdforge's, as a JSON array.
func convertAll(t *testing.T, objs []byte, desired string) []byte {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
		"request": map[string]any{"uid": "u", "desiredAPIVersion": desired, "objects": json.RawMessage(objs)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var answers [2][]byte
	for i, h := range []http.Handler{crdforgeHandler(t), controllerRuntimeHandler(t)} {
		r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var out struct {
			Response struct {
				Result           struct{ Status, Message string }
				ConvertedObjects json.RawMessage
			}
		}
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != http.StatusOK || out.Response.Result.Status != "Success" {
			t.Fatalf("handler %d to %s: %d %v %.500s", i, desired, w.Code, err, w.Body)
		}
		answers[i] = out.Response.ConvertedObjects
	}
	var a, b any
	if err := json.Unmarshal(answers[0], &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(answers[1], &b); err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("to %s the handlers disagree:\ncrdforge           %s\ncontroller-runtime %s", desired, ja, jb)
	}
	return answers[0]
}

// TestCopyFloorAnswersWhatItGot checks the copy floor measures what it says:
// a well-formed response whose objects are the request's, byte for byte.
func TestCopyFloorAnswersWhatItGot(t *testing.T) {
	body := reviewOf(t, 3, "widgets.example.com/v1beta1", true)
	r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	w := httptest.NewRecorder()
	copyFloorHandler{}.ServeHTTP(w, r)
	var in floorReview[json.RawMessage]
	var out struct {
		Response struct {
			UID              string            `json:"uid"`
			ConvertedObjects []json.RawMessage `json:"convertedObjects"`
		} `json:"response"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != http.StatusOK {
		t.Fatalf("%d %v: %.300s", w.Code, err, w.Body)
	}
	if out.Response.UID != in.Request.UID || len(out.Response.ConvertedObjects) != len(in.Request.Objects) {
		t.Fatalf("uid %q, %d objects; want %q, %d", out.Response.UID, len(out.Response.ConvertedObjects), in.Request.UID, len(in.Request.Objects))
	}
	for i, o := range out.Response.ConvertedObjects {
		if !bytes.Equal(o, in.Request.Objects[i]) {
			t.Errorf("object %d: %.200s, want %.200s", i, o, in.Request.Objects[i])
		}
	}
}

// FuzzCopyFloorValidatesAsEncodingJSON checks the copy floor checks what it
// says: its scanner takes exactly what json.Valid takes.
func FuzzCopyFloorValidatesAsEncodingJSON(f *testing.F) {
	for _, seed := range []string{`{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}`, `[01]`, `{"a" :1 , "b":{}}`, `"\x"`, `1.`, `-`, `[1,]`, "\"\x01\"", ` {} `} {
		f.Add([]byte(seed))
	}
	f.Add(reviewOf(f, 2, "widgets.example.com/v1beta1", true))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := floorValid(b), json.Valid(b); got != want {
			t.Errorf("%q: copy floor valid %t, json.Valid %t", b, got, want)
		}
	})
}
