package conversiontest

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// An embedded pointer to a struct (`*Extra json:",inline"`) whose fields
// JSON all omits, or writes only as the nulls the API server drops
// (lossless.StoredJSON), reads back from JSON as nil: no client can tell it
// from a nil pointer, and the stash keeps no difference between them (apigen
// seeds 24 and 25). Semantic equality tells them apart, so compare asks it
// again of the objects with such pointers set to nil (withoutHiddenEmbeds),
// as it lets nil and empty be equal where JSON cannot tell them apart.

// withoutHiddenEmbeds returns v with every embedded pointer JSON cannot tell
// from nil set to nil, sharing v's memory where nothing changes, and writing
// none of it.
func withoutHiddenEmbeds(v any) any {
	if v == nil {
		return nil
	}
	out, _ := hideEmbeds(reflect.ValueOf(v))
	return out.Interface()
}

// hideEmbedsIn sets every embedded pointer in obj that JSON cannot tell
// from nil to nil, in place.
func hideEmbedsIn(obj runtime.Object) {
	reflect.ValueOf(obj).Elem().Set(reflect.ValueOf(withoutHiddenEmbeds(obj)).Elem())
}

// hideEmbeds returns v, or a copy of it where it holds an embedded pointer
// JSON cannot tell from nil, with those set to nil, and whether it copied.
func hideEmbeds(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if ownJSON(t) {
		return v, false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := hideEmbeds(v.Elem())
		if !changed {
			return v, false
		}
		if t.Kind() == reflect.Interface {
			return e, true
		}
		n := reflect.New(t.Elem())
		n.Elem().Set(e)
		return n, true
	case reflect.Slice, reflect.Array:
		return hideInElems(v)
	case reflect.Map:
		return hideInMap(v)
	case reflect.Struct:
		return hideInFields(v)
	}
	return v, false
}

func hideInElems(v reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := 0; i < v.Len(); i++ {
		e, changed := hideEmbeds(v.Index(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = copyElems(v)
		}
		out.Index(i).Set(e)
	}
	return orSame(out, v)
}

// copyElems returns a slice or array of its own, settable, equal to v.
func copyElems(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Array {
		n := reflect.New(v.Type()).Elem()
		n.Set(v)
		return n
	}
	n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(n, v)
	return n
}

func hideInMap(v reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	it := v.MapRange()
	for it.Next() {
		e, changed := hideEmbeds(it.Value())
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.MakeMapWithSize(v.Type(), v.Len())
			for c := v.MapRange(); c.Next(); {
				out.SetMapIndex(c.Key(), c.Value())
			}
		}
		out.SetMapIndex(it.Key(), e)
	}
	return orSame(out, v)
}

// hideInFields walks the exported fields JSON writes; an embedded pointer
// among them that JSON cannot tell from nil becomes nil, and an omitzero
// field JSON leaves out as zero becomes zero.
func hideInFields(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	var out reflect.Value
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		e, changed := v.Field(i), false
		if f.Anonymous && name == "" && hidden(e) || omitsAsZero(f, e) {
			e, changed = reflect.Zero(f.Type), true
		} else {
			e, changed = hideEmbeds(e)
		}
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(i).Set(e)
	}
	return orSame(out, v)
}

// hidden reports whether p, an embedded field, is a pointer to a struct
// JSON promotes the fields of and shows none of once stored.
func hidden(p reflect.Value) bool {
	t := p.Type()
	if t.Kind() != reflect.Pointer || p.IsNil() || t.Elem().Kind() != reflect.Struct || ownJSON(t.Elem()) {
		return false
	}
	data, err := json.Marshal(p.Interface())
	if err == nil {
		data, err = lossless.StoredJSON(data, t)
	}
	return err == nil && string(data) == "{}"
}

var isZeroerType = reflect.TypeOf((*interface{ IsZero() bool })(nil)).Elem()

// omitsAsZero reports whether e, field f's value, is one encoding/json
// leaves out as zero though it is not Go's zero value: an omitzero field
// whose IsZero method says so (a *resource.Quantity of "0"), which reads
// back as the zero value (apigen seed 71).
func omitsAsZero(f reflect.StructField, e reflect.Value) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if !slices.Contains(strings.Split(opts, ","), "omitzero") || e.IsZero() {
		return false
	}
	if !e.Type().Implements(isZeroerType) {
		if !reflect.PointerTo(e.Type()).Implements(isZeroerType) {
			return false
		}
		p := reflect.New(e.Type())
		p.Elem().Set(e)
		e = p
	}
	return e.Interface().(interface{ IsZero() bool }).IsZero()
}

// orSame returns out, a copy made, and true, or v and false when out is
// none.
func orSame(out, v reflect.Value) (reflect.Value, bool) {
	if !out.IsValid() {
		return v, false
	}
	return out, true
}
