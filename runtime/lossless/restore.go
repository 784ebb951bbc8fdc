package lossless

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	typeMetaType   = reflect.TypeOf((*metav1.TypeMeta)(nil)).Elem()
	objectMetaType = reflect.TypeOf((*metav1.ObjectMeta)(nil)).Elem()
)

func isMeta(t reflect.Type) bool { return t == typeMetaType || t == objectMetaType }

// restore brings back into out the data of saved, an object of the same
// version stashed before a conversion lost part of it. base is what the
// mechanical round trip through the other version makes of saved. Every
// field where out still equals base was not changed through the other
// version, so it takes saved's value; a field that differs was changed there,
// and out keeps it. Lists are merged element by element while their lengths
// agree, maps key by key. TypeMeta and ObjectMeta are left alone. saved must
// not be used afterwards: out may share its memory.
//
// out is the result of a conversion, which may share its slices, maps and
// pointers with the conversion's source (generated conversions do, as
// conversion-gen's do), and Convert never modifies its source: so restore
// writes only out's own fields, and copies a slice, map or pointed-to value
// of out before it writes into it (only those on the way to a write).
func restore(out, base, saved any) {
	vo, vb, vs := reflect.ValueOf(out).Elem(), reflect.ValueOf(base).Elem(), reflect.ValueOf(saved).Elem()
	for _, i := range dataFields(vo.Type()) {
		merge(vo.Field(i), vb.Field(i), vs.Field(i))
	}
}

// merge merges base and saved into out (see restore) and reports whether it
// wrote anything. It writes only out's own memory: out itself and, for a
// struct or an array, its fields or elements in place; a slice, map or
// pointer out holds is replaced by a copy holding the merged values.
func merge(out, base, saved reflect.Value) bool {
	if semanticEqual(out, base) {
		out.Set(saved)
		return true
	}
	wrote := false
	switch out.Kind() {
	case reflect.Struct:
		for i := 0; i < out.NumField(); i++ {
			if out.Type().Field(i).IsExported() && merge(out.Field(i), base.Field(i), saved.Field(i)) {
				wrote = true
			}
		}
	case reflect.Array:
		for i := 0; i < out.Len(); i++ {
			if merge(out.Index(i), base.Index(i), saved.Index(i)) {
				wrote = true
			}
		}
	case reflect.Pointer:
		if out.IsNil() || base.IsNil() || saved.IsNil() {
			return false
		}
		// Merged in a new value, which becomes out's only if written.
		v := reflect.New(out.Type().Elem())
		v.Elem().Set(out.Elem())
		if merge(v.Elem(), base.Elem(), saved.Elem()) {
			out.Set(v)
			wrote = true
		}
	case reflect.Slice:
		if out.Len() != base.Len() || base.Len() != saved.Len() {
			return false
		}
		// Each element is merged in a scratch copy; the slice is copied at
		// the first element written.
		var copied reflect.Value
		elem := reflect.New(out.Type().Elem()).Elem()
		for i := 0; i < out.Len(); i++ {
			elem.Set(out.Index(i))
			if !merge(elem, base.Index(i), saved.Index(i)) {
				continue
			}
			if !copied.IsValid() {
				copied = reflect.MakeSlice(out.Type(), out.Len(), out.Len())
				reflect.Copy(copied, out)
			}
			copied.Index(i).Set(elem)
		}
		if copied.IsValid() {
			out.Set(copied)
			wrote = true
		}
	case reflect.Map:
		if out.IsNil() || base.IsNil() || saved.IsNil() {
			return false
		}
		var copied reflect.Value
		elem := reflect.New(out.Type().Elem()).Elem()
		for _, k := range out.MapKeys() {
			b, s := base.MapIndex(k), saved.MapIndex(k)
			if !b.IsValid() || !s.IsValid() {
				continue
			}
			elem.Set(out.MapIndex(k))
			if !merge(elem, b, s) {
				continue
			}
			if !copied.IsValid() {
				copied = reflect.MakeMapWithSize(out.Type(), out.Len())
				iter := out.MapRange()
				for iter.Next() {
					copied.SetMapIndex(iter.Key(), iter.Value())
				}
			}
			copied.SetMapIndex(k, elem)
		}
		if copied.IsValid() {
			out.Set(copied)
			wrote = true
		}
	}
	return wrote
}
