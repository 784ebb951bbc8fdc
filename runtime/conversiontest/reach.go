package conversiontest

import (
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/conversion"
	"sigs.k8s.io/randfill"
)

// Reach is a hand-written conversion of a spoke struct S into its hub
// struct H and the fields of S it alone can carry: those with no
// counterpart by name in H. A field such a function forgets converts to
// nothing, the stash keeps its value, and every round trip still passes
// while the hub's clients read nothing; [Reaches] catches it.
type Reach[S, H any] struct {
	// Convert is the hand-written Convert_ function.
	Convert func(in *S, out *H, s conversion.Scope) error
	// Func names Convert in messages.
	Func string
	// Fields are the fields Convert must carry.
	Fields []ReachField[S]
	// FillFuncs are the round-trip tests' fill functions (Pair.FillFuncs),
	// so that the random inputs are ones Convert accepts.
	FillFuncs []any
	// Iterations and Seed are as in Pair.
	Iterations int
	Seed       int64
}

// ReachField is one field a Reach must carry.
type ReachField[S any] struct {
	// Name names the field in messages: "v1alpha1 OrderSpec.Customer".
	Name string
	// Field returns a pointer to the field of s: &s.Customer.
	Field func(s *S) any
	// Help says what to write when the field reaches nothing.
	Help string
}

// maxReachIterations bounds the objects each field is tried on: a field
// that reaches the hub shows it on the first object nearly always, and
// one that does not is reported once the bound is met.
const maxReachIterations = 100

// Reaches checks that each of r's fields reaches the hub: that on some
// random input, converting it with the field set gives a hub struct other
// than converting it with the field zero. A field for which Convert makes
// the same hub whatever its value fails the test, named, with its Help.
func Reaches[S, H any](t *testing.T, r Reach[S, H]) {
	t.Helper()
	s, err := resolveSettings(Pair{Iterations: r.Iterations, Seed: r.Seed}, os.Getenv, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFiller(s.seed, r.FillFuncs, new(S), new(H))
	if err != nil {
		t.Fatal(err)
	}
	n := min(s.iterations, maxReachIterations)
	for _, field := range r.Fields {
		if err := reaches(r, field, f, n); err != nil {
			t.Errorf("%v (seed %d: set %s=%d to replay)", err, s.seed, SeedEnv, s.seed)
		}
	}
}

// reaches tries field on up to n random inputs, and returns nil at the
// first on which it changes the hub.
func reaches[S, H any](r Reach[S, H], field ReachField[S], f *randfill.Filler, n int) error {
	tried := 0
	for i := 0; i < n; i++ {
		in := new(S)
		if err := fillValue(f, in); err != nil {
			return err
		}
		// The whole struct is filled again rather than the field alone, so
		// that the fill functions of its struct, which may keep it to values
		// Convert accepts, make its value.
		if reflect.ValueOf(field.Field(in)).Elem().IsZero() {
			continue
		}
		without := new(S)
		*without = *in
		reflect.ValueOf(field.Field(without)).Elem().SetZero()
		with, err := convertStruct(r, in)
		if err != nil {
			return fmt.Errorf("%s set: %w", field.Name, err)
		}
		tried++
		zeroed, err := convertStruct(r, without)
		if err != nil {
			return nil // Convert refuses the input without the field: it reads it
		}
		equal, err := semanticEqual(with, zeroed)
		if err != nil {
			return err
		}
		if !equal {
			return nil
		}
	}
	if tried == 0 {
		return fmt.Errorf("%s: zero in each of %d random objects; add a fill function that sets it to FillFuncs", field.Name, n)
	}
	return fmt.Errorf("%s reaches nothing in the hub: on %d random objects, %s made the same hub struct with the field as without it, so the hub's clients never see it and only the stash keeps it; %s",
		field.Name, tried, r.Func, field.Help)
}

// fillValue fills what ptr points to, turning randfill's panic on a type
// it cannot fill into advice.
func fillValue(f *randfill.Filler, ptr any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot fill a random %T: %v; add a fill function for that type to FillFuncs", ptr, r)
		}
	}()
	f.Fill(ptr)
	return nil
}

// convertStruct runs r.Convert on in, turning a panic into an error.
func convertStruct[S, H any](r Reach[S, H], in *S) (out *H, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v\n%s", r.Func, p, debug.Stack())
		}
	}()
	out = new(H)
	if err := r.Convert(in, out, nil); err != nil {
		return nil, fmt.Errorf("%s failed: %w", r.Func, err)
	}
	return out, nil
}
