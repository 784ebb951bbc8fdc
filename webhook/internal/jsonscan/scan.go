// Package jsonscan walks JSON without decoding it: it finds an object's
// apiVersion and kind, an object's keys and an array's elements as slices of
// the input. The conversion webhook reads a ConversionReview's envelope and
// every object's type this way, so that each object is decoded once, into
// its own Go type, and never into a map first.
//
// It expects valid JSON, and does not check what it skips: the webhook runs
// json.Valid over the whole request body before scanning any of it.
package jsonscan

import (
	"encoding/json"
	"errors"
)

// Errors of JSON the scanner cannot walk.
var (
	errScan      = errors.New("malformed JSON object")
	errNotObject = errors.New("not a JSON object")
	errNotArray  = errors.New("not a JSON array")
)

// PeekTypeMeta reads the top-level apiVersion and kind of a JSON object
// without decoding the rest: it skips other values and stops as soon as both
// are found, which for objects the API server sends is within the first
// bytes. Full validation happens when the object itself is decoded.
func PeekTypeMeta(raw []byte) (apiVersion, kind string, err error) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return "", "", errScan
	}
	i++
	var haveAPIVersion, haveKind bool
	for {
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == '}' {
			return apiVersion, kind, nil
		}
		keyStart := i
		if i, err = skipString(raw, i); err != nil {
			return "", "", err
		}
		key := raw[keyStart:i]
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] != ':' {
			return "", "", errScan
		}
		i = skipSpace(raw, i+1)
		valStart := i
		if i, err = skipValue(raw, i); err != nil {
			return "", "", err
		}
		switch string(key) {
		case `"apiVersion"`:
			if err := json.Unmarshal(raw[valStart:i], &apiVersion); err != nil {
				return "", "", err
			}
			haveAPIVersion = true
		case `"kind"`:
			if err := json.Unmarshal(raw[valStart:i], &kind); err != nil {
				return "", "", err
			}
			haveKind = true
		}
		if haveAPIVersion && haveKind {
			return apiVersion, kind, nil
		}
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == ',' {
			i++
			continue
		}
		if i < len(raw) && raw[i] == '}' {
			return apiVersion, kind, nil
		}
		return "", "", errScan
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i].
func skipString(b []byte, i int) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, errScan
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errScan
}

// skipValue returns the index after the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errScan
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				end, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
		}
		return 0, errScan
	default:
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' && b[i] != '\r' {
			i++
		}
		return i, nil
	}
}

// EachKey calls fn for every key of a JSON object, with the key's exact
// (case-sensitive) name and its raw value.
func EachKey(b []byte, fn func(key string, val []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errNotObject
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		start := i
		end, err := skipString(b, i)
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(b[start:end], &key); err != nil {
			return err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return errScan
		}
		i = skipSpace(b, i+1)
		valStart := i
		if i, err = skipValue(b, i); err != nil {
			return err
		}
		if err := fn(key, b[valStart:i]); err != nil {
			return err
		}
		i = skipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return nil
		default:
			return errScan
		}
	}
}

// SplitArray returns the raw elements of a JSON array, or nil for null.
func SplitArray(b []byte) ([]json.RawMessage, error) {
	if string(b) == "null" {
		return nil, nil
	}
	if len(b) == 0 || b[0] != '[' {
		return nil, errNotArray
	}
	var out []json.RawMessage
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return out, nil
	}
	for {
		start := i
		end, err := skipValue(b, i)
		if err != nil {
			return nil, err
		}
		out = append(out, b[start:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return out, nil
		default:
			return nil, errScan
		}
	}
}
