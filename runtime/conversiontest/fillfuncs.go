package conversiontest

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"
)

// DefaultFillFuncs returns the randfill custom fill functions RoundTrip and
// FuzzRoundTrip always use, before Pair.FillFuncs. They exist because the
// stash annotations are JSON: a value that does not come back unchanged
// from encoding/json would make a correct conversion fail. They fill
//
//   - metav1.TypeMeta: left empty, as in a typed object in memory; the
//     round trip compares objects without it.
//   - metav1.ObjectMeta: valid metadata, see fillObjectMeta; no annotation
//     is under conversion.crdforge.io/, which conversions own.
//   - resource.Quantity: a random value in canonical form.
//   - metav1.Time, metav1.MicroTime and time.Time: within about a thousand
//     years of 1970, at the precision their JSON form keeps (seconds,
//     microseconds and nanoseconds).
//   - runtime.RawExtension: a small JSON object in Raw, Object nil; an
//     arbitrary runtime.Object would be an interface randfill cannot fill.
//   - intstr.IntOrString: an int or a string, with Type to match. From
//     apimachinery v0.33 on it fills itself this way (a RandFill method);
//     before, its fill method is gofuzz's, which randfill does not call.
//   - interface{}: a small JSON value, decoded as encoding/json decodes it.
//
// apiextensionsv1.JSON (a small JSON value other than null) has its fill
// function too, but not among these: RoundTrip finds the JSON types that the
// Pair's objects reach by reflection (see rawJSONFillFuncs), so that this
// package needs no import of apiextensions-apiserver. It finds the same way,
// and fills as a client could write them, the maps and slices of pointers
// (no nil element, see pointerElementsFillFuncs) and the structs with
// fields tagged json:"-" (left zero, see omittedFieldsFillFuncs).
//
// Each call returns a new slice, which callers may append to.
func DefaultFillFuncs() []any {
	return []any{
		fillTypeMeta,
		fillObjectMeta,
		fillQuantity,
		fillTime,
		fillMicroTime,
		fillGoTime,
		fillRawExtension,
		fillIntOrString,
		fillAny,
	}
}

// fillAny fills an interface{} with what encoding/json decodes a small JSON
// value into (a string, a float64, a bool, a map[string]any or a []any), as
// an any in an API type holds: OpenTelemetry's collector config is a
// map[string]interface{}. randfill fills no interface by itself.
func fillAny(v *any, c randfill.Continue) {
	var out any
	if err := json.Unmarshal(appendJSONValue(nil, c, 2), &out); err != nil {
		panic(err) // appendJSONValue writes JSON
	}
	*v = out
}

// fillIntOrString fills either the int or the string, and sets Type to
// match: a Type of neither kind does not even encode as JSON.
func fillIntOrString(v *intstr.IntOrString, c randfill.Continue) {
	if c.Bool() {
		*v = intstr.IntOrString{Type: intstr.Int}
		c.Fill(&v.IntVal)
		return
	}
	*v = intstr.IntOrString{Type: intstr.String}
	c.Fill(&v.StrVal)
}

// fillTypeMeta leaves apiVersion and kind empty. Typed objects usually carry
// no TypeMeta in memory, and what a conversion sets there is decided by the
// destination type, not carried over from the source.
func fillTypeMeta(tm *metav1.TypeMeta, _ randfill.Continue) {
	*tm = metav1.TypeMeta{}
}

// fillQuantity picks a value of up to twelve digits, sometimes in
// thousandths, sometimes negative, in any of the three formats, and then
// parses its canonical string. The result is exactly what decoding its JSON
// gives back, so it compares equal even without semantic comparison.
func fillQuantity(q *resource.Quantity, c randfill.Continue) {
	formats := [...]resource.Format{resource.DecimalSI, resource.BinarySI, resource.DecimalExponent}
	format := formats[c.Intn(len(formats))]

	v := c.Int63n(pow10[c.Intn(len(pow10))])
	if c.Intn(8) == 0 {
		v = -v
	}
	var raw *resource.Quantity
	if c.Intn(3) == 0 {
		raw = resource.NewMilliQuantity(v, format)
	} else {
		raw = resource.NewQuantity(v, format)
	}
	*q = resource.MustParse(raw.String())
}

// pow10 are the bounds fillQuantity draws from, so that small and large
// magnitudes, and with them all the SI suffixes, are equally likely.
var pow10 = [...]int64{1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12}

// maxUnixSeconds bounds random times to about a thousand years after 1970,
// which every time format can write and parse; apimachinery's own fill
// functions use the same range.
const maxUnixSeconds = 1000 * 365 * 24 * 60 * 60

// fillTime fills whole seconds: metav1.Time's JSON form is RFC 3339 without
// fractions. apimachinery has a RandFill method that does the same, but only
// in builds without the notest tag; this one does not depend on build tags.
func fillTime(t *metav1.Time, c randfill.Continue) {
	t.Time = time.Unix(c.Int63n(maxUnixSeconds), 0)
}

// fillMicroTime fills whole microseconds, what metav1.MicroTime's JSON keeps.
func fillMicroTime(t *metav1.MicroTime, c randfill.Continue) {
	t.Time = time.Unix(c.Int63n(maxUnixSeconds), 1000*c.Int63n(1e6))
}

// fillGoTime fills a plain time.Time in UTC, which is how it decodes from
// JSON; randfill's default uses the local zone. The comparison forgives the
// zone either way, but identical values take its fast path.
func fillGoTime(t *time.Time, c randfill.Continue) {
	*t = time.Unix(c.Int63n(maxUnixSeconds), c.Int63n(1e9)).UTC()
}

// fillRawExtension fills Raw with a small JSON object. Random bytes would
// not be JSON at all, and Object is an interface randfill cannot fill; a
// RawExtension decoded from JSON has only Raw anyway.
func fillRawExtension(r *runtime.RawExtension, c randfill.Continue) {
	*r = runtime.RawExtension{Raw: appendJSONObject(nil, c, 2)}
}

// fillJSONValue is the Raw of an apiextensionsv1.JSON: a small JSON value.
// Never null: apiextensionsv1.JSON writes an empty Raw as null and reads
// null back as an empty Raw, so null would not survive byte for byte.
func fillJSONValue(c randfill.Continue) []byte {
	return appendJSONValue(nil, c, 2)
}

// appendJSONValue appends a random JSON value, nesting objects and arrays at
// most depth levels. The text is what encoding/json writes for the decoded
// value: compact, keys sorted and unique, integers small enough for a
// float64, strings that need no escaping (encoding/json escapes <, > and &,
// even in the output of a MarshalJSON method). So a conversion may keep the
// raw bytes or decode and re-encode them; both round-trip exactly.
func appendJSONValue(b []byte, c randfill.Continue, depth int) []byte {
	kinds := 3
	if depth > 0 {
		kinds = 5
	}
	switch c.Intn(kinds) {
	case 0:
		return appendJSONString(b, c)
	case 1:
		return strconv.AppendInt(b, c.Int63n(2001)-1000, 10)
	case 2:
		return strconv.AppendBool(b, c.Bool())
	case 3:
		return appendJSONObject(b, c, depth)
	default:
		b = append(b, '[')
		for i, n := 0, c.Intn(maxElements+1); i < n; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONValue(b, c, depth-1)
		}
		return append(b, ']')
	}
}

// appendJSONObject appends a JSON object of up to maxElements members.
func appendJSONObject(b []byte, c randfill.Continue, depth int) []byte {
	keys := make([]string, c.Intn(maxElements+1))
	for i := range keys {
		keys[i] = randomName(c, lowerAlpha, lowerAlpha, 1, 8)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)

	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, k)
		b = append(b, ':')
		b = appendJSONValue(b, c, depth-1)
	}
	return append(b, '}')
}

func appendJSONString(b []byte, c randfill.Continue) []byte {
	const chars = alnum + " -_."
	return strconv.AppendQuote(b, randomName(c, chars, chars, 0, 12))
}
