package conversiontest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	"sigs.k8s.io/randfill"
)

// widgetPair is the Pair crdforge would generate for the Widget types, with
// the spoke made by newSpoke so that tests can swap in a broken variant.
func widgetPair(newSpoke func() conversion.Convertible) Pair {
	return Pair{
		Spoke: newSpoke,
		Hub:   func() conversion.Hub { return &WidgetHub{} },
	}
}

func newWidgetSpoke() conversion.Convertible { return &WidgetSpoke{} }

// TestRoundTripWidget is what a generated test looks like: a correct,
// lossless conversion passes.
func TestRoundTripWidget(t *testing.T) {
	p := widgetPair(newWidgetSpoke)
	p.Iterations = 2000
	p.Edits = widgetEdits[*WidgetSpoke]()
	RoundTrip(t, p)
}

// FuzzWidgetRoundTrip is what a generated fuzz target looks like. Run it
// with go test -run XXX -fuzz FuzzWidgetRoundTrip -fuzztime 10s.
func FuzzWidgetRoundTrip(f *testing.F) {
	FuzzRoundTrip(f, widgetPair(newWidgetSpoke))
}

// validReplicas are fill functions for conversions that reject a negative
// replica count: they generate only counts the conversion accepts.
var validReplicas = []any{
	func(s *WidgetSpokeSpec, c randfill.Continue) {
		c.FillNoCustom(s)
		s.Replicas = c.Int31n(100)
	},
	func(s *WidgetHubSpec, c randfill.Continue) {
		c.FillNoCustom(s)
		if s.Replicas != nil {
			*s.Replicas = c.Int31n(100)
		}
	},
}

// TestRoundTripCatchesBrokenConversions runs each direction against spokes
// with known bugs and checks which directions catch them, and how the
// failure reads.
func TestRoundTripCatchesBrokenConversions(t *testing.T) {
	const pass = ""
	tests := []struct {
		name      string
		spoke     func() conversion.Convertible
		fillFuncs []any
		// want is, per direction, a text the failure must contain, or
		// pass if the direction must not fail.
		want map[string]string
	}{{
		name:  "correct",
		spoke: newWidgetSpoke,
		want:  map[string]string{"spoke-hub-spoke": pass, "hub-spoke-hub": pass},
	}, {
		name:  "spoke-only field not stashed",
		spoke: func() conversion.Convertible { return &ForgetsLegacy{} },
		want: map[string]string{
			"spoke-hub-spoke": `round trip is not exact (- original, + after the round trip):`,
			"hub-spoke-hub":   pass,
		},
	}, {
		name:  "hub-only field dropped",
		spoke: func() conversion.Convertible { return &DropsSuspend{} },
		want: map[string]string{
			"spoke-hub-spoke": pass,
			"hub-spoke-hub":   `-  "suspend": true`,
		},
	}, {
		name:  "conversion rejects random input",
		spoke: func() conversion.Convertible { return &RejectsNegativeReplicas{} },
		want: map[string]string{
			"spoke-hub-spoke": "spoke.ConvertTo(hub) failed: spec.replicas: -",
			"hub-spoke-hub":   "spoke.ConvertTo(hub) failed: spec.replicas: -",
		},
	}, {
		name:      "fill functions generate only accepted input",
		spoke:     func() conversion.Convertible { return &RejectsNegativeReplicas{} },
		fillFuncs: validReplicas,
		want:      map[string]string{"spoke-hub-spoke": pass, "hub-spoke-hub": pass},
	}, {
		name:  "conversion writes to its source",
		spoke: func() conversion.Convertible { return &AliasesAnnotations{} },
		want: map[string]string{
			"spoke-hub-spoke": "spoke.ConvertTo(hub) changed its source (- before, + after):",
			// The result is checked, not the spoke in between, and the
			// result is right.
			"hub-spoke-hub": pass,
		},
	}, {
		name:  "conversion writes on the way back into memory shared with the original",
		spoke: func() conversion.Convertible { return &EmptiesSharedSelector{} },
		want: map[string]string{
			"spoke-hub-spoke": pass,
			// The result is right; the hub the spoke came from is not.
			"hub-spoke-hub": "spoke.ConvertTo(hub) changed the original *conversiontest.WidgetHub through memory they share (- before, + after):",
		},
	}, {
		// As Cluster API's conversions do: allowed, the object in between
		// owns its annotations.
		name:  "conversion removes its own data annotation on the way back",
		spoke: func() conversion.Convertible { return &DropsStashInPlace{} },
		want: map[string]string{
			"spoke-hub-spoke": pass,
			"hub-spoke-hub":   pass,
		},
	}, {
		// The original is read from its JSON too, which has no
		// deadline: only the hub's deadline is lost.
		name:  "the JSON in between loses a field",
		spoke: func() conversion.Convertible { return &LosesDeadlineInJSON{} },
		want: map[string]string{
			"spoke-hub-spoke": pass,
			"hub-spoke-hub":   "round trip through JSON is not exact",
		},
	}, {
		name:  "conversion panics",
		spoke: func() conversion.Convertible { return &PanicsOnNilDeadline{} },
		want: map[string]string{
			"spoke-hub-spoke": "spoke.ConvertFrom(hub) panicked: runtime error: invalid memory address or nil pointer dereference",
			"hub-spoke-hub":   "spoke.ConvertFrom(hub) panicked: runtime error: invalid memory address or nil pointer dereference",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := widgetPair(tt.spoke)
			p.FillFuncs = tt.fillFuncs
			s := settings{iterations: 500, seed: 1}
			for _, d := range directions {
				err := runDirection(p, d, s)
				want, ok := tt.want[d.name]
				switch {
				case !ok:
					t.Fatalf("no expectation for %s", d.name)
				case want == pass && err != nil:
					t.Errorf("%s failed, want it to pass: %v", d.name, err)
				case want != pass && err == nil:
					t.Errorf("%s passed, want it to fail with %q", d.name, want)
				case want != pass && !strings.Contains(err.Error(), want):
					t.Errorf("%s failed with\n%v\nwant the failure to contain %q", d.name, err, want)
				case want != pass && !strings.Contains(err.Error(), d.name+": iteration ") ||
					err != nil && !strings.Contains(err.Error(), "seed 1 (set CRDFORGE_ROUNDTRIP_SEED=1 to replay)"):
					t.Errorf("%s failure does not say where to replay it:\n%v", d.name, err)
				}
			}
		})
	}
}

// TestSameSeedSameFailure checks that the logged seed replays a failure:
// the same seed fails at the same iteration with the same object.
func TestSameSeedSameFailure(t *testing.T) {
	p := widgetPair(func() conversion.Convertible { return &ForgetsLegacy{} })
	s := settings{iterations: 1000, seed: time.Now().UnixNano()}
	first := runDirection(p, directions[0], s)
	second := runDirection(p, directions[0], s)
	if first == nil || second == nil {
		t.Fatalf("the lossy conversion passed: %v, %v", first, second)
	}
	if first.Error() != second.Error() {
		t.Errorf("seed %d failed differently on replay:\n%v\n\nthen:\n%v", s.seed, first, second)
	}
}

// helperEnv makes TestRoundTripLossyHelper run; TestRoundTripFailsTheTest
// sets it in the test binary it starts.
const helperEnv = "CONVERSIONTEST_RUN_LOSSY_HELPER"

// TestRoundTripLossyHelper is meant to fail: it is RoundTrip on a lossy
// conversion, run by TestRoundTripFailsTheTest in a child process.
func TestRoundTripLossyHelper(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("run by TestRoundTripFailsTheTest")
	}
	p := widgetPair(func() conversion.Convertible { return &ForgetsLegacy{} })
	p.Iterations, p.Seed = 100, 42
	RoundTrip(t, p)
}

// TestRoundTripFailsTheTest checks RoundTrip end to end, as generated tests
// use it: it fails the test for a lossy conversion, in the right subtest,
// and logs the seed. A failing *testing.T cannot be observed from inside a
// test, so the test binary runs itself.
func TestRoundTripFailsTheTest(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestRoundTripLossyHelper$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the lossy round trip did not fail the test (err %v):\n%s", err, out)
	}
	for _, want := range []string{
		"seed 42 (from Pair.Seed); set CRDFORGE_ROUNDTRIP_SEED=42 to replay them",
		"--- FAIL: TestRoundTripLossyHelper/spoke-hub-spoke",
		"spoke-hub-spoke: iteration ",
		`-  "legacy": "`,
		"--- PASS: TestRoundTripLossyHelper/hub-spoke-hub",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestIterations checks how many objects RoundTrip converts, by counting
// the spokes it makes: validation makes one, each direction one to find the
// types its filler needs, and each iteration three in memory (the original
// and the result of spoke-hub-spoke, and the spoke in between of
// hub-spoke-hub) and two through JSON (hub-spoke-hub's spoke in between,
// and what its JSON reads back as).
func TestIterations(t *testing.T) {
	tests := []struct {
		name       string
		env        string
		iterations int
		want       int
	}{
		{name: "environment", env: "7", want: 7},
		{name: "Pair.Iterations wins", env: "7", iterations: 3, want: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(IterationsEnv, tt.env)
			var spokes atomic.Int64
			p := widgetPair(func() conversion.Convertible {
				spokes.Add(1)
				return &WidgetSpoke{}
			})
			p.Iterations = tt.iterations
			RoundTrip(t, p)
			if got, want := spokes.Load(), int64(1+2+(3+2)*tt.want); got != want {
				t.Errorf("made %d spokes, want %d: %d iterations", got, want, tt.want)
			}
		})
	}
}

func TestResolveSettings(t *testing.T) {
	clock := time.Unix(1700000000, 123)
	tests := []struct {
		name    string
		pair    Pair
		env     map[string]string
		want    settings
		wantErr string
	}{{
		name: "defaults",
		want: settings{iterations: DefaultIterations, seed: clock.UnixNano(), seedFrom: "clock"},
	}, {
		name: "environment",
		env:  map[string]string{IterationsEnv: "50", SeedEnv: "-9"},
		want: settings{iterations: 50, seed: -9, seedFrom: SeedEnv},
	}, {
		name: "Pair wins over environment",
		pair: Pair{Iterations: 5, Seed: 77},
		env:  map[string]string{IterationsEnv: "50", SeedEnv: "-9"},
		want: settings{iterations: 5, seed: 77, seedFrom: "Pair.Seed"},
	}, {
		name:    "negative Pair.Iterations",
		pair:    Pair{Iterations: -1},
		wantErr: "Pair.Iterations is -1",
	}, {
		name:    "zero iterations in environment",
		env:     map[string]string{IterationsEnv: "0"},
		wantErr: `CRDFORGE_ROUNDTRIP_ITERATIONS="0" is not a positive integer`,
	}, {
		name:    "words in environment",
		env:     map[string]string{IterationsEnv: "ten"},
		wantErr: `CRDFORGE_ROUNDTRIP_ITERATIONS="ten" is not a positive integer`,
	}, {
		name:    "bad seed in environment",
		env:     map[string]string{SeedEnv: "0x10"},
		wantErr: `CRDFORGE_ROUNDTRIP_SEED="0x10" is not an integer`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveSettings(tt.pair, func(k string) string { return tt.env[k] }, func() time.Time { return clock })
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want one containing %q", err, tt.wantErr)
				}
			case err != nil:
				t.Errorf("unexpected error: %v", err)
			case got != tt.want:
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestFillFuncsOverrideDefaults checks that Pair.FillFuncs are applied, and
// after the defaults, so that one for a type the defaults cover wins.
func TestFillFuncsOverrideDefaults(t *testing.T) {
	seven := resource.MustParse("7Gi")
	f, err := newFiller(1, []any{func(q *resource.Quantity, _ randfill.Continue) { *q = seven.DeepCopy() }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		var spec WidgetHubSpec
		f.Fill(&spec)
		if spec.Size.Cmp(seven) != 0 {
			t.Fatalf("spec.size is %s, want the fill function's 7Gi", spec.Size.String())
		}
	}
}

func TestPairValidation(t *testing.T) {
	hub := func() conversion.Hub { return &WidgetHub{} }
	tests := []struct {
		name    string
		pair    Pair
		wantErr string
	}{
		{"no spoke", Pair{Hub: hub}, "Pair.Spoke is nil"},
		{"no hub", Pair{Spoke: newWidgetSpoke}, "Pair.Hub is nil"},
		{"nil spoke", Pair{Spoke: func() conversion.Convertible { return (*WidgetSpoke)(nil) }, Hub: hub}, "Pair.Spoke() returned"},
		{"not a function", Pair{Spoke: newWidgetSpoke, Hub: hub, FillFuncs: []any{validReplicas[0], 3}}, "Pair.FillFuncs[1] (int): Filler.Funcs: all arguments must be functions"},
		{"wrong signature", Pair{Spoke: newWidgetSpoke, Hub: hub, FillFuncs: []any{func(*int) {}}}, "Pair.FillFuncs[0] (func(*int)): Filler.Funcs: all customFuncs must have 2 arguments"},
		{"valid", widgetPair(newWidgetSpoke), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.pair.validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Errorf("unexpected error: %v", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// TestFuzzOnce checks the fuzz target's body: it passes a correct
// conversion on the seed corpus, and catches a lossy one.
func TestFuzzOnce(t *testing.T) {
	inputs := append([][]byte{}, seedCorpus...)
	for i := 0; i < 50; i++ {
		inputs = append(inputs, bytes.Repeat([]byte{byte(i), byte(7 * i)}, i))
	}

	correct := widgetPair(newWidgetSpoke)
	lossy := widgetPair(func() conversion.Convertible { return &ForgetsLegacy{} })
	caught := 0
	for _, in := range inputs {
		if err := fuzzOnce(correct, in); err != nil {
			t.Fatalf("input %q: %v", in, err)
		}
		if err := fuzzOnce(lossy, in); err != nil {
			caught++
		}
	}
	// Legacy is a random string, empty for about one input in twenty.
	if caught < len(inputs)/2 {
		t.Errorf("the lossy conversion failed on %d of %d inputs, want most", caught, len(inputs))
	}
}

// BenchmarkRoundTrip measures one iteration of both directions; a generated
// test runs DefaultIterations of them.
func BenchmarkRoundTrip(b *testing.B) {
	p := widgetPair(newWidgetSpoke)
	f, err := newFiller(1, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ { // not b.Loop: this module's go directive is older than it
		for _, d := range directions {
			if err := d.once(p, f); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// widgetEdits edit a field both versions hold (cronSpec, the hub's
// schedule) and one only the spoke holds (legacy, stashed on the hub), as
// crdforge's generated tests do.
func widgetEdits[T interface {
	conversion.Convertible
	spec() *WidgetSpokeSpec
}]() []Edit {
	return []Edit{
		{Field: "spec.cronSpec", Apply: func(o conversion.Convertible, fill func(any)) { fill(&o.(T).spec().CronSpec) }},
		{Field: "spec.legacy", Apply: func(o conversion.Convertible, fill func(any)) { fill(&o.(T).spec().Legacy) }},
	}
}

// TestEditsWinOverTheStash: a client's edit at the spoke's version survives
// the next conversion to the hub, over what the hub stashed, for a
// conversion that gets it right, and is caught for one that restores a
// stale value (every plain round trip of which is exact).
func TestEditsWinOverTheStash(t *testing.T) {
	s := settings{iterations: 300, seed: 1}
	p := widgetPair(newWidgetSpoke)
	p.Edits = widgetEdits[*WidgetSpoke]()
	if err := runEdits(p, s); err != nil {
		t.Errorf("a correct conversion fails the edits: %v", err)
	}

	p = widgetPair(func() conversion.Convertible { return &KeepsStaleSchedule{} })
	p.Edits = widgetEdits[*KeepsStaleSchedule]()
	for _, d := range directions {
		if err := runDirection(p, d, s); err != nil {
			t.Fatalf("%s: the stale schedule must pass plain round trips: %v", d.name, err)
		}
	}
	err := runEdits(p, s)
	for _, want := range []string{
		"hub-spoke-edit-hub, editing spec.cronSpec: iteration 1 of 100, seed 1 (set CRDFORGE_ROUNDTRIP_SEED=1 to replay)",
		"read back at the spoke's version, the object is not as edited (- edited, + converted to the hub and back):",
		`"cronSpec": `,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant an error containing %q", err, want)
		}
	}
}

// TestOnlyTheEdit: the hub object must differ from the original where the
// edit, converted without a stash, says, and nowhere else.
func TestOnlyTheEdit(t *testing.T) {
	hub := func(schedule string, suspend bool) *WidgetHub {
		return &WidgetHub{Spec: WidgetHubSpec{Schedule: schedule, Suspend: suspend}}
	}
	before, after := hub("a", false), hub("b", false)
	if err := onlyTheEdit(hub("a", true), hub("b", true), before, after); err != nil {
		t.Errorf("the edit alone changed: %v", err)
	}
	err := onlyTheEdit(hub("a", true), hub("b", false), before, after)
	want := ".spec.suspend = (absent), want true (the edit does not touch it, so it keeps the original's value)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant an error containing %q", err, want)
	}
	err = onlyTheEdit(hub("a", true), hub("a", true), before, after)
	want = `.spec.schedule = "a", want "b" (the edit changes it)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant an error containing %q", err, want)
	}
}
