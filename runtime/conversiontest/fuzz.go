package conversiontest

import (
	"fmt"
	"testing"
)

// FuzzRoundTrip is a native fuzz target for p's conversions. Each input
// drives randfill through randfill.NewFromGoFuzz, so the fuzzing engine's
// coverage guidance steers the random objects, and is used for one
// spoke-hub-spoke and one hub-spoke-hub round trip, with the same checks as
// RoundTrip. Pair.Iterations and Pair.Seed do not apply: the engine decides
// how many inputs to try, and each input is its own seed.
//
// Without -fuzz, go test runs only the seed corpus added here and any
// inputs saved under testdata/fuzz, which makes it a quick smoke test.
func FuzzRoundTrip(f *testing.F, p Pair) {
	f.Helper()
	if err := p.validate(); err != nil {
		f.Fatal(err)
	}
	for _, seed := range seedCorpus {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := fuzzOnce(p, data); err != nil {
			t.Fatal(err)
		}
	})
}

// seedCorpus gives the engine a start: no input (randfill's fallback
// source alone), inputs that keep choosing the low and the high end of every
// range, and a few arbitrary ones.
var seedCorpus = [][]byte{
	nil,
	make([]byte, 64),
	[]byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
	[]byte("crdforge round trip"),
	[]byte("\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xdc\xba\x98\x76\x54\x32\x10\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"),
}

// fuzzOnce is the body of the fuzz target, returning its failure so that
// the package's tests can check it.
func fuzzOnce(p Pair, data []byte) error {
	// A new filler per input: its randomness is the input. Both directions
	// draw from it in turn.
	f, err := newFuzzFiller(data, p.FillFuncs, p.Spoke(), p.Hub())
	if err != nil {
		return err
	}
	for _, d := range directions {
		if err := d.once(p, f); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
	}
	return nil
}
