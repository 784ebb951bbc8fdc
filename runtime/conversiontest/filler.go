package conversiontest

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/randfill"
)

// The shape of random objects. Conversions work field by field, so small
// objects find the same bugs as big ones, much faster: up to three elements
// per slice or map reach every element conversion, and a nil chance of 0.2
// exercises both nil and set pointers, and nil and empty slices and maps.
// The depth limit counts every struct, pointer, slice, map and element on
// the way down. 12 reaches a quantity in the resource limits of a container
// in a pod template in a job template in a CRD's spec, yet keeps a
// recursive type (a schema that contains itself) from growing exponentially.
// Anything deeper is left at its zero value, which is still a valid input.
const (
	nilChance   = 0.2
	minElements = 0
	maxElements = 3
	maxDepth    = 12
)

// newFiller returns a Filler seeded with seed, set up with the default fill
// functions, those derived from the types that objects reach (see
// derivedFillFuncs), and then extra. RoundTrip makes one per direction and
// reuses it for every iteration.
func newFiller(seed int64, extra []any, objects ...any) (*randfill.Filler, error) {
	return configure(randfill.NewWithSeed(seed), extra, objects)
}

// newFuzzFiller returns a Filler that draws its randomness from a fuzzer's
// input, so that the fuzzing engine's mutations steer the random objects.
func newFuzzFiller(data []byte, extra []any, objects ...any) (*randfill.Filler, error) {
	return configure(randfill.NewFromGoFuzz(data), extra, objects)
}

func configure(f *randfill.Filler, extra, objects []any) (*randfill.Filler, error) {
	extra = keepOmittedZero(extra)
	f.NilChance(nilChance).NumElements(minElements, maxElements).MaxDepth(maxDepth)
	// The derived functions go before the defaults, so that a default (and
	// then an author's function) for the same type replaces them.
	defaults := append(derivedFillFuncs(reachableTypes(objects)), DefaultFillFuncs()...)
	// The nil-able pointer functions go first, so that a function for a
	// **T that the defaults or the author provide replaces them.
	for _, fn := range append(slices.Clip(defaults), extra...) {
		if nilable, ok := nilablePointerFunc(fn); ok {
			f.Funcs(nilable)
		}
	}
	f.Funcs(defaults...)
	for i, fn := range extra {
		if err := addFunc(f, fn); err != nil {
			return nil, fmt.Errorf("conversiontest: Pair.FillFuncs[%d] (%T): %v", i, fn, err)
		}
	}
	return f, nil
}

var (
	continueType = reflect.TypeOf((*randfill.Continue)(nil)).Elem()
	bytesType    = reflect.TypeOf((*[]byte)(nil)).Elem()
)

// rawJSONPackages is where apiextensions' JSON types live (v1 and v1beta1):
// a field of such a type holds any JSON value, kept as its bytes.
const rawJSONPackages = "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/"

// derivedFillFuncs returns the fill functions that the types objects reach
// need, found by reflection because they depend on the user's types: those
// for raw JSON (rawJSONFillFuncs), for maps and slices of pointers
// (pointerElementsFillFuncs) and for structs with fields JSON omits
// (omittedFieldsFillFuncs).
func derivedFillFuncs(types []reflect.Type) []any {
	out := rawJSONFillFuncs(types)
	out = append(out, pointerElementsFillFuncs(types)...)
	return append(out, omittedFieldsFillFuncs(types)...)
}

// reachableTypes returns the types of objects and every type they reach
// through pointers, slices, arrays, maps and struct fields, each once, in
// the order first reached. It does not look inside raw JSON types, which
// are filled whole.
func reachableTypes(objects []any) []reflect.Type {
	var out []reflect.Type
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		out = append(out, t)
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			if isRawJSON(t) {
				return
			}
			for i := 0; i < t.NumField(); i++ {
				walk(t.Field(i).Type)
			}
		}
	}
	for _, obj := range objects {
		if t := reflect.TypeOf(obj); t != nil {
			walk(t)
		}
	}
	return out
}

// rawJSONFillFuncs returns a fill function for every apiextensions JSON type
// among types: random bytes would not be JSON, so each gets a small JSON
// value as fillJSONValue makes it.
//
// The types are found by reflection, not named, so that this module does not
// import apiextensions-apiserver: generated API code imports this package,
// and a module that imports it must not need a Kubernetes module it does not
// use itself (nor be raised to the version this module would require).
func rawJSONFillFuncs(types []reflect.Type) []any {
	var out []any
	for _, t := range types {
		if t.Kind() == reflect.Struct && isRawJSON(t) {
			out = append(out, fillFunc(t, fillRawJSON))
		}
	}
	return out
}

// isRawJSON reports whether t is apiextensions' JSON: struct{ Raw []byte }
// named JSON in one of its API versions.
func isRawJSON(t reflect.Type) bool {
	return t.Name() == "JSON" && strings.HasPrefix(t.PkgPath(), rawJSONPackages) &&
		t.NumField() == 1 && t.Field(0).Name == "Raw" && t.Field(0).Type == bytesType
}

// fillRawJSON fills v, a raw JSON struct (see isRawJSON), with a small JSON
// value.
func fillRawJSON(v reflect.Value, c randfill.Continue) {
	v.SetZero()
	v.Field(0).SetBytes(fillJSONValue(c))
}

// fillFunc is a func(*T, randfill.Continue), for randfill, that calls fill
// with the T its first argument points to.
func fillFunc(t reflect.Type, fill func(v reflect.Value, c randfill.Continue)) any {
	signature := reflect.FuncOf([]reflect.Type{reflect.PointerTo(t), continueType}, nil, false)
	return reflect.MakeFunc(signature, func(args []reflect.Value) []reflect.Value {
		fill(args[0].Elem(), args[1].Interface().(randfill.Continue))
		return nil
	}).Interface()
}

// nilablePointerFunc derives, from a fill function for *T, one for **T that
// leaves the pointer nil with the filler's nil chance and otherwise fills a
// new T with fn.
//
// It is needed because randfill always allocates a pointer to a type that
// has a fill function before calling the function: without it a field of
// type *metav1.Time, or *T for any T in Pair.FillFuncs, would never be nil,
// and conversions would never see the nil case. (The functions get the
// nil-able pointer's address because randfill looks for a function for the
// field's address before one for the field.)
func nilablePointerFunc(fn any) (any, bool) {
	t := reflect.TypeOf(fn)
	if t == nil || t.Kind() != reflect.Func || t.NumIn() != 2 || t.NumOut() != 0 || t.In(1) != continueType {
		return nil, false // not a fill function; addFunc reports it
	}
	ptr := t.In(0)
	if ptr.Kind() != reflect.Pointer || ptr.Elem().Kind() == reflect.Pointer {
		return nil, false
	}
	signature := reflect.FuncOf([]reflect.Type{reflect.PointerTo(ptr), continueType}, nil, false)
	return reflect.MakeFunc(signature, func(args []reflect.Value) []reflect.Value {
		field, c := args[0].Elem(), args[1].Interface().(randfill.Continue)
		if c.Float64() < nilChance {
			field.SetZero()
			return nil
		}
		v := reflect.New(ptr.Elem())
		c.Fill(v.Interface()) // dispatches to the fill function for *T
		field.Set(v)
		return nil
	}).Interface(), true
}

// addFunc registers fn, turning randfill's panic on a malformed function
// into an error that names the offending entry.
func addFunc(f *randfill.Filler, fn any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f.Funcs(fn)
	return nil
}
