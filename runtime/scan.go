package runtime

import (
	"encoding/json"
	"errors"
)

// errScan reports JSON the scanner cannot walk.
var errScan = errors.New("malformed JSON object")

// peekTypeMeta reads the top-level apiVersion and kind of a JSON object
// without decoding the rest: it skips other values and stops as soon as both
// are found, which for objects the API server sends is within the first
// bytes. Full validation happens when the object itself is decoded.
func peekTypeMeta(raw []byte) (apiVersion, kind string, err error) {
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
