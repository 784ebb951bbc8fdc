package typedjson

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// Quantity decodes a resource.Quantity as its UnmarshalJSON method does,
// ParseQuantity of the value with its quotes (but not its escapes) taken
// off and spaces trimmed, with the string shared with other values alike
// (Decoder.intern) rather than allocated for each: "500m" and "1Gi" come
// back object after object. null, and any kind the method refuses, go to
// the method itself.
func Quantity(d *Decoder, v *resource.Quantity) error {
	switch d.dec.Peek() {
	case jsonscan.KindString, jsonscan.KindNumber:
	default:
		return Unmarshal(d, v)
	}
	raw, err := d.dec.Value()
	if err != nil {
		return err
	}
	if raw[0] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	q, err := resource.ParseQuantity(strings.TrimSpace(d.intern(raw)))
	if err != nil {
		return err
	}
	*v = q
	return nil
}

// AppendQuantity appends q as its MarshalJSON method writes it: its
// String, the string it was parsed from when that was canonical, else its
// canonical form, quoted. A copy of q gives the string, as String caches
// what it works out in the quantity. A string that would need escaping,
// which no quantity has, goes through the method (AppendMarshal).
func AppendQuantity(b []byte, q *resource.Quantity) ([]byte, error) {
	c := *q
	s := c.String()
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return AppendMarshal(b, *q)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}
