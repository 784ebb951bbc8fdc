package typedjson

import (
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// Quantity decodes a resource.Quantity as its UnmarshalJSON method does,
// ParseQuantity of the value with its quotes (but not its escapes) taken
// off and spaces trimmed. A value this decoder parsed before is not parsed
// again (Decoder.parsed): "500m" and "1Gi" come back object after object.
// null, and any kind the method refuses, go to the method itself.
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
	q, err := d.parsed(raw)
	if err != nil {
		return err
	}
	*v = q
	return nil
}

// parsedQuantity is a quantity a Decoder parsed, and the text it parsed.
type parsedQuantity struct {
	text string
	q    resource.Quantity
}

// quantitySlots is the number of quantities a Decoder keeps, in pairs of
// slots as strings are kept (Decoder.intern).
const quantitySlots = 32

// parsed returns ParseQuantity of raw, spaces trimmed: the quantity kept
// from the last time raw was parsed, when a slot still holds it, else one
// parsed now. Only a quantity held as an int64 is kept, which a copy does
// not share: one held as an inf.Dec is changed in place by its methods
// (Add, Neg, ...), and the next object decoded must not see that.
func (d *Decoder) parsed(raw []byte) (resource.Quantity, error) {
	pair := (*[2]parsedQuantity)(d.quantities[pairAt(raw, quantitySlots):])
	switch {
	case pair[0].text != "" && pair[0].text == string(raw):
		return pair[0].q, nil
	case pair[1].text != "" && pair[1].text == string(raw):
		pair[0], pair[1] = pair[1], pair[0]
		return pair[0].q, nil
	}
	text := d.intern(raw)
	q, err := resource.ParseQuantity(strings.TrimSpace(text))
	if err == nil && !heldAsDec(q) {
		pair[1], pair[0] = pair[0], parsedQuantity{text, q}
	}
	return q, err
}

// heldAsDec reports whether q holds its value as an inf.Dec, which copies
// of q share; true when q is not laid out as the one way to tell expects
// (its unexported field d, an infDecAmount of one *inf.Dec).
func heldAsDec(q resource.Quantity) bool {
	d := reflect.ValueOf(q).FieldByName("d")
	if d.Kind() != reflect.Struct || d.NumField() != 1 || d.Field(0).Kind() != reflect.Pointer {
		return true
	}
	return !d.Field(0).IsNil()
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
