package conversiontest

import (
	"fmt"
	"maps"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	"sigs.k8s.io/randfill"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// RoundTrip checks p's conversions in both directions, each in a subtest:
// "spoke-hub-spoke" and "hub-spoke-hub", then p's Edits, in
// "hub-spoke-edit-hub". Each converts Pair.Iterations random
// objects there and back and fails at the first one that does not come back
// equal, that a conversion rejects with an error, or that a conversion
// changes while converting from it. The failure shows the difference, the
// iteration and the seed; the seed is logged in any case.
func RoundTrip(t *testing.T, p Pair) {
	t.Helper()
	if err := p.validate(); err != nil {
		t.Fatal(err)
	}
	s, err := resolveSettings(p, os.Getenv, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("conversiontest: %d random objects per direction, seed %d (from %s); set %s=%d to replay them",
		s.iterations, s.seed, s.seedFrom, SeedEnv, s.seed)

	for _, d := range directions {
		t.Run(d.name, func(t *testing.T) {
			if err := runDirection(p, d, s); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(p.Edits) > 0 {
		t.Run("hub-spoke-edit-hub", func(t *testing.T) {
			if err := runEdits(p, s); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// runDirection is the body of one RoundTrip subtest. It returns the first
// failure instead of reporting it, so that the package's own tests can check
// that broken conversions are caught.
func runDirection(p Pair, d direction, s settings) error {
	// One filler for all iterations: drawing every object from one stream
	// is what makes the seed replay the whole run, and it saves rebuilding
	// the filler, with its reflection over the fill functions, each time.
	f, err := newFiller(s.seed, p.FillFuncs, p.Spoke(), p.Hub())
	if err != nil {
		return err
	}
	for i := 0; i < s.iterations; i++ {
		if err := d.once(p, f); err != nil {
			return fmt.Errorf("%s: iteration %d of %d, seed %d (set %s=%d to replay): %w",
				d.name, i+1, s.iterations, s.seed, SeedEnv, s.seed, err)
		}
	}
	return nil
}

// A direction is one way round: from an original object, through an object
// of the other version, to a result of the original's version.
type direction struct {
	name string

	// newOriginal and newVia make empty objects of the two versions.
	newOriginal, newVia func(Pair) runtime.Object

	// there converts the original into via; back converts via into the
	// result. Each is a call to ConvertTo or ConvertFrom on the spoke,
	// whichever way round the direction needs it.
	there, back step
}

// A step is one conversion from src to dst, with its name for messages.
type step struct {
	name    string
	convert func(src, dst runtime.Object) error
}

// directions are the two ways round, in the order RoundTrip runs them.
var directions = [...]direction{
	{
		name:        "spoke-hub-spoke",
		newOriginal: func(p Pair) runtime.Object { return p.Spoke() },
		newVia:      func(p Pair) runtime.Object { return p.Hub() },
		there: step{"spoke.ConvertTo(hub)", func(spoke, hub runtime.Object) error {
			return spoke.(conversion.Convertible).ConvertTo(hub.(conversion.Hub))
		}},
		back: step{"spoke.ConvertFrom(hub)", func(hub, spoke runtime.Object) error {
			return spoke.(conversion.Convertible).ConvertFrom(hub.(conversion.Hub))
		}},
	},
	{
		name:        "hub-spoke-hub",
		newOriginal: func(p Pair) runtime.Object { return p.Hub() },
		newVia:      func(p Pair) runtime.Object { return p.Spoke() },
		there: step{"spoke.ConvertFrom(hub)", func(hub, spoke runtime.Object) error {
			return spoke.(conversion.Convertible).ConvertFrom(hub.(conversion.Hub))
		}},
		back: step{"spoke.ConvertTo(hub)", func(spoke, hub runtime.Object) error {
			return spoke.(conversion.Convertible).ConvertTo(hub.(conversion.Hub))
		}},
	},
}

// once makes one random object and round-trips it.
func (d direction) once(p Pair, f *randfill.Filler) error {
	original := d.newOriginal(p)
	if err := fill(f, original); err != nil {
		return err
	}
	// TypeMeta is not part of what a conversion carries over: the
	// destination type decides it, and generated conversions leave it to
	// the caller (the conversion webhook sets it from the request). So it
	// is cleared here and on the result, and everything else must match.
	clearTypeMeta(original)
	// want is a copy because the original goes into the conversion, and a
	// conversion that wrongly writes to its source would otherwise change
	// the expected value along with the result.
	want := original.DeepCopyObject()

	via := d.newVia(p)
	if err := convert(d.there, original, via); err != nil {
		return fmt.Errorf("%w\n%s was:\n%s", err, kindOf(want), toJSON(want))
	}
	// A conversion must not change its source: it may still be in use
	// (a cached object, the request in the webhook), and a shared map or
	// slice between source and destination lets later writes leak across.
	if diff, ok := compare(want, original); !ok {
		return fmt.Errorf("%s changed its source (- before, + after):\n%s", d.there.name, diff)
	}

	result := d.newOriginal(p)
	if err := convert(d.back, via, result); err != nil {
		return fmt.Errorf("%w\n%s was:\n%s\nconverted from %s:\n%s",
			err, kindOf(via), toJSON(via), kindOf(want), toJSON(want))
	}
	// Nor may the way back change the original through memory via shares
	// with it (a conversion's result may share its source's memory, as
	// conversion-gen's does): restoring stashed data into the result is
	// where such a write would happen. via's own memory is not checked:
	// Cluster API's conversions remove their data annotation from the
	// object they convert from, which in a webhook is thrown away.
	if diff, ok := compare(want, original); !ok {
		return fmt.Errorf("%s changed the original %s through memory they share (- before, + after):\n%s",
			d.back.name, kindOf(want), diff)
	}
	clearTypeMeta(result)
	if diff, ok := compare(want, result); !ok && !d.stashOfVia(p, want, via, result) {
		return fmt.Errorf("round trip is not exact (- original, + after the round trip):\n%s\n%s in between:\n%s",
			diff, kindOf(via), toJSON(via))
	}
	// Then again as the objects travel, through JSON (throughjson.go).
	return d.roundTripJSON(p, want)
}

// stashOfVia reports whether result differs from want only in stashes want
// does not hold, which give via back: converted there again, result makes
// via's data. In memory, via may hold what its own JSON does not show (an
// empty list that makes an omitzero struct non-zero, runtime/lossless's
// zeroshown.go) and the way back, judged as JSON reads the result back,
// stashes it, as it must for an object that travels as JSON; only in
// memory does that stash look like more than the original.
func (d direction) stashOfVia(p Pair, want, via, result runtime.Object) bool {
	added := addedStashes(want, result)
	if len(added) == 0 {
		return false
	}
	if _, ok := compare(want, withoutAnnotations(result, added)); !ok {
		return false
	}
	again := d.newVia(p)
	if convert(d.there, result.DeepCopyObject(), again) != nil {
		return false
	}
	clearTypeMeta(again)
	viaData := unstashed(via)
	clearTypeMeta(viaData)
	_, ok := compare(viaData, unstashed(again))
	return ok
}

// addedStashes are the stash annotations of got that want does not hold.
func addedStashes(want, got runtime.Object) []string {
	w, errW := meta.Accessor(want)
	g, errG := meta.Accessor(got)
	if errW != nil || errG != nil {
		return nil
	}
	var added []string
	for k := range g.GetAnnotations() {
		if _, held := w.GetAnnotations()[k]; !held && strings.HasPrefix(k, lossless.AnnotationPrefix) {
			added = append(added, k)
		}
	}
	return added
}

// withoutAnnotations is a copy of obj without the annotations keys.
func withoutAnnotations(obj runtime.Object, keys []string) runtime.Object {
	obj = obj.DeepCopyObject()
	if m, err := meta.Accessor(obj); err == nil {
		kept := maps.Clone(m.GetAnnotations())
		for _, k := range keys {
			delete(kept, k)
		}
		if len(kept) == 0 {
			kept = nil
		}
		m.SetAnnotations(kept)
	}
	return obj
}

// fill fills obj, turning randfill's panic on a type it cannot fill (an
// interface field, a channel) into advice. An embedded pointer JSON cannot
// tell from nil (embeds.go) is left nil, as in every object read from
// JSON: converted, its struct may write what it did not (a struct field
// JSON always writes), which the way back then stashes, in an annotation
// the original, as a client sends it, would never get (apigen seed
// 174312854).
func fill(f *randfill.Filler, obj runtime.Object) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot fill a random %s: %v; add a fill function for that type to Pair.FillFuncs", kindOf(obj), r)
		}
	}()
	f.Fill(obj)
	hideEmbedsIn(obj)
	return nil
}

// convert runs s, turning a panic into an error so that the failure still
// shows the seed, the iteration and the object that caused it.
func convert(s step, src, dst runtime.Object) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s panicked: %v\n%s", s.name, r, debug.Stack())
		}
	}()
	if err := s.convert(src, dst); err != nil {
		return fmt.Errorf("%s failed: %w", s.name, err)
	}
	return nil
}

func clearTypeMeta(obj runtime.Object) {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}

// kindOf names obj's Go type, which is all there is to go on: the objects
// have no TypeMeta, and a Pair has no scheme to look their kind up in.
func kindOf(obj runtime.Object) string {
	return fmt.Sprintf("%T", obj)
}
