package typedjson

import (
	"strconv"

	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// IntOrString decodes an intstr.IntOrString (ports, surge and
// unavailability budgets) as its UnmarshalJSON method does, without the
// method's trip through encoding/json for each value: a plain string sets
// Type and StrVal, an integer that fits in 32 bits Type and IntVal, each
// leaving the other field as it was. Anything else (null, escapes, a
// fraction, another kind) goes to the method itself.
func IntOrString(d *Decoder, v *intstr.IntOrString) error {
	switch d.dec.Peek() {
	case jsonscan.KindString:
		raw, err := d.dec.Value()
		if err != nil {
			return err
		}
		if !d.dec.Plain() {
			return v.UnmarshalJSON(raw)
		}
		v.Type, v.StrVal = intstr.String, d.intern(raw[1:len(raw)-1])
		return nil
	case jsonscan.KindNumber:
		s, err := d.number()
		if err != nil {
			return err
		}
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return v.UnmarshalJSON([]byte(s)) // its error, as encoding/json words it
		}
		v.Type, v.IntVal = intstr.Int, int32(n)
		return nil
	}
	return Unmarshal(d, v)
}

// AppendIntOrString appends v as its MarshalJSON method writes it, which
// quotes a string with encoding/json's HTML escaping: an integer, or a
// string of printable ASCII that nothing escapes, as it is; anything else
// through the method (AppendMarshal).
func AppendIntOrString(b []byte, v *intstr.IntOrString) ([]byte, error) {
	switch v.Type {
	case intstr.Int:
		return strconv.AppendInt(b, int64(v.IntVal), 10), nil
	case intstr.String:
		for i := 0; i < len(v.StrVal); i++ {
			if c := v.StrVal[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				return AppendMarshal(b, *v)
			}
		}
		b = append(b, '"')
		b = append(b, v.StrVal...)
		return append(b, '"'), nil
	}
	return AppendMarshal(b, *v)
}
