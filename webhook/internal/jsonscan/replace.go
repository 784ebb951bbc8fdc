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
	return appendMaps(dst, open, labels, annotations, appendMap)
}

// AppendMetadata is AppendLabelsAndAnnotations of the object's Metadata,
// which it does not walk again: the pass that read the object noted where
// each of its members is.
func (o *Object) AppendMetadata(dst []byte, labels, annotations map[string]string, appendMap func([]byte, map[string]string) ([]byte, error)) ([]byte, error) {
	if o.metaMembers == nil {
		return AppendLabelsAndAnnotations(dst, o.Metadata, labels, annotations, appendMap)
	}
	dst = append(dst, '{')
	open := len(dst)
	for i := 0; i+1 < len(o.metaMembers); i += 2 {
		start, end := int(o.metaMembers[i]), int(o.metaMembers[i+1])
		w := &walker{b: o.Metadata, i: start}
		escaped, err := w.str()
		if err != nil {
			return nil, err
		}
		switch string(unquote(o.Metadata[start:w.i], escaped)) {
		case "labels", "annotations":
			continue
		}
		if len(dst) > open {
			dst = append(dst, ',')
		}
		dst = append(dst, o.Metadata[start:end]...)
	}
	return appendMaps(dst, open, labels, annotations, appendMap)
}

// appendMaps appends the labels and annotations members, those not empty,
// to dst, an object's members from open on, and closes it.
func appendMaps(dst []byte, open int, labels, annotations map[string]string, appendMap func([]byte, map[string]string) ([]byte, error)) ([]byte, error) {
	var err error
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
