package jsonscan

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// storedWidget is an object as the API server stores it (labels,
// annotations, an owner, managedFields of two managers, a condition): what
// examples/widgets' BenchmarkConversionReview sends.
const storedWidget = `{"kind":"Widget","apiVersion":"widgets.example.com/v1","metadata":{"name":"widget-7","namespace":"default","uid":"3415a7fc-162b-4300-b5da-fd6083580d66","resourceVersion":"143","generation":2,"creationTimestamp":"2030-01-02T03:04:05Z","labels":{"app":"widgets","tier":"gold"},"annotations":{"owner":"team-a"},"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"widget-factory","uid":"0b6e2f3c-3d0a-4c84-9a4e-7f1c2b5d8e90","controller":true,"blockOwnerDeletion":true}],"finalizers":["widgets.example.com/cleanup"],"managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"widgets.example.com/v1","time":"2030-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{},"f:owner":{}},"f:labels":{".":{},"f:app":{},"f:tier":{}}},"f:spec":{".":{},"f:displayName":{},"f:finishes":{".":{},"f:side":{".":{},"f:color":{}},"f:top":{".":{},"f:color":{},"f:gloss":{}}},"f:labels":{".":{},"f:line":{}},"f:network":{".":{},"f:host":{},"f:port":{}},"f:options":{},"f:parts":{},"f:replicas":{},"f:size":{},"f:warranty":{".":{},"f:until":{},"f:years":{}}}}},{"manager":"widget-controller","operation":"Update","apiVersion":"widgets.example.com/v1","time":"2030-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:conditions":{".":{},"k:{\"type\":\"Ready\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:observedGeneration":{}}},"subresource":"status"}]},"spec":{"displayName":"Widget","size":"Large","network":{"host":"widget.local","port":8080},"replicas":3,"parts":[{"name":"gear","count":3,"weight":"250m"},{"name":"spring","count":2,"weight":"1Ki"},{"name":"bolt","count":12}],"finishes":{"side":{"color":"blue"},"top":{"color":"red","gloss":80}},"labels":{"line":"a"},"options":{"fast":true},"warranty":{"years":2,"until":"2030-01-02T03:04:05Z"}},"status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2030-01-02T03:04:05Z","reason":"Built","message":"ok"}]}}`

// BenchmarkParseReview reads a review of 100 stored objects: the pass that
// validates the body and records the objects' tapes.
func BenchmarkParseReview(b *testing.B) {
	body := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"widgets.example.com/v1beta1","objects":[` +
		strings.TrimSuffix(strings.Repeat(storedWidget+",", 100), ",") + `]}}`)
	b.SetBytes(int64(len(body)))
	var r Review
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.Parse(body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendMetadataAddingAStash writes back the metadata of an object
// that kubectl applied (its last-applied-configuration, a kilobyte of
// escaped JSON, among its annotations) with a stash added to them.
func BenchmarkAppendMetadataAddingAStash(b *testing.B) {
	applied, _ := json.Marshal(strings.Repeat(`{"apiVersion":"widgets.example.com/v1","kind":"Widget","spec":{"parts":[1,2,3]}}`, 12))
	obj := `{"apiVersion":"widgets.example.com/v1","kind":"Widget","metadata":{"name":"w","annotations":{"owner":"team-a","kubectl.kubernetes.io/last-applied-configuration":` + string(applied) + `}}}`
	o, err := ParseObject([]byte(obj))
	if err != nil {
		b.Fatal(err)
	}
	annotations := MapEdit{New: map[string]string{"conversion.crdforge.io/v1": `sparse:{"spec":{"warranty":{"years":2}}}`}}
	var out []byte
	b.SetBytes(int64(len(o.Metadata)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if out, err = o.AppendMetadata(out[:0], MapEdit{}, annotations, strconv.AppendQuote); err != nil {
			b.Fatal(err)
		}
	}
}
