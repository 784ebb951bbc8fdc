package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// errFound stops a walk at what it looked for.
var errFound = errors.New("found")

// ReplaceMember returns obj, a JSON object that encoding/json wrote, with the
// value of its top-level member name replaced by val. obj must hold that
// member, once: see MemberSpan.
func ReplaceMember(obj []byte, name string, val []byte) ([]byte, error) {
	start, end, err := MemberSpan(obj, name)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(obj)-(end-start)+len(val))
	out = append(out, obj[:start]...)
	out = append(out, val...)
	return append(out, obj[end:]...), nil
}

// MemberSpan returns where, in obj, a JSON object that encoding/json wrote,
// the value of its top-level member name starts and ends. obj must hold
// that member, once: the walk stops there, so that the members after it (an
// object's spec and status, after its metadata) are not walked.
func MemberSpan(obj []byte, name string) (start, end int, err error) {
	w := &walker{b: obj}
	start, end = -1, -1
	err = w.object(func(_ int, key []byte, escaped bool) error {
		if string(unquote(key, escaped)) != name {
			return w.value()
		}
		w.space()
		start = w.i
		if err := w.value(); err != nil {
			return err
		}
		end = w.i
		return errFound
	})
	if err != nil && err != errFound {
		return 0, 0, err
	}
	if start < 0 {
		return 0, 0, fmt.Errorf("no %q in the encoded object", name)
	}
	return start, end, nil
}

// ReplaceLabelsAndAnnotations returns meta, an object's metadata as it came
// in, with its labels and annotations members replaced by these (left out
// when empty) and every other member as it was.
func ReplaceLabelsAndAnnotations(meta []byte, labels, annotations map[string]string) ([]byte, error) {
	out := make([]byte, 0, len(meta)+64)
	out = append(out, '{')
	w := &walker{b: meta}
	err := w.object(func(start int, key []byte, escaped bool) error {
		err := w.value()
		if err != nil {
			return err
		}
		switch string(unquote(key, escaped)) {
		case "labels", "annotations":
			return nil
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, meta[start:w.i]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, m := range []struct {
		name string
		m    map[string]string
	}{{"labels", labels}, {"annotations", annotations}} {
		if len(m.m) == 0 {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, '"')
		out = append(out, m.name...)
		out = append(out, `":`...)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.m); err != nil {
			return nil, err
		}
		out = append(out, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	return append(out, '}'), nil
}
