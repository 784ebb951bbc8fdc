package conversiontest

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"

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

// keepOmittedZero returns fns with each fill function of a struct type that
// has fields tagged json:"-" (as omittedFieldsFillFuncs picks them) made to
// zero those fields after it fills. Such a function, an author's or
// crdforge's own for a narrowing (which calls FillNoCustom on the struct),
// replaces the derived one, and would otherwise fill them: a hub-only one
// comes back nil from the spoke, which no stash can help (apigen seed 57).
// Anything else, a malformed function included, is left for addFunc.
func keepOmittedZero(fns []any) []any {
	out := slices.Clone(fns)
	for i, fn := range out {
		t := reflect.TypeOf(fn)
		if t == nil || t.Kind() != reflect.Func || t.NumIn() != 2 || t.NumOut() != 0 || t.In(1) != continueType || t.In(0).Kind() != reflect.Pointer {
			continue
		}
		if st := t.In(0).Elem(); st.Kind() == reflect.Struct && hasOmittedField(st) && !marshalsItself(st) {
			out[i] = zeroingOmitted(reflect.ValueOf(fn))
		}
	}
	return out
}

// zeroingOmitted returns fn, a fill function of a struct type, followed by
// zeroing the struct's fields tagged json:"-".
func zeroingOmitted(fn reflect.Value) any {
	return reflect.MakeFunc(fn.Type(), func(args []reflect.Value) []reflect.Value {
		fn.Call(args)
		v := args[0].Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && omitted(f) {
				v.Field(i).SetZero()
			}
		}
		return nil
	}).Interface()
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
