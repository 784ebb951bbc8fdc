// Package apicheck holds a drawn API's conversions to their reference: for
// each drawn object and each other version, the webhook's answer with the
// generated codec and with the reflection codec equals encoding/json of the
// Go conversion (or all three fail), the object comes back as it was
// converted back, and an edit made at the other version survives a round
// trip through the object's own version.
//
// Objects are compared as the API server stores them (lossless.StoredJSON
// with the type of their version): it prunes a null member a client writes
// where the schema is not nullable, before anything converts it, and does
// so again to every object a webhook answers. A null that the API server
// keeps (in free-form JSON) is compared as written.
//
// The test apigen writes for a batch of drawn APIs calls Run once per API.
package apicheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	kjson "sigs.k8s.io/json"

	"github.com/crdforge/crdforge/runtime/lossless"
	"github.com/crdforge/crdforge/webhook"
)

// Case is one drawn API as its generated code serves it.
type Case struct {
	// Kinds is the conversion table of the kinds the webhook converts,
	// without codecs, as the generated main's kinds() builds it.
	Kinds []webhook.Kind
	// WithCodecs is the generated codec package's With.
	WithCodecs func([]webhook.Kind) []webhook.Kind
	// Objects is the drawn objects (apigen.Object), as JSON.
	Objects []byte
	// ZeroDrops are the fields generate warned of, "<version>
	// <Struct>.<Field>", whose zero value reads back absent once the
	// storage version holds it (see zeroDrops).
	ZeroDrops []string
}

// object is apigen.Object, read back (apicheck imports nothing of the
// generator's side).
type object struct {
	Version string          `json:"version"`
	Object  json.RawMessage `json:"object"`
	Edits   map[string]struct {
		Path  []string        `json:"path"`
		Value json.RawMessage `json:"value"`
	} `json:"edits"`
}

// Run checks every object of c at every other version of its kind.
func Run(t *testing.T, c Case) {
	var objects []object
	if err := json.Unmarshal(c.Objects, &objects); err != nil {
		t.Fatal(err)
	}
	handlers := map[string]http.Handler{"generated codec": handler(t, c.WithCodecs(c.Kinds)), "reflection codec": handler(t, c.Kinds)}
	drops := parseZeroDrops(c.ZeroDrops)
	kinds := map[string]webhook.Kind{}
	for _, k := range c.Kinds {
		kinds[k.Kind] = k
	}
	for i, o := range objects {
		var head struct{ Kind string }
		if err := json.Unmarshal(o.Object, &head); err != nil {
			t.Fatal(err)
		}
		k, ok := kinds[head.Kind]
		if !ok {
			continue // converted by the API server alone (strategy None)
		}
		o.Object = asStored(t, kind{Kind: k}, o.Version, o.Object)
		for w := range k.Versions {
			if w == o.Version {
				continue
			}
			t.Run(fmt.Sprintf("%d-%s-%s-to-%s", i, k.Kind, o.Version, w), func(t *testing.T) {
				for name, h := range handlers {
					checkPair(t, name, h, kind{k, drops}, o, w)
				}
			})
		}
	}
}

func handler(t *testing.T, kinds []webhook.Kind) http.Handler {
	h, err := webhook.NewHandler(webhook.HandlerOptions{MaxRequestBytes: 1 << 30}, kinds...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// kind is a kind the webhook converts, and the fields of its versions whose
// zero values generate warned that the storage version leaves out.
type kind struct {
	webhook.Kind
	drops zeroDrops
}

// checkPair converts o to w through h and back, and an edit at w through
// o's version and back, each against the Go conversion.
func checkPair(t *testing.T, name string, h http.Handler, k kind, o object, w string) {
	t.Helper()
	v := o.Version
	want, wantErr := goConvert(k.Kind, o.Object, v, w)
	got, gotErr := review(h, o.Object, k.Group+"/"+w)
	if gotErr == nil && wantErr == nil {
		got, want = asStored(t, k, w, got), asStored(t, k, w, want)
	}
	if !agree(t, name+": "+v+" to "+w, o.Object, got, gotErr, want, wantErr) || wantErr != nil {
		return
	}
	own, _ := goConvert(k.Kind, o.Object, v, v)
	back, err := review(h, got, k.Group+"/"+v)
	if err != nil {
		t.Errorf("%s: %s to %s and back: %v\nconverted: %s", name, v, w, err, got)
	} else {
		k.cameBack(t, name+": "+v+" to "+w+" and back", v, o.Object, back, own)
	}
	e, ok := o.Edits[w]
	if !ok {
		return
	}
	edited, err := setMember(got, e.Path, e.Value)
	if err != nil {
		t.Fatal(err)
	}
	edited = asStored(t, k, w, edited)
	editedOwn, err := goConvert(k.Kind, edited, w, w)
	if err != nil {
		return
	}
	if _, err := goConvert(k.Kind, edited, w, v); err != nil {
		return // the edit is not one the object's own version can hold
	}
	there, err := review(h, edited, k.Group+"/"+v)
	if err == nil {
		var again []byte
		if again, err = review(h, asStored(t, k, v, there), k.Group+"/"+w); err == nil {
			k.cameBack(t, fmt.Sprintf("%s: %s edited at %v, to %s and back", name, w, e.Path, v), w, edited, again, editedOwn)
			return
		}
	}
	t.Errorf("%s: %s edited at %v, to %s and back: %v\nedited: %s", name, w, e.Path, o.Version, err, edited)
}

// cameBack checks that sent, an object of version v, came back from a round
// trip as got: each member as sent, or as encoding/json reads sent at v
// (own). The stash can keep what v's Go type cannot tell apart in JSON, so
// a member the client sent may come back where own has less: a
// `"host": {}` that reads back as a zero omitzero struct, kept by a stash
// of the empty map that made it non-zero (apigen seeds 418734688,
// 418734724), beside an edited member that comes back as own reads it
// (762685199). A member neither has, or one both have that got lacks, is
// a loss or a change.
func (k kind) cameBack(t *testing.T, what, v string, sent, got, own []byte) {
	t.Helper()
	got, own = k.comparable(t, v, got), k.comparable(t, v, own)
	if memberwise(decode(t, got), decode(t, k.comparable(t, v, sent)), decode(t, own)) {
		return
	}
	same(t, what, sent, got, own)
}

// memberwise reports whether got, a decoded JSON value, equals sent or own,
// or is an object each of whose members (by the three's keys) does, or a
// list each of whose elements does: nil stands for an absent member.
func memberwise(got, sent, own any) bool {
	if reflect.DeepEqual(got, sent) || reflect.DeepEqual(got, own) {
		return true
	}
	switch g := got.(type) {
	case map[string]any:
		s, sok := sent.(map[string]any)
		o, ook := own.(map[string]any)
		if !sok || !ook {
			return false
		}
		keys := map[string]bool{}
		for _, m := range []map[string]any{g, s, o} {
			for key := range m {
				keys[key] = true
			}
		}
		for key := range keys {
			if !memberwise(g[key], s[key], o[key]) {
				return false
			}
		}
		return true
	case []any:
		s, sok := sent.([]any)
		o, ook := own.([]any)
		if !sok || !ook || len(s) != len(g) || len(o) != len(g) {
			return false
		}
		for i := range g {
			if !memberwise(g[i], s[i], o[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// agree reports whether the webhook and the Go conversion agree on in: both
// fail, or both give the same object.
func agree(t *testing.T, what string, in, got []byte, gotErr error, want []byte, wantErr error) bool {
	t.Helper()
	switch {
	case gotErr != nil && wantErr == nil:
		t.Errorf("%s: the webhook fails where the Go conversion does not: %v\nin:   %s\nwant: %s", what, gotErr, in, want)
		return false
	case gotErr == nil && wantErr != nil:
		t.Errorf("%s: the webhook converts what the Go conversion refuses (%v)\nin:  %s\ngot: %s", what, wantErr, in, got)
		return false
	case gotErr != nil:
		return true
	}
	return same(t, what, in, got, want)
}

// same reports whether got and want are the same JSON value.
func same(t *testing.T, what string, in, got, want []byte) bool {
	t.Helper()
	g, w := decode(t, got), decode(t, want)
	if reflect.DeepEqual(g, w) {
		return true
	}
	t.Errorf("%s:\nin:   %s\ngot:  %s\nwant: %s", what, in, got, want)
	return false
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

// comparable is obj, an object of version v back from a round trip, as a
// client reads it (stored), without the stash, and without the zero values
// of the fields generate warned the storage version leaves out.
func (k kind) comparable(t *testing.T, v string, obj []byte) []byte {
	t.Helper()
	obj = withoutStash(t, asStored(t, k, v, obj))
	if len(k.drops) == 0 {
		return obj
	}
	root := decode(t, obj)
	k.drops.strip(root, reflect.TypeOf(k.Versions[v]()))
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// asStored is obj, an object of version v of k, as the API server stores
// it, and as it sends it to a webhook or a client: without the null members
// its schema does not allow (lossless.StoredJSON).
func asStored(t *testing.T, k kind, v string, obj []byte) []byte {
	t.Helper()
	b, err := lossless.StoredJSON(obj, reflect.TypeOf(k.Versions[v]()))
	if err != nil {
		t.Fatalf("%v: %s", err, obj)
	}
	return b
}

// withoutStash is obj without the annotations in which conversions keep
// what a version cannot hold: a round trip consumes the stash of the
// version it goes through (and an edit's object may carry an older one),
// and what matters is the data the client reads, which the rest holds.
// An annotations map left empty is left out, as encoding/json leaves out
// ObjectMeta's empty annotations.
func withoutStash(t *testing.T, obj []byte) []byte {
	t.Helper()
	root, ok := decode(t, obj).(map[string]any)
	if !ok {
		return obj
	}
	meta, _ := root["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	for k := range annotations {
		if strings.HasPrefix(k, lossless.AnnotationPrefix) {
			delete(annotations, k)
		}
	}
	if annotations != nil && len(annotations) == 0 {
		delete(meta, "annotations")
	}
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// goConvert decodes in at version from as the API server does, converts it
// to version to through the hub with the generated Go conversions, and
// encodes it as the API server does (encoding/json, no HTML escaping).
// From a version to itself it converts nothing: the API server serves an
// object at its own version without the webhook, and a trip through the
// hub in memory would keep what the hub's JSON, between two real
// conversions, does not (apigen seed 381659405: a stash restoring an empty
// map that makes an omitzero struct of the hub non-zero).
func goConvert(k webhook.Kind, in []byte, from, to string) ([]byte, error) {
	src := k.Versions[from]()
	if err := kjson.UnmarshalCaseSensitivePreserveInts(in, src); err != nil {
		return nil, err
	}
	hub := src
	if from != k.Hub && from != to {
		hub = k.Versions[k.Hub]()
		if err := src.(conversion.Convertible).ConvertTo(hub.(conversion.Hub)); err != nil {
			return nil, err
		}
	}
	out := hub
	if to != k.Hub && from != to {
		out = k.Versions[to]()
		if err := out.(conversion.Convertible).ConvertFrom(hub.(conversion.Hub)); err != nil {
			return nil, err
		}
	}
	out.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{Group: k.Group, Version: to, Kind: k.Kind})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// review posts a ConversionReview of obj to h, desired apiVersion to, and
// returns the converted object, or the failure's message.
func review(h http.Handler, obj []byte, to string) ([]byte, error) {
	body := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"1","desiredAPIVersion":"` +
		to + `","objects":[` + string(obj) + `]}}`)
	r := httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("status %d: %s", rec.Code, rec.Body.Bytes())
	}
	var resp struct {
		Response struct {
			ConvertedObjects []json.RawMessage `json:"convertedObjects"`
			Result           struct {
				Status  string `json:"status"`
				Message string `json:"message"`
			} `json:"result"`
		} `json:"response"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		return nil, err
	}
	if resp.Response.Result.Status != "Success" {
		return nil, fmt.Errorf("%s", resp.Response.Result.Message)
	}
	if len(resp.Response.ConvertedObjects) != 1 {
		return nil, fmt.Errorf("%d objects in the answer", len(resp.Response.ConvertedObjects))
	}
	return resp.Response.ConvertedObjects[0], nil
}

// setMember returns obj with the member at path set to value, the objects
// on the way made where missing.
func setMember(obj []byte, path []string, value json.RawMessage) ([]byte, error) {
	var root map[string]any
	d := json.NewDecoder(bytes.NewReader(obj))
	d.UseNumber()
	if err := d.Decode(&root); err != nil {
		return nil, err
	}
	m := root
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = value
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(root)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}
