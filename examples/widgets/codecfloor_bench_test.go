package widgets_test

import (
	"encoding/json"
	"net/http"
	"testing"

	kruntime "k8s.io/apimachinery/pkg/runtime"

	v1 "github.com/crdforge/crdforge/examples/widgets/api/v1"
	"github.com/crdforge/crdforge/examples/widgets/cmd/webhook/jsoncodec"
	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/typedjson"
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
	writeFloorResponse(w, in, size, func(out []byte, raw json.RawMessage) ([]byte, int, error) {
		obj := new(v1.Widget)
		if err := typedjson.Decode[kruntime.Object](raw, nil, obj, h.codec.Decode); err != nil {
			return out, http.StatusBadRequest, err
		}
		out, err := h.codec.Encode(out, obj)
		return out, http.StatusInternalServerError, err
	})
}
