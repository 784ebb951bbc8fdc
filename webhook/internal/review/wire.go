package review

import (
	"encoding/json"
)

// The ConversionReview versions the handler answers, in the version received.
const (
	reviewV1      = "apiextensions.k8s.io/v1"
	reviewV1beta1 = "apiextensions.k8s.io/v1beta1"
)

type reviewResponse struct {
	UID              string            `json:"uid"`
	ConvertedObjects []json.RawMessage `json:"convertedObjects,omitempty"`
	Result           status            `json:"result"`
}

// status is the part of metav1.Status a ConversionResponse result uses.
type status struct {
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// encodeResponse writes the review around the converted objects, which are
// compact JSON already: json.Marshal would scan and compact each again.
func encodeResponse(apiVersion string, resp *reviewResponse) []byte {
	size := 256 + len(resp.Result.Message)
	for _, o := range resp.ConvertedObjects {
		size += len(o) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, `{"apiVersion":`...)
	b = appendString(b, apiVersion)
	b = append(b, `,"kind":"ConversionReview","response":{"uid":`...)
	b = appendString(b, resp.UID)
	b = append(b, `,"result":{"status":`...)
	b = appendString(b, resp.Result.Status)
	if resp.Result.Message != "" {
		b = append(b, `,"message":`...)
		b = appendString(b, resp.Result.Message)
	}
	b = append(b, '}')
	if len(resp.ConvertedObjects) > 0 {
		b = append(b, `,"convertedObjects":[`...)
		for i, o := range resp.ConvertedObjects {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, o...)
		}
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}
