package review

import (
	"encoding/json"
	"fmt"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// The ConversionReview versions the handler answers, in the version received.
const (
	reviewV1      = "apiextensions.k8s.io/v1"
	reviewV1beta1 = "apiextensions.k8s.io/v1beta1"
)

// review is a ConversionReview of either version: both have the same shape.
type review struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Request    *reviewRequest  `json:"request,omitempty"`
	Response   *reviewResponse `json:"response,omitempty"`
}

type reviewRequest struct {
	UID               string            `json:"uid"`
	DesiredAPIVersion string            `json:"desiredAPIVersion"`
	Objects           []json.RawMessage `json:"objects"`
}

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

// parseReview reads a ConversionReview's envelope: apiVersion, kind, and the
// request's uid, desiredAPIVersion and objects. The body must be valid JSON
// (the caller checks with json.Valid); objects are slices of body, not
// copies, and are decoded later, one at a time, into their typed form.
func parseReview(body []byte) (*review, error) {
	var in review
	err := jsonscan.EachKey(body, func(key string, val []byte) error {
		switch key {
		case "apiVersion":
			return json.Unmarshal(val, &in.APIVersion)
		case "kind":
			return json.Unmarshal(val, &in.Kind)
		case "request":
			if string(val) == "null" {
				return nil
			}
			in.Request = &reviewRequest{}
			return jsonscan.EachKey(val, func(key string, val []byte) error {
				switch key {
				case "uid":
					return json.Unmarshal(val, &in.Request.UID)
				case "desiredAPIVersion":
					return json.Unmarshal(val, &in.Request.DesiredAPIVersion)
				case "objects":
					objs, err := jsonscan.SplitArray(val)
					if err != nil {
						return fmt.Errorf("request.objects: %w", err)
					}
					in.Request.Objects = objs
					return nil
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &in, nil
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
