package cronjob_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	kruntime "k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/randfill"

	v1 "github.com/crdforge/crdforge/examples/cronjob/api/v1"
	v2 "github.com/crdforge/crdforge/examples/cronjob/api/v2"
	"github.com/crdforge/crdforge/examples/cronjob/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/runtime/conversiontest"
	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// The CronJob's generated codec is most of the generated codecs' code in
// this repository: a CronJob reaches core/v1's PodSpec, and through it some
// two hundred struct types. The widgets' codec is checked against the API
// server's codec on hand-picked inputs and by fuzzing
// (examples/widgets/jsoncodec_test.go); these tests do the same for the
// CronJob, on random, fully populated objects.

var cronJobVersions = map[string]func() kruntime.Object{
	"v1": func() kruntime.Object { return new(v1.CronJob) },
	"v2": func() kruntime.Object { return new(v2.CronJob) },
}

func cronJobCodecs(tb testing.TB) map[string]webhook.Codec {
	tb.Helper()
	k := jsoncodec.With([]webhook.Kind{{Group: "batch.tutorial.kubebuilder.io", Kind: "CronJob"}})[0]
	for v := range cronJobVersions {
		if c, ok := k.Codecs[v]; !ok || c.Decode == nil || c.Encode == nil {
			tb.Fatalf("no generated codec for %s", v)
		}
	}
	return k.Codecs
}

// apiServerJSON encodes obj as the API server does: encoding/json, HTML not
// escaped.
func apiServerJSON(tb testing.TB, obj any) ([]byte, error) {
	tb.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// compare decodes data with the generated codec and with sigs.k8s.io/json
// as the API server does, and, where the generated codec decoded it,
// requires the same object and then the same bytes encoded back. It
// reports whether the generated codec did both itself.
func compare(t *testing.T, c webhook.Codec, newObj func() kruntime.Object, data []byte) bool {
	t.Helper()
	got, want := newObj(), newObj()
	wantErr := kjson.UnmarshalCaseSensitivePreserveInts(data, want)
	if typedjson.Decode(data, nil, got, c.Decode) != nil {
		return false // the webhook decodes it again by reflection
	}
	if wantErr != nil {
		t.Fatalf("the generated codec decoded %s, which the API server refuses: %v", data, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoding %s\ngenerated:  %+v\nAPI server: %+v", data, got, want)
	}
	wantOut, wantErr := apiServerJSON(t, want)
	gotOut, err := c.Encode(nil, want)
	if err != nil {
		return false
	}
	if wantErr != nil {
		t.Fatalf("the generated codec encoded %+v, which encoding/json refuses: %v", want, wantErr)
	}
	if !bytes.Equal(gotOut, wantOut) {
		t.Fatalf("encoding %s\ngenerated:     %s\nencoding/json: %s", data, gotOut, wantOut)
	}
	return true
}

// TestGeneratedCodecOnRandomCronJobs: random CronJobs of both versions,
// every field filled (PodSpec's containers, volumes, affinities, probes...),
// written as the API server writes them, decode through the generated codec
// to what sigs.k8s.io/json decodes and encode back to encoding/json's bytes,
// and the generated codec does it all itself: the API server's own output
// never falls back to reflection.
func TestGeneratedCodecOnRandomCronJobs(t *testing.T) {
	codecs := cronJobCodecs(t)
	for v, newObj := range cronJobVersions {
		fill := randfill.NewWithSeed(1).NilChance(0.1).NumElements(1, 2).MaxDepth(12).Funcs(conversiontest.DefaultFillFuncs()...)
		for i := range 100 {
			obj := newObj()
			fill.Fill(obj)
			data, err := apiServerJSON(t, obj)
			if err != nil {
				t.Fatal(err)
			}
			if !compare(t, codecs[v], newObj, data) {
				t.Fatalf("%s, object %d: the generated codec declined what the API server writes:\n%s", v, i, data)
			}
		}
	}
}

// FuzzGeneratedCronJobCodec mutates CronJobs: where the generated codec does
// not decline, it agrees with the API server's codec.
func FuzzGeneratedCronJobCodec(f *testing.F) {
	fill := randfill.NewWithSeed(2).NilChance(0.3).NumElements(1, 1).MaxDepth(8).Funcs(conversiontest.DefaultFillFuncs()...)
	for _, newObj := range []func() kruntime.Object{cronJobVersions["v1"], cronJobVersions["v2"]} {
		obj := newObj()
		fill.Fill(obj)
		data, err := apiServerJSON(f, obj)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","name":"b","ports":[{"containerPort":80,"protocol":"TCP"}]}]}}}}}}`))
	f.Add([]byte(`{"spec":{"schedule":"*/1 * * * *","startingDeadlineSeconds":9223372036854775807,"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"resources":{"limits":{"cpu":"1.5","memory":"1Gi"}}}]}}}}}}`))
	codecs := cronJobCodecs(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for v, newObj := range cronJobVersions {
			compare(t, codecs[v], newObj, data)
		}
	})
}
