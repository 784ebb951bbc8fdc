package lossless

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"testing"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

type leafSmall struct {
	Years int32        `json:"years"`
	Until *metav1.Time `json:"until,omitempty"`
	Note  string       `json:"note,omitempty"`
}

type leafEmbedded struct {
	Promoted string `json:"promoted,omitempty"`
	Shadowed int    `json:"s"`
}

type leafName string

type leafNode struct {
	Next *leafNode `json:"next,omitempty"`
	V    int       `json:"v"`
}

type leafAll struct {
	leafEmbedded
	B     bool                 `json:"b"`
	I8    int8                 `json:"i8,omitempty"`
	I     int                  `json:"i"`
	U16   uint16               `json:"u16,omitempty"`
	U64   uint64               //nolint:tagliatelle // encoding/json's name for an untagged field
	S     string               `json:"s,omitempty"`
	P     *int32               `json:"p,omitempty"`
	PS    *leafSmall           `json:"ps"`
	T     metav1.Time          `json:"t"`
	TP    *metav1.Time         `json:"tp,omitempty"`
	L     []leafSmall          `json:"l,omitempty"`
	LP    []*leafSmall         `json:"lp"`
	M     map[string]leafSmall `json:"m"`
	MS    map[leafName]string  `json:"ms,omitempty"`
	Named leafName             `json:"named"`
	Node  leafNode             `json:"node"`
	Skip  string               `json:"-"`
	_     int
}

// A leaf's encoder writes what encoding/json writes, HTML escaping and
// all, for every value it takes, and takes every value of plain strings.
func TestLeafEncoderWritesWhatEncodingJSONWrites(t *testing.T) {
	enc := encoderOf(reflect.TypeOf((*leafAll)(nil)).Elem())
	if enc == nil {
		t.Fatal("no encoder for leafAll")
	}
	r := rand.New(rand.NewSource(3))
	taken := 0
	for i := 0; i < 3000; i++ {
		var v leafAll
		fill(r, reflect.ValueOf(&v).Elem(), 0)
		want, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := enc([]byte("x"), unsafe.Pointer(&v))
		if !ok {
			continue
		}
		taken++
		if string(got) != "x"+string(want) {
			t.Fatalf("value %d:\ngot  %s\nwant x%s", i, got, want)
		}
	}
	if taken < 1000 {
		t.Errorf("the encoder took %d values of 3000, want most of them", taken)
	}
}

// Types whose encoding the encoders do not repeat have none.
func TestLeafEncoderLeavesTheRestToEncodingJSON(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeOf((*float64)(nil)).Elem(),
		reflect.TypeOf((*[]byte)(nil)).Elem(),
		reflect.TypeOf((*any)(nil)).Elem(),
		reflect.TypeOf((*map[int]string)(nil)).Elem(),
		reflect.TypeOf((*[2]int)(nil)).Elem(),
		reflect.TypeOf((*metav1.MicroTime)(nil)).Elem(),
		reflect.TypeOf((*struct {
			N int `json:"n,string"`
		})(nil)).Elem(),
		reflect.TypeOf((*struct {
			N int `json:"n,omitzero"`
		})(nil)).Elem(),
		reflect.TypeOf((*struct{ *leafEmbedded })(nil)).Elem(),
		reflect.TypeOf((*struct{ F []float32 })(nil)).Elem(),
	} {
		if encoderOf(typ) != nil {
			t.Errorf("%v has an encoder", typ)
		}
	}
}

// fill sets v, of the types above, to a random value: zero, empty or nil
// often, strings plain or not.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	if r.Intn(4) == 0 {
		return // zero
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(r.Int63() >> r.Intn(64))
		if r.Intn(2) == 0 {
			v.SetInt(-v.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> r.Intn(64))
	case reflect.String:
		plain := []string{"plain", "a b-c_d.e/f:g", "", "W-0042"}
		escaped := []string{"<tag>", "a&b", `q"uote`, `back\slash`, "é", "\u2028", "\x01", "\xff"}
		if r.Intn(8) == 0 {
			v.SetString(escaped[r.Intn(len(escaped))])
		} else {
			v.SetString(plain[r.Intn(len(plain))])
		}
	case reflect.Pointer:
		if depth > 3 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(r, v.Elem(), depth+1)
	case reflect.Slice:
		if r.Intn(3) == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			return
		}
		s := reflect.MakeSlice(v.Type(), r.Intn(3)+1, 3)
		for i := 0; i < s.Len(); i++ {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for n := r.Intn(3); n > 0; n-- {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, depth+1)
			fill(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		if v.Type() == timeType {
			at := time.Date(1990+r.Intn(80), time.Month(1+r.Intn(12)), 1+r.Intn(28), r.Intn(24), r.Intn(60), r.Intn(60), r.Intn(1e9), time.FixedZone("z", 3600*(r.Intn(25)-12)))
			v.Set(reflect.ValueOf(metav1.NewTime(at)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1)
			}
		}
	}
}
