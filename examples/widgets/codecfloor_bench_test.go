package widgets_test

import (
	"net/http"
	"testing"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/examples/widgets/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/webhook"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
// for the stored version's type: the review's envelope read with
// go-json-experiment (its objects kept as raw values), each object decoded
// and encoded again by the generated codec, no conversion. It is the floor
// that the generated codecs set, as floor-jsonv2 is the reflection codec's.
type floorGeneratedHandler struct{ codec webhook.Codec }

func (h floorGeneratedHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	in, size, ok := readFloorReview[jsontext.Value](w, r)
	if !ok {
		return
	}
	head, err := jsonv2.Marshal(map[string]any{"apiVersion": in.APIVersion, "kind": in.Kind}, floorV2Options)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	uid, err := jsonv2.Marshal(in.Request.UID, floorV2Options)
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
