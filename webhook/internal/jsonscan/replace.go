package jsonscan

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"unsafe"
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

// MapEdit is what a conversion made of an object's labels or annotations:
// Old is what was decoded of the map from the object, New what the
// converted object holds. All says Old is all of the map; otherwise the
// decoder read only some entries (those the conversion reads and writes,
// such as its stash), and the entries in neither Old nor New are the
// object's as they came in. Where New equals Old the map is left as it
// came in.
type MapEdit struct {
	Old, New map[string]string
	All      bool
}

// managed reports whether the edit decides on the entry k of the map as it
// came in: keeping it, when New holds the same value, or dropping it.
func (e *MapEdit) managed(k string) bool {
	if e.All {
		return true
	}
	_, inOld := e.Old[k]
	_, inNew := e.New[k]
	return inOld || inNew
}

// AppendLabelsAndAnnotations appends to dst meta, an object's metadata as
// it came in, with its labels and annotations members edited (see
// appendEdited), and every other member as it was.
func AppendLabelsAndAnnotations(dst, meta []byte, labels, annotations MapEdit, appendString func([]byte, string) []byte) ([]byte, error) {
	dst = append(dst, '{')
	open := len(dst)
	var seen [2]bool
	w := &walker{b: meta}
	err := w.object(func(start int, key []byte, escaped bool) error {
		w.space()
		valueStart := w.i
		if err := w.value(); err != nil {
			return err
		}
		var err error
		dst, err = appendMember(dst, open, meta, start, valueStart, w.i, unquote(key, escaped), &labels, &annotations, &seen, appendString)
		return err
	})
	if err != nil {
		return nil, err
	}
	return appendMissing(dst, open, &labels, &annotations, seen, appendString), nil
}

// AppendMetadata is AppendLabelsAndAnnotations of the object's Metadata,
// which it does not walk again: the pass that read the object noted where
// each of its members is.
func (o *Object) AppendMetadata(dst []byte, labels, annotations MapEdit, appendString func([]byte, string) []byte) ([]byte, error) {
	if o.metaMembers == nil {
		return AppendLabelsAndAnnotations(dst, o.Metadata, labels, annotations, appendString)
	}
	if out, ok, err := o.spliceMetadata(dst, &labels, &annotations, appendString); ok || err != nil {
		return out, err
	}
	dst = append(dst, '{')
	open := len(dst)
	var seen [2]bool
	for i := 0; i+1 < len(o.metaMembers); i += 2 {
		start, end := int(o.metaMembers[i]), int(o.metaMembers[i+1])
		w := walker{b: o.Metadata, i: start}
		escaped, err := w.str()
		if err != nil {
			return nil, err
		}
		key := unquote(o.Metadata[start:w.i], escaped)
		if dst, err = appendMember(dst, open, o.Metadata, start, w.afterColon(), end, key, &labels, &annotations, &seen, appendString); err != nil {
			return nil, err
		}
	}
	return appendMissing(dst, open, &labels, &annotations, seen, appendString), nil
}

// spliceMetadata is AppendMetadata where each map the edits change is one
// member of the metadata that they leave with entries (a stash written or
// replaced, the common case): the metadata is copied as it is around the
// changed maps' values, which are edited in place. It reports false, having
// appended nothing, where that is not so.
func (o *Object) spliceMetadata(dst []byte, labels, annotations *MapEdit, appendString func([]byte, string) []byte) ([]byte, bool, error) {
	edits := [2]struct {
		at int32
		e  *MapEdit
	}{{o.metaMaps.labels, labels}, {o.metaMaps.annotations, annotations}}
	if edits[1].at < edits[0].at {
		edits[0], edits[1] = edits[1], edits[0]
	}
	mark, copied := len(dst), 0
	for _, x := range edits {
		if maps.Equal(x.e.Old, x.e.New) {
			continue // nothing to edit
		}
		if x.at <= 0 {
			return dst[:mark], false, nil
		}
		start, end := int(o.metaMembers[2*x.at-2]), int(o.metaMembers[2*x.at-1])
		w := walker{b: o.Metadata, i: start}
		if _, err := w.str(); err != nil {
			return dst[:mark], false, err
		}
		valueStart := w.afterColon()
		dst = append(dst, o.Metadata[copied:valueStart]...)
		var n int
		var err error
		if dst, n, err = appendEdited(dst, o.Metadata[valueStart:end], x.e, appendString); err != nil || n == 0 {
			return dst[:mark], false, err
		}
		copied = end
	}
	return append(dst, o.Metadata[copied:]...), true, nil
}

// afterColon moves w, just past a member's key in JSON the pass that read
// the object validated, past the colon after it, and returns where the
// member's value starts.
func (w *walker) afterColon() int {
	w.space()
	w.i++ // the colon
	w.space()
	return w.i
}

// appendMember appends the member of meta named key, from start to end, its
// value from valueStart: as it is, or, for labels and annotations, edited.
// An edited map left empty is left out, as the reflection codec leaves out
// an empty map of ObjectMeta. seen notes that labels and annotations were
// there.
func appendMember(dst []byte, open int, meta []byte, start, valueStart, end int, key []byte, labels, annotations *MapEdit, seen *[2]bool, appendString func([]byte, string) []byte) ([]byte, error) {
	var e *MapEdit
	switch string(key) {
	case "labels":
		e, seen[0] = labels, true
	case "annotations":
		e, seen[1] = annotations, true
	}
	mark := len(dst)
	if len(dst) > open {
		dst = append(dst, ',')
	}
	if e == nil || maps.Equal(e.Old, e.New) {
		return append(dst, meta[start:end]...), nil
	}
	dst = append(dst, meta[start:valueStart]...)
	var n int
	var err error
	if dst, n, err = appendEdited(dst, meta[valueStart:end], e, appendString); err != nil {
		return nil, err
	}
	if n == 0 {
		return dst[:mark], nil
	}
	return dst, nil
}

// appendMissing appends the labels and annotations the metadata had no
// member for, when not empty, and closes the metadata.
func appendMissing(dst []byte, open int, labels, annotations *MapEdit, seen [2]bool, appendString func([]byte, string) []byte) []byte {
	for i, m := range [...]struct {
		name string
		e    *MapEdit
	}{{"labels", labels}, {"annotations", annotations}} {
		if seen[i] || len(m.e.New) == 0 {
			continue
		}
		if len(dst) > open {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = append(dst, m.name...)
		dst = append(dst, `":`...)
		dst, _, _ = appendEdited(dst, nil, m.e, appendString)
	}
	return append(dst, '}')
}

// onlyAdds reports whether e changes no entry it decoded: every entry of
// Old is in New with its value. A stash written on an object that had none
// is such an edit.
func (e *MapEdit) onlyAdds() bool {
	for k, v := range e.Old {
		if nv, ok := e.New[k]; !ok || nv != v {
			return false
		}
	}
	return true
}

// isObject reports whether raw, a value as it came in, is an object.
func isObject(raw []byte) bool {
	return len(raw) >= 2 && raw[0] == '{' && raw[len(raw)-1] == '}'
}

// appendAdded appends raw, an object, with New's entries that are not in Old
// added before its closing brace, sorted by key: an edit that only adds
// (onlyAdds) keeps every entry that came in, so they are copied whole,
// without a walk over them (kubectl's annotation is a kilobyte of escaped
// JSON to walk). An entry it adds whose key came in but was not decoded
// (no conversion adds one) follows the one that came in, and is the one a
// decoder reads.
func appendAdded(dst, raw []byte, e *MapEdit, appendString func([]byte, string) []byte) []byte {
	n := 0
	if len(bytes.TrimSpace(raw[1:len(raw)-1])) > 0 {
		n = 1
	}
	dst, _ = appendEntries(append(dst, raw[:len(raw)-1]...), n, e.New, func(k string) bool {
		_, ok := e.Old[k]
		return ok
	}, appendString)
	return append(dst, '}')
}

// appendEntries appends the entries of m whose keys skip does not take,
// sorted by key, to an object that has n entries written, and returns how
// many it has then.
func appendEntries(dst []byte, n int, m map[string]string, skip func(string) bool, appendString func([]byte, string) []byte) ([]byte, int) {
	var keys [4]string
	added := keys[:0]
	for k := range m {
		if !skip(k) {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	for _, k := range added {
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		dst = appendString(dst, m[k])
		n++
	}
	return dst, n
}

// transient is b as a string for as long as b is not modified.
func transient(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// appendEdited appends raw, a map of strings as it came in (nil when it did
// not), edited by e, and returns how many entries it wrote: each entry the
// edit does not decide on, and each it does whose value New holds, as it
// came in, in its place; then, sorted by key, New's entries not among them,
// encoded by appendString. Entries written as they came in are not encoded
// again: a map such as kubectl's annotations holds the whole object as
// escaped JSON. raw that is not an object (null) holds no entries.
func appendEdited(dst, raw []byte, e *MapEdit, appendString func([]byte, string) []byte) ([]byte, int, error) {
	if isObject(raw) && e.onlyAdds() {
		return appendAdded(dst, raw, e, appendString), 1, nil
	}
	dst = append(dst, '{')
	n := 0
	var kept []string
	if len(raw) > 0 && raw[0] == '{' {
		w := &walker{b: raw}
		err := w.object(func(start int, key []byte, escaped bool) error {
			w.space()
			valueStart := w.i
			isString := w.i < len(raw) && raw[w.i] == '"'
			valueEscaped := false
			var err error
			if isString {
				valueEscaped, err = w.str()
			} else {
				err = w.value()
			}
			if err != nil {
				return err
			}
			// k lives as long as raw, or the unquoted copy: this call.
			k := transient(unquote(key, escaped))
			if e.managed(k) {
				v, ok := e.New[k]
				if !ok || !isString || string(unquote(raw[valueStart:w.i], valueEscaped)) != v {
					return nil
				}
				kept = append(kept, k)
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, raw[start:w.i]...)
			n++
			return nil
		})
		if err != nil {
			return nil, 0, err
		}
	}
	dst, n = appendEntries(dst, n, e.New, func(k string) bool { return slices.Contains(kept, k) }, appendString)
	return append(dst, '}'), n, nil
}
