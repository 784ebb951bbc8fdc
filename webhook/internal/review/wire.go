package review

import (
	"encoding/json"
)

// The ConversionReview versions the handler answers, in the version received.
const (
	reviewV1      = "apiextensions.k8s.io/v1"
	reviewV1beta1 = "apiextensions.k8s.io/v1beta1"
)

// The response is written as encoding/json would marshal a
// ConversionReview whose response has, in this order, the uid, the result
// (a metav1.Status's status and message) and the convertedObjects (left out
// when there are none). The converted objects are compact JSON already, so
// they are appended as they are: json.Marshal would scan and compact each
// again.

// appendResponseStart appends the response up to its uid, included.
func appendResponseStart(b []byte, apiVersion, uid string) []byte {
	b = append(b, `{"apiVersion":`...)
	b = appendString(b, apiVersion)
	b = append(b, `,"kind":"ConversionReview","response":{"uid":`...)
	return appendString(b, uid)
}

// appendSuccess appends, after the uid, a successful result and the start of
// the n converted objects that follow it.
func appendSuccess(b []byte, n int) []byte {
	b = append(b, `,"result":{"status":"Success"}`...)
	if n > 0 {
		b = append(b, `,"convertedObjects":[`...)
	}
	return b
}

// appendSuccessEnd ends a successful response of n converted objects.
func appendSuccessEnd(b []byte, n int) []byte {
	if n > 0 {
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

// appendFailure appends, after the uid, a failed result and ends the
// response.
func appendFailure(b []byte, message string) []byte {
	b = append(b, `,"result":{"status":"Failed"`...)
	if message != "" {
		b = append(b, `,"message":`...)
		b = appendString(b, message)
	}
	return append(b, "}}}"...)
}

// appendString appends s as a JSON string, as encoding/json writes it. A
// string of printable ASCII that encoding/json leaves as it is (uids, API
// versions) is appended at once; others go through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
