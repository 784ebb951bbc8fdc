package lossless

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var (
	typeMetaType   = reflect.TypeFor[metav1.TypeMeta]()
	objectMetaType = reflect.TypeFor[metav1.ObjectMeta]()
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
func restore(out, base, saved any) {
	vo, vb, vs := reflect.ValueOf(out).Elem(), reflect.ValueOf(base).Elem(), reflect.ValueOf(saved).Elem()
	for _, i := range dataFields(vo.Type()) {
		merge(vo.Field(i), vb.Field(i), vs.Field(i))
	}
}

func merge(out, base, saved reflect.Value) {
	if semanticEqual(out, base) {
		out.Set(saved)
		return
	}
	switch out.Kind() {
	case reflect.Struct:
		for i := range out.NumField() {
			if out.Type().Field(i).IsExported() {
				merge(out.Field(i), base.Field(i), saved.Field(i))
			}
		}
	case reflect.Pointer:
		if !out.IsNil() && !base.IsNil() && !saved.IsNil() {
			merge(out.Elem(), base.Elem(), saved.Elem())
		}
	case reflect.Slice:
		if out.Len() == base.Len() && base.Len() == saved.Len() {
			for i := range out.Len() {
				merge(out.Index(i), base.Index(i), saved.Index(i))
			}
		}
	case reflect.Array:
		for i := range out.Len() {
			merge(out.Index(i), base.Index(i), saved.Index(i))
		}
	case reflect.Map:
		if out.IsNil() || base.IsNil() || saved.IsNil() {
			return
		}
		for _, k := range out.MapKeys() {
			b, s := base.MapIndex(k), saved.MapIndex(k)
			if !b.IsValid() || !s.IsValid() {
				continue
			}
			v := reflect.New(out.Type().Elem()).Elem()
			v.Set(out.MapIndex(k))
			merge(v, b, s)
			out.SetMapIndex(k, v)
		}
	}
}
