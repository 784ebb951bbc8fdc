package conversiontest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// everything holds every type the default fill functions cover, as a value,
// through a pointer, and in a slice or map.
type everything struct {
	metav1.TypeMeta `json:",inline"`
	Meta            metav1.ObjectMeta             `json:"meta"`
	MetaPtr         *metav1.ObjectMeta            `json:"metaPtr,omitempty"`
	Quantity        resource.Quantity             `json:"quantity"`
	QuantityPtr     *resource.Quantity            `json:"quantityPtr,omitempty"`
	Quantities      map[string]resource.Quantity  `json:"quantities,omitempty"`
	Time            metav1.Time                   `json:"time"`
	TimePtr         *metav1.Time                  `json:"timePtr,omitempty"`
	MicroTime       metav1.MicroTime              `json:"microTime"`
	MicroTimePtr    *metav1.MicroTime             `json:"microTimePtr,omitempty"`
	GoTime          time.Time                     `json:"goTime"`
	GoTimePtr       *time.Time                    `json:"goTimePtr,omitempty"`
	Raw             runtime.RawExtension          `json:"raw"`
	RawPtr          *runtime.RawExtension         `json:"rawPtr,omitempty"`
	JSON            apiextensionsv1.JSON          `json:"json"`
	JSONPtr         *apiextensionsv1.JSON         `json:"jsonPtr,omitempty"`
	JSONs           []apiextensionsv1.JSON        `json:"jsons,omitempty"`
	IntOrString     intstr.IntOrString            `json:"intOrString"`
	IntOrStringPtr  *intstr.IntOrString           `json:"intOrStringPtr,omitempty"`
	IntOrStrings    map[string]intstr.IntOrString `json:"intOrStrings,omitempty"`
	Duration        metav1.Duration               `json:"duration"`
	Any             any                           `json:"any"`
	AnyMap          map[string]interface{}        `json:"anyMap,omitempty"`
	AnyPtr          *any                          `json:"anyPtr,omitempty"`
}

func fillEverything(t *testing.T, n int, check func(*everything)) {
	t.Helper()
	f, err := newFiller(time.Now().UnixNano(), nil, &everything{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var e everything
		f.Fill(&e)
		check(&e)
		if t.Failed() {
			t.FailNow()
		}
	}
}

// TestDefaultsSurviveJSON is why the default fill functions exist: every
// value they make comes back from encoding/json equal.
func TestDefaultsSurviveJSON(t *testing.T) {
	fillEverything(t, 2000, func(e *everything) {
		raw, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%#v is not JSON: %v", e, err)
		}
		var back everything
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if diff, ok := compare(e, &back); !ok {
			t.Errorf("changed by JSON:\n%s", diff)
		}
		// time.Time has no special case in the semantic comparison, so it
		// must be identical.
		if !reflect.DeepEqual(e.GoTime, back.GoTime) {
			t.Errorf("time.Time %v came back as %v", e.GoTime, back.GoTime)
		}
	})
}

// TestRandomJSONIsCanonical checks that raw JSON is what encoding/json
// writes, so that a conversion that decodes and re-encodes it keeps it.
func TestRandomJSONIsCanonical(t *testing.T) {
	fillEverything(t, 2000, func(e *everything) {
		for _, raw := range [][]byte{e.Raw.Raw, e.JSON.Raw} {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(raw, again) {
				t.Errorf("%s re-encodes as %s", raw, again)
			}
		}
		if !bytes.HasPrefix(e.Raw.Raw, []byte("{")) || e.Raw.Object != nil {
			t.Errorf("RawExtension %s, object %v: want a JSON object and no Object", e.Raw.Raw, e.Raw.Object)
		}
		if string(e.JSON.Raw) == "null" {
			t.Error("JSON is null")
		}
	})
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// TestObjectMetaIsValid checks random metadata against the API server's
// own validation, and that it never uses the stash annotations.
func TestObjectMetaIsValid(t *testing.T) {
	fillEverything(t, 2000, func(e *everything) {
		m := &e.Meta
		if errs := apivalidation.ValidateObjectMeta(m, m.Namespace != "", apivalidation.NameIsDNSLabel, field.NewPath("metadata")); len(errs) > 0 {
			t.Errorf("invalid metadata %+v: %v", m, errs.ToAggregate())
		}
		for k := range m.Annotations {
			if strings.HasPrefix(k, stashAnnotationPrefix) {
				t.Errorf("annotation %q is a stash annotation", k)
			}
		}
		if !uuidPattern.MatchString(string(m.UID)) {
			t.Errorf("uid %q is not a UUID", m.UID)
		}
		if _, err := strconv.ParseUint(m.ResourceVersion, 10, 64); err != nil {
			t.Errorf("resourceVersion %q: %v", m.ResourceVersion, err)
		}
		if e.APIVersion != "" || e.Kind != "" {
			t.Errorf("TypeMeta %+v, want it empty", e.TypeMeta)
		}
	})
}

// TestPointersAreSometimesNil checks that a pointer to a type with a fill
// function or a RandFill method is nil about as often as any other pointer,
// rather than always set (randfill's behaviour for fill functions) or never
// (its behaviour for RandFill methods).
func TestPointersAreSometimesNil(t *testing.T) {
	const n = 1000
	nils := map[string]int{}
	fillEverything(t, n, func(e *everything) {
		v := reflect.ValueOf(e).Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Kind() == reflect.Pointer && f.IsNil() {
				nils[v.Type().Field(i).Name]++
			}
		}
	})
	for _, name := range []string{"MetaPtr", "QuantityPtr", "TimePtr", "MicroTimePtr", "GoTimePtr", "RawPtr", "JSONPtr", "IntOrStringPtr"} {
		// nilChance of 1000 is 200; a binomial spread of 13 around it.
		if got := nils[name]; got < n*nilChance/2 || got > n*nilChance*2 {
			t.Errorf("%s was nil %d times in %d, want about %d", name, got, n, int(n*nilChance))
		}
	}
}

// TestSemanticEquality documents what the comparison forgives.
func TestSemanticEquality(t *testing.T) {
	at := time.Unix(1700000000, 0)
	tests := []struct {
		name     string
		a, b     any
		wantSame bool
	}{
		{"quantity format", resource.MustParse("1000m"), resource.MustParse("1"), true},
		{"quantity value", resource.MustParse("1"), resource.MustParse("2"), false},
		{"time zone", metav1.NewTime(at), metav1.NewTime(at.UTC()), true},
		{"nil and empty map", metav1.ObjectMeta{}, metav1.ObjectMeta{Annotations: map[string]string{}}, true},
		{"annotation", metav1.ObjectMeta{}, metav1.ObjectMeta{Annotations: map[string]string{"a": ""}}, false},
	}
	// equality.Semantic cannot compare a time.Time that differs (it panics on
	// the unexported fields); compare can.
	t.Run("time.Time", func(t *testing.T) {
		if _, same := compare(at, at.UTC()); !same {
			t.Error("the same instant in two zones compares unequal")
		}
		if _, same := compare(at, at.Add(time.Nanosecond)); same {
			t.Error("different instants compare equal")
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff, same := compare(tt.a, tt.b)
			if same != tt.wantSame {
				t.Errorf("same = %v, want %v; diff:\n%s", same, tt.wantSame, diff)
			}
			if same != equality.Semantic.DeepEqual(tt.a, tt.b) {
				t.Error("compare disagrees with equality.Semantic")
			}
		})
	}
}

// TestAnyHoldsJSON: an interface{} gets what encoding/json would have
// decoded into it, never left nil everywhere.
func TestAnyHoldsJSON(t *testing.T) {
	set := 0
	fillEverything(t, 500, func(e *everything) {
		for _, v := range append([]any{e.Any}, func() []any {
			var vs []any
			for _, v := range e.AnyMap {
				vs = append(vs, v)
			}
			return vs
		}()...) {
			switch v.(type) {
			case string, float64, bool, map[string]any, []any:
				set++
			default:
				t.Fatalf("interface{} holds %T (%#v), not a decoded JSON value", v, v)
			}
		}
	})
	if set == 0 {
		t.Error("no interface{} was filled")
	}
}
