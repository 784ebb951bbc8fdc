package widgets_test

import (
	"net/http"
	"testing"

	"bytes"
	"encoding/json"
	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/examples/widgets/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/webhook"

	kjson "sigs.k8s.io/json"
)

// This file is not in a tree without generated codecs (the benchtable's
// "before" tree gets webhook_bench_test.go only), so the floor through them
// is benchmarked where they exist.
func init() {
	moreHandlers = func(tb testing.TB) map[string]http.Handler {
		k := jsoncodec.With([]webhook.Kind{{Group: "widgets.example.com", Kind: "Widget"}})[0]
		c, ok := k.Codecs["v1"]
		if !ok {
			tb.Fatal("no generated codec for v1")
		}
		return map[string]http.Handler{"floor-generated": floorGeneratedHandler{c}}
	}
}

// floorGeneratedHandler is floorHandler with the codec crdforge generates
// for the stored version's type: the review's envelope read with the API
// server's codec (its objects kept as raw values), each object decoded and
// encoded again by the generated codec, no conversion. It is the floor that
// the generated codecs set, as floor is the API server's codec's.
type floorGeneratedHandler struct{ codec webhook.Codec }

func (h floorGeneratedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in, size, ok := readFloorReview[json.RawMessage](w, r)
	if !ok {
		return
	}
	head, err := json.Marshal(map[string]any{"apiVersion": in.APIVersion, "kind": in.Kind})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	uid, err := json.Marshal(in.Request.UID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	out := make([]byte, 0, size)
	out = append(out, head[:len(head)-1]...)
	out = append(out, `,"response":{"uid":`...)
	out = append(out, uid...)
	out = append(out, `,"result":{"status":"Success"},"convertedObjects":[`...)
	for i, raw := range in.Request.Objects {
		obj := new(v1.Widget)
		if err := h.codec.Decode(raw, obj); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if i > 0 {
			out = append(out, ',')
		}
		if out, err = h.codec.Encode(out, obj); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	out = append(out, "]}}"...)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out) // as in floorHandler
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
