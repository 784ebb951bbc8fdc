package jsonscan

import (
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

// AppendLabelsAndAnnotations appends to dst meta, an object's metadata as
// it came in, with its labels and annotations members replaced by these
// (left out when empty), encoded by appendMap, and every other member as it
// was.
func AppendLabelsAndAnnotations(dst, meta []byte, labels, annotations map[string]string, appendMap func([]byte, map[string]string) ([]byte, error)) ([]byte, error) {
	dst = append(dst, '{')
	open := len(dst)
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
		if len(dst) > open {
			dst = append(dst, ',')
		}
		dst = append(dst, meta[start:w.i]...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, m := range [...]struct {
		name string
		m    map[string]string
	}{{"labels", labels}, {"annotations", annotations}} {
		if len(m.m) == 0 {
			continue
		}
		if len(dst) > open {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.name...)
		dst = append(dst, `":`...)
		if dst, err = appendMap(dst, m.m); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}
