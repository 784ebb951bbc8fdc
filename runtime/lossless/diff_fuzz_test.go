package lossless_test

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// stashRoot is a root type for the differential test of the sparse stash's
// diff: structs it walks, one embedded after other fields (its fields'
// offsets are not the embedded struct's own), quoted fields, and leaves of
// every kind (everything's, in status).
type stashRoot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              stashSpec  `json:"spec"`
	Status            everything `json:"status,omitempty"`
}

type stashSpec struct {
	Title string `json:"title,omitempty"`
	Count int32  `json:"count,string"`
	Size  *int64 `json:"size,omitempty,string"`
	stashPromoted
	Inner  stashInner                `json:"inner"`
	Parts  []everythingPart          `json:"parts"`
	ByName map[string]everythingPart `json:"byName,omitempty"`
	When   metav1.Time               `json:"when"`
	Port   intstr.IntOrString        `json:"port"`
	List   alwaysList                `json:"list"`
}

// alwaysList is a list with a JSON method of its own, which writes a nil
// one as [], not null.
type alwaysList []string

func (l alwaysList) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]string(l))
}

type stashPromoted struct {
	Zone string  `json:"zone"`
	Tier *string `json:"tier"`
}

type stashInner struct {
	Deep string            `json:"deep"`
	Q    resource.Quantity `json:"q"`
	Tags []string          `json:"tags"`
}

// stashOracle is the sparse stash's definition, worked out the slow way:
// walk the struct fields of a and b with reflect; where a leaf differs by
// equality.Semantic.DeepEqual, write a's value as encoding/json writes it in
// its struct (its member in the struct's JSON, or the value's own JSON where
// omitempty leaves the member out). A leaf equal by Semantic differs still
// where JSON writes a nil of one apart from an empty value of the other
// (nilShape).
func stashOracle(t *testing.T, a, b reflect.Value, root bool) string {
	t.Helper()
	container, err := json.Marshal(a.Addr().Interface())
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(container, &members); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	var walkFields func(a, b reflect.Value, root bool)
	walkFields = func(a, b reflect.Value, root bool) {
		for i := 0; i < a.NumField(); i++ {
			f := a.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case root && (f.Type == reflect.TypeOf(metav1.TypeMeta{}) || f.Type == reflect.TypeOf(metav1.ObjectMeta{})):
				continue
			case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
				walkFields(a.Field(i), b.Field(i), false)
				continue
			case !f.IsExported() || name == "-":
				continue
			}
			if name == "" {
				name = f.Name
			}
			fa, fb := a.Field(i), b.Field(i)
			var value string
			if oracleWalks(f.Type) {
				value = stashOracle(t, fa, fb, false)
			} else if !equality.Semantic.DeepEqual(fa.Interface(), fb.Interface()) || nilShape(fa, hasOmitEmpty(f)) != nilShape(fb, hasOmitEmpty(f)) {
				raw, ok := members[name]
				if !ok {
					raw, _ = json.Marshal(fa.Interface())
				}
				value = string(raw)
			}
			if value == "" {
				continue
			}
			if out.Len() > 0 {
				out.WriteByte(',')
			}
			key, _ := json.Marshal(name)
			out.Write(key)
			out.WriteByte(':')
			out.WriteString(value)
		}
	}
	walkFields(a, b, root)
	if out.Len() == 0 {
		return ""
	}
	return "{" + out.String() + "}"
}

// nilShape writes where v, of a field with omitempty or not, holds nil
// slices and maps (and byte slices, and pointers) where JSON shows them,
// apart from empty ones: one letter each, in a walk in JSON's order.
func nilShape(v reflect.Value, omitEmpty bool) string {
	var b strings.Builder
	var walk func(v reflect.Value, omitEmpty bool)
	walk = func(v reflect.Value, omitEmpty bool) {
		t := v.Type()
		switch {
		case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			if !omitEmpty || v.Len() > 0 {
				b.WriteString(map[bool]string{true: "n", false: "e"}[v.IsNil()])
			}
			return
		case ownJSON(t), t.Kind() == reflect.Interface:
			return
		}
		switch t.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("p")
				return
			}
			walk(v.Elem(), false)
		case reflect.Slice, reflect.Map:
			if omitEmpty && v.Len() == 0 {
				return
			}
			b.WriteString(map[bool]string{true: "n", false: "e"}[v.IsNil()])
			if t.Kind() == reflect.Slice {
				for i := 0; i < v.Len(); i++ {
					walk(v.Index(i), false)
				}
				return
			}
			keys := v.MapKeys()
			sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
			for _, k := range keys {
				walk(v.MapIndex(k), false)
			}
		case reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), false)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if f := t.Field(i); f.IsExported() && f.Tag.Get("json") != "-" {
					walk(v.Field(i), hasOmitEmpty(f))
				}
			}
		}
	}
	walk(v, omitEmpty)
	return b.String()
}

func hasOmitEmpty(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	return slices.Contains(strings.Split(opts, ","), "omitempty")
}

// oracleWalks: a struct without JSON methods of its own, walked field by
// field; everything else is a leaf.
func oracleWalks(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !ownJSON(t)
}

// ownJSON: t has JSON or text methods of its own.
func ownJSON(t reflect.Type) bool {
	for _, i := range []reflect.Type{
		reflect.TypeOf((*json.Marshaler)(nil)).Elem(), reflect.TypeOf((*json.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(), reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	} {
		if t.Implements(i) || reflect.PointerTo(t).Implements(i) {
			return true
		}
	}
	return false
}

// stashDifferential fills a, fills b the same, changes b at a few random
// places, and requires the sparse stash's diff to write what the oracle
// writes.
func stashDifferential(t *testing.T, newFiller func() *randfill.Filler, r *rand.Rand) {
	t.Helper()
	var a, b stashRoot
	newFiller().Fill(&a)
	newFiller().Fill(&b)
	for i, n := 0, r.Intn(4); i < n; i++ {
		mutate(reflect.ValueOf(&b).Elem(), r)
	}
	got, err := lossless.SparseDiff(&a, &b)
	if err != nil {
		t.Fatal(err)
	}
	if want := stashOracle(t, reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem(), true); got != want {
		t.Fatalf("the sparse stash wrote\n%s\nthe oracle\n%s", got, want)
	}
}

func TestSparseDiffAgreesWithTheOracleOnRandomObjects(t *testing.T) {
	overSeeds(t, 2000, stashDifferential)
}

func FuzzSparseDiffAgreesWithTheOracle(f *testing.F) {
	f.Add([]byte{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	overFuzzInput(f, stashDifferential)
}
