package model

import (
	"go/types"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// A dropped zero matters only when a client can write it: a zero the
// field's schema refuses (an enum without "", minimum: 1, a pattern) never
// reaches the webhook, and a default standing in for it is what the author
// meant. Which values the schema admits is the API server's to say, so it
// is asked: its validator (apiextensions-apiserver's NewSchemaValidator,
// the one a custom resource's create or update goes through) over the
// field's schema, converted to the internal version as the server converts
// it. CEL rules are not part of it: they may refuse the zero, but crdforge
// cannot tell without the whole object, so such a field is still reported.

// admitsZero reports whether the API server accepts, at a field of type t
// whose schema is prop, some explicit value that Go reads as the zero the
// field drops, written as zero (droppedValue's JSON). When the schema
// cannot be read it answers yes: better a report than a lost zero.
func admitsZero(prop *apiextensionsv1.JSONSchemaProps, t types.Type, zero string) bool {
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(prop, &internal, nil); err != nil {
		return true
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(&internal)
	if err != nil {
		return true
	}
	for _, spelling := range zeroSpellings(t, zero) {
		var v any
		// As the API server decodes a request: whole numbers as int64.
		if err := utiljson.Unmarshal([]byte(spelling), &v); err != nil {
			return true
		}
		if validator.Validate(v).IsValid() {
			return true
		}
	}
	return false
}

// zeroSpellings are the JSON values a client may write that a field of
// type t reads as its zero, zero (droppedValue's) first. An array is read
// from [] and from a list of as many zeros as it has elements alike, and a
// minItems may refuse one but not the other.
func zeroSpellings(t types.Type, zero string) []string {
	out := []string{zero}
	arr, ok := t.Underlying().(*types.Array)
	if !ok || arr.Len() == 0 {
		return out
	}
	elem, _ := droppedValue(arr.Elem(), jsonTag{omitZero: true})
	if elem == "" {
		return out // an element whose zero only its own JSON knows
	}
	elems := make([]string, arr.Len())
	for i := range elems {
		elems[i] = elem
	}
	return append(out, "["+strings.Join(elems, ",")+"]")
}
