package conversiontest

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/conversion"
)

// The Order scenario of issue 52: v1alpha1's Customer is v1's
// CustomerRef.Name, and a hand-written conversion that converts Items
// forgets it.
type (
	reachSpoke struct {
		Customer string
		Items    []string
		Note     *string
	}
	reachHub struct {
		CustomerRef struct{ Name string }
		Items       []string
	}
)

func forgetsCustomer(in *reachSpoke, out *reachHub, _ conversion.Scope) error {
	out.Items = in.Items
	return nil
}

func carriesCustomer(in *reachSpoke, out *reachHub, s conversion.Scope) error {
	out.CustomerRef.Name = in.Customer
	return forgetsCustomer(in, out, s)
}

func TestReaches(t *testing.T) {
	customer := ReachField[reachSpoke]{Name: "v1alpha1 OrderSpec.Customer", Help: "set it",
		Field: func(s *reachSpoke) any { return &s.Customer }}
	note := ReachField[reachSpoke]{Name: "v1alpha1 OrderSpec.Note", Help: "set it",
		Field: func(s *reachSpoke) any { return &s.Note }}
	f, err := newFiller(7, nil, new(reachSpoke))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		convert func(*reachSpoke, *reachHub, conversion.Scope) error
		field   ReachField[reachSpoke]
		want    string // "" when the field reaches the hub
	}{
		{"a forgotten string", forgetsCustomer, customer, "v1alpha1 OrderSpec.Customer reaches nothing in the hub: on "},
		{"a carried string", carriesCustomer, customer, ""},
		{"a forgotten pointer", carriesCustomer, note, "v1alpha1 OrderSpec.Note reaches nothing in the hub"},
	} {
		err := reaches(Reach[reachSpoke, reachHub]{Convert: tc.convert, Func: "Convert_forgets"}, tc.field, f, 50)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestReachesPasses runs Reaches as a generated test does, on a conversion
// that carries its field.
func TestReachesPasses(t *testing.T) {
	Reaches(t, Reach[reachSpoke, reachHub]{Convert: carriesCustomer, Func: "carriesCustomer", Seed: 1,
		Fields: []ReachField[reachSpoke]{{Name: "Customer", Field: func(s *reachSpoke) any { return &s.Customer }}}})
}
