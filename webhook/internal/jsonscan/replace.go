package jsonscan

import (
	"bytes"
	"encoding/json"
)

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
		switch keyName(key, escaped) {
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
