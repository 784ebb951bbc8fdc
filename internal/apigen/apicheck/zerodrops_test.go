package apicheck

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

type Inner struct {
	Until intstr.IntOrString `json:"until,omitempty"`
}

type Net struct {
	Q *resource.Quantity `json:"q,omitempty"`
}

type Part struct {
	*Inner `json:",inline"`
	Net    Net `json:"net"`
}

type Spec struct {
	Parts map[string][]Part `json:"parts"`
}

// TestZeroDropsStripOnlyWarnedZeros: a warned field's zero value goes,
// found through maps, slices, an embedded pointer whose struct declares it
// (seed 52's v1 until: 0, whose hub field is omitzero) and a path of
// fields; its other values
// and other fields' zeros stay.
func TestZeroDropsStripOnlyWarnedZeros(t *testing.T) {
	// The version is the last element of the package path: apicheck.
	z := parseZeroDrops([]string{"apicheck Inner.Until", "apicheck Part.Net.Q"})
	in := `{"parts":{"a":[{"until":0,"net":{"q":"0"}},{"until":"50%","net":{"q":"1"}}],"b":[{"net":{}}]}}`
	want := `{"parts":{"a":[{"net":{}},{"net":{"q":"1"},"until":"50%"}],"b":[{"net":{}}]}}`
	var v any
	if err := json.Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	z.strip(v, reflect.TypeFor[Spec]())
	if got, _ := json.Marshal(v); string(got) != want {
		t.Errorf("stripped to\n%s\nwant\n%s", got, want)
	}
	unwarned := `{"parts":{"a":[{"net":{"q":"0"},"until":0}]}}`
	if err := json.Unmarshal([]byte(unwarned), &v); err != nil {
		t.Fatal(err)
	}
	zeroDrops{}.strip(v, reflect.TypeFor[Spec]())
	if got, _ := json.Marshal(v); string(got) != unwarned {
		t.Errorf("nothing warned, yet stripped to %s", got)
	}
}
