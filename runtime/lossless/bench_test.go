package lossless

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
)

// BenchmarkSemanticEqual compares two equal widget-like objects, spec and
// status, as sameData and the sparse stash's diff do, with this package's
// equality and with equality.Semantic.DeepEqual.
func BenchmarkSemanticEqual(b *testing.B) {
	x, y := widgetLike(), widgetLike()
	b.Run("impl=lossless", func(b *testing.B) {
		b.ReportAllocs()
		for n := 0; n < b.N; n++ {
			if !sameData(x, y) {
				b.Fatal("differ")
			}
		}
	})
	b.Run("impl=equality.Semantic", func(b *testing.B) {
		b.ReportAllocs()
		vx, vy := reflect.ValueOf(x).Elem(), reflect.ValueOf(y).Elem()
		for n := 0; n < b.N; n++ {
			for _, i := range dataFields(vx.Type()) {
				if !equality.Semantic.DeepEqual(vx.Field(i).Interface(), vy.Field(i).Interface()) {
					b.Fatal("differ")
				}
			}
		}
	})
}

// BenchmarkConvertStashing converts a big object to small, which cannot
// hold some of its fields: the conversion, its round trip back, and the
// sparse stash of what differs, as every lossy conversion does.
func BenchmarkConvertStashing(b *testing.B) {
	src := fullBig()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var s small
		if err := Convert(src, &s, bigToSmallDir, smallToBigDir); err != nil {
			b.Fatal(err)
		}
	}
}
