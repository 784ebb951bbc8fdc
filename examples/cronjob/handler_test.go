package cronjob_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	v1 "github.com/crdforge/crdforge/examples/cronjob/api/v1"
	"github.com/crdforge/crdforge/examples/cronjob/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/runtime/conversiontest"
	"github.com/crdforge/crdforge/webhook"
)

// The webhook with the generated codecs decodes each object from the
// tokens its read of the review recorded (jsonscan's tape), without its
// managedFields; without codecs, it decodes the object's bytes by
// reflection. Both must answer every review with the same bytes: these
// tests send random CronJobs, managedFields and all, to both.

func cronJobKinds() []webhook.Kind {
	return []webhook.Kind{{Group: "batch.tutorial.kubebuilder.io", Kind: "CronJob", Hub: "v1", Versions: cronJobVersions}}
}

// answer is what h answers a review of objs, asking for desired.
func answer(tb testing.TB, h http.Handler, desired string, objs ...[]byte) (int, []byte) {
	tb.Helper()
	body := fmt.Appendf(nil, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":%q,"objects":[%s]}}`,
		desired, bytes.Join(objs, []byte(",")))
	r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

func handlers(tb testing.TB) (generated, reflection http.Handler) {
	tb.Helper()
	generated, err := webhook.NewHandler(webhook.HandlerOptions{}, jsoncodec.With(cronJobKinds())...)
	if err != nil {
		tb.Fatal(err)
	}
	reflection, err = webhook.NewHandler(webhook.HandlerOptions{}, cronJobKinds()...)
	if err != nil {
		tb.Fatal(err)
	}
	return generated, reflection
}

func checkSameAnswers(t *testing.T, generated, reflection http.Handler, objs ...[]byte) {
	t.Helper()
	for _, desired := range []string{"batch.tutorial.kubebuilder.io/v1", "batch.tutorial.kubebuilder.io/v2"} {
		gotCode, got := answer(t, generated, desired, objs...)
		wantCode, want := answer(t, reflection, desired, objs...)
		if gotCode != wantCode || !bytes.Equal(got, want) {
			t.Fatalf("to %s, objects\n%s\nwith generated codecs: %d %s\nby reflection:         %d %s", desired, bytes.Join(objs, []byte("\n")), gotCode, got, wantCode, want)
		}
	}
}

// randomCronJobs are n random CronJobs of each version, as the API server
// writes them, each with the managedFields of two managers.
func randomCronJobs(tb testing.TB, seed int64, n int) [][]byte {
	fill := randfill.NewWithSeed(seed).NilChance(0.1).NumElements(1, 2).MaxDepth(12).Funcs(conversiontest.DefaultFillFuncs()...)
	at := metav1.NewTime(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	var out [][]byte
	for _, v := range []string{"v1", "v2"} {
		for range n {
			obj := cronJobVersions[v]()
			fill.Fill(obj)
			if c, ok := obj.(*v1.CronJob); ok {
				c.Spec.Schedule = "*/5 * * * *" // what v2's structured schedule can hold
			}
			obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{Group: "batch.tutorial.kubebuilder.io", Version: v, Kind: "CronJob"})
			meta := obj.(metav1.Object)
			meta.SetManagedFields([]metav1.ManagedFieldsEntry{
				{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "batch.tutorial.kubebuilder.io/" + v, Time: &at, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:schedule":{}}}`)},
				{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate, Time: &at, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:status":{".":{}}}`), Subresource: "status"},
			})
			data, err := apiServerJSON(tb, obj)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

func TestHandlerAnswersWithGeneratedCodecsAsByReflection(t *testing.T) {
	generated, reflection := handlers(t)
	objs := randomCronJobs(t, 3, 20)
	checkSameAnswers(t, generated, reflection, objs...)
	// Converted, not refused alike: the objects went through both codecs.
	if _, got := answer(t, generated, "batch.tutorial.kubebuilder.io/v2", objs...); !bytes.Contains(got, []byte(`"status":"Success"`)) {
		t.Fatalf("the review failed: %.300s", got)
	}
}

// FuzzHandlerWithGeneratedCodecs mutates one CronJob of a review: whatever
// the bytes, the two handlers answer alike.
func FuzzHandlerWithGeneratedCodecs(f *testing.F) {
	for _, obj := range randomCronJobs(f, 4, 1) {
		f.Add(obj)
	}
	f.Add([]byte(`{"apiVersion":"batch.tutorial.kubebuilder.io/v1","kind":"CronJob","metadata":{"name":"a","managedFields":[],"managedFields":[{}]}}`))
	f.Add([]byte(`{"apiVersion":"batch.tutorial.kubebuilder.io/v2","kind":"CronJob","metadata":{"managedFields":[{"manager":"m"}]},"metadata":{"name":"b"}}`))
	generated, reflection := handlers(f)
	f.Fuzz(func(t *testing.T, obj []byte) {
		checkSameAnswers(t, generated, reflection, obj)
	})
}
