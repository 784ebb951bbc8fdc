package conversiontest

import (
	"errors"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// Pair names a spoke type and the hub type it converts to and from.
type Pair struct {
	// Spoke returns a new, empty spoke object, such as &v1beta1.CronTab{}.
	// It is called for every object a round trip needs, so it must not
	// return the same object twice.
	Spoke func() conversion.Convertible

	// Hub returns a new, empty hub object, such as &v1.CronTab{}.
	Hub func() conversion.Hub

	// FillFuncs are randfill custom fill functions, each of the form
	// func(*T, randfill.Continue). They are registered after
	// [DefaultFillFuncs], so one for a type the defaults cover replaces the
	// default. Authors whose conversions reject some values use them to
	// generate only values the conversion accepts; a function can call
	// c.FillNoCustom to fill a struct as usual and then fix up a field.
	//
	// A field of type *T is still nil with the usual chance (randfill on
	// its own would always allocate it); a function for **T overrides that.
	FillFuncs []any

	// Edits are fields a client of the spoke's version may change between
	// reading an object (hub → spoke) and writing it back (spoke → hub):
	// RoundTrip's "hub-spoke-edit-hub" subtest checks that each edit wins
	// over the stash and changes nothing else. crdforge's generated tests
	// name one field both versions hold and one only the spoke holds.
	// FuzzRoundTrip ignores them.
	Edits []Edit

	// Iterations is how many random objects each direction checks. Zero
	// means the value of CRDFORGE_ROUNDTRIP_ITERATIONS if it is set, and
	// [DefaultIterations] otherwise. FuzzRoundTrip ignores it.
	Iterations int

	// Seed seeds the random objects. Zero means the value of
	// CRDFORGE_ROUNDTRIP_SEED if it is set, and a seed taken from the clock
	// otherwise. FuzzRoundTrip ignores it.
	Seed int64
}

// validate reports a Pair that cannot be run at all, before any round trip,
// so that the author sees the mistake rather than a panic inside randfill.
func (p Pair) validate() error {
	if p.Spoke == nil {
		return errors.New("conversiontest: Pair.Spoke is nil")
	}
	if p.Hub == nil {
		return errors.New("conversiontest: Pair.Hub is nil")
	}
	spoke, hub := p.Spoke(), p.Hub()
	if err := fillable("Pair.Spoke()", spoke); err != nil {
		return err
	}
	if err := fillable("Pair.Hub()", hub); err != nil {
		return err
	}
	if _, err := newFiller(0, p.FillFuncs, spoke, hub); err != nil {
		return err
	}
	return nil
}

// fillable checks that obj is a non-nil pointer, which is what randfill
// needs to fill it and what conversions need to write to it.
func fillable(what string, obj any) error {
	v := reflect.ValueOf(obj)
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("conversiontest: %s returned %#v; it must return a new, non-nil pointer", what, obj)
	}
	return nil
}
