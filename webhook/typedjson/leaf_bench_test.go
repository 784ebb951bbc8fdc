package typedjson

import (
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// BenchmarkLeaves reads a stored object's quantities and integers, again
// and again as the objects of a review bring them, as the decoder reads a
// leaf's text (Decoder.parsed; shortInt and fits) and as parsing it each
// time does (ParseQuantity of the interned text, strconv.ParseInt), in one
// run.
func BenchmarkLeaves(b *testing.B) {
	quantities := [][]byte{[]byte("250m"), []byte("1Ki"), []byte("500Mi")}
	b.Run("leaf=quantity/by=typedjson", func(b *testing.B) {
		var d Decoder
		for n := 0; n < b.N; n++ {
			for _, q := range quantities {
				if _, err := d.parsed(q); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("leaf=quantity/by=ParseQuantity", func(b *testing.B) {
		var d Decoder
		for n := 0; n < b.N; n++ {
			for _, q := range quantities {
				if _, err := resource.ParseQuantity(strings.TrimSpace(d.intern(q))); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	ints := []string{"3", "12", "80", "143", "1700000000"}
	b.Run("leaf=int/by=typedjson", func(b *testing.B) {
		for n := 0; n < b.N; n++ {
			for _, lit := range ints {
				if n, ok := shortInt(lit); !ok || !fits(n, 32) {
					b.Fatal(lit)
				}
			}
		}
	})
	b.Run("leaf=int/by=strconv", func(b *testing.B) {
		for n := 0; n < b.N; n++ {
			for _, lit := range ints {
				if _, err := strconv.ParseInt(lit, 10, 32); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
