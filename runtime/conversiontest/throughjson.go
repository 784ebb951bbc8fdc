package conversiontest

import (
	"encoding/json"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
	sigsjson "sigs.k8s.io/json"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// The API server holds JSON, and so does the webhook between two
// conversions: a value the version in between writes differently, or
// leaves out, is lost there even when the conversions in memory keep it
// (issue 58, item 5: tags: [] under omitzero in v1 came back absent through
// v1alpha1's omitempty). So each round trip runs again as the objects
// travel: the original as its JSON reads back, the object in between
// through JSON too, and the result compared with the original by their
// JSON forms, each as the API server stores it (lossless.StoredJSON).
//
// Both directions do. spoke-hub-spoke did not at first, for a field behind
// an embedded pointer the hub's JSON leaves out (testdata/inlinepointer:
// legacy, inside *Extra, when the hub's Extra holds nothing JSON writes);
// the stash restores it since it compares such fields as JSON shows them
// (runtime/lossless/jsonimage.go).

// roundTripJSON round-trips the JSON form of original through the JSON form
// of the other version, and fails where the result's JSON form differs.
func (d direction) roundTripJSON(p Pair, original runtime.Object) error {
	start := d.newOriginal(p)
	if err := sentCopy(original, start); err != nil {
		return err
	}
	via := d.newVia(p)
	if err := convert(d.there, start, via); err != nil {
		return fmt.Errorf("%w\n%s was, read from JSON:\n%s", err, kindOf(start), toJSON(start))
	}
	stored := d.newVia(p)
	if err := jsonCopy(via, stored); err != nil {
		return err
	}
	result := d.newOriginal(p)
	if err := convert(d.back, stored, result); err != nil {
		return fmt.Errorf("%w\n%s was, read from JSON:\n%s", err, kindOf(stored), toJSON(stored))
	}
	clearTypeMeta(result)
	got := d.newOriginal(p)
	if err := jsonCopy(result, got); err != nil {
		return err
	}
	if diff, ok := compare(start, got); !ok {
		return fmt.Errorf("round trip through JSON is not exact (- original, + after the round trip, each as JSON reads it back):\n%s\n%s in between, as JSON:\n%s",
			diff, kindOf(via), toJSON(stored))
	}
	return nil
}

// sentCopy sets to to from as a client sends it: from's JSON read back
// (jsonCopy), with every embedded pointer JSON cannot tell from nil set to
// nil, as fill leaves them. Read back, a struct from wrote as {} (its maps
// empty, not nil) is zero, so an omitzero field of it is then left out, and
// an embedded pointer that reached only that field shows nothing more: no
// client can send it set (apigen seed 681509573).
func sentCopy(from, to runtime.Object) error {
	if err := jsonCopy(from, to); err != nil {
		return err
	}
	hideEmbedsIn(to)
	return nil
}

// jsonCopy sets to to what from's JSON reads back as once the API server
// has stored it (lossless.StoredJSON), decoded as the API server and the webhook
// decode: case-sensitive, integers kept.
func jsonCopy(from, to runtime.Object) error {
	data, err := json.Marshal(from)
	if err != nil {
		return fmt.Errorf("writing %s as JSON: %w", kindOf(from), err)
	}
	stored, err := lossless.StoredJSON(data, reflect.TypeOf(to))
	if err != nil {
		return fmt.Errorf("reading %s's JSON as the API server stores it: %w\n%s", kindOf(from), err, data)
	}
	data = stored
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(data, to); err != nil {
		return fmt.Errorf("reading %s back from its JSON: %w\n%s", kindOf(to), err, data)
	}
	return nil
}
