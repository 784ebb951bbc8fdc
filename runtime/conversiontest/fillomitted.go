package conversiontest

import (
	"encoding"
	"encoding/json"
	"reflect"

	"sigs.k8s.io/randfill"
)

// omittedFieldsFillFuncs returns a fill function for every struct type among
// types with an exported field tagged json:"-": it fills the struct's other
// exported fields as randfill would and leaves those at their zero value.
//
// JSON never carries such a field, so an object a conversion webhook reads
// always has it zero, and a stash (JSON too) cannot keep it. Filled at
// random, it would fail a correct conversion twice over: a spoke-only one
// comes back zero, and one both versions hold, set in a list element, makes
// the element differ from what the stash describes, so the stash is not
// restored and a hub-only field beside it is lost.
//
// A struct with a JSON form of its own (a MarshalJSON method, as
// apiextensionsv1.JSON and runtime.RawExtension have for their json:"-"
// Raw) carries those fields after all, and one that fills itself (a
// RandFill method) keeps its own way.
func omittedFieldsFillFuncs(types []reflect.Type) []any {
	var out []any
	for _, t := range types {
		if t.Kind() == reflect.Struct && hasOmittedField(t) && !marshalsItself(t) && !fillsItself(t) {
			out = append(out, fillFunc(t, fillJSONFields))
		}
	}
	return out
}

// fillJSONFields fills v's exported fields that JSON carries, each as
// randfill fills a struct's fields, and zeroes the rest.
func fillJSONFields(v reflect.Value, c randfill.Continue) {
	v.SetZero()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && !omitted(f) {
			c.Fill(v.Field(i).Addr().Interface())
		}
	}
}

func hasOmittedField(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && omitted(f) {
			return true
		}
	}
	return false
}

// omitted reports whether encoding/json leaves f out: its tag is exactly
// "-" ("-," names a member "-").
func omitted(f reflect.StructField) bool {
	return f.Tag.Get("json") == "-"
}

var (
	jsonMarshalerType    = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textMarshalerType    = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	simpleSelfFillerType = reflect.TypeOf((*randfill.SimpleSelfFiller)(nil)).Elem()
	nativeSelfFillerType = reflect.TypeOf((*randfill.NativeSelfFiller)(nil)).Elem()
)

// marshalsItself reports whether encoding/json writes t with a method of
// t's rather than field by field.
func marshalsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonMarshalerType) || p.Implements(textMarshalerType)
}

// fillsItself reports whether randfill would call a RandFill method of t's
// rather than fill its fields: a fill function would take precedence.
func fillsItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(simpleSelfFillerType) || p.Implements(nativeSelfFillerType)
}
