package conversiontest

import (
	"fmt"
	"strconv"
	"time"
)

// The environment variables that tune RoundTrip without editing the
// generated tests.
const (
	// IterationsEnv, if set to a positive integer, is the number of random
	// objects each direction checks when Pair.Iterations is zero. Raise it
	// for a longer soak in CI; lower it for a quick local run.
	IterationsEnv = "CRDFORGE_ROUNDTRIP_ITERATIONS"

	// SeedEnv, if set to an integer, is the seed used when Pair.Seed is
	// zero. Set it to the seed a failing run logged to replay that run.
	SeedEnv = "CRDFORGE_ROUNDTRIP_SEED"
)

// DefaultIterations is how many random objects each direction checks when
// neither Pair.Iterations nor CRDFORGE_ROUNDTRIP_ITERATIONS says otherwise.
const DefaultIterations = 10000

// settings are a Pair's iteration count and seed once defaults and the
// environment are applied.
type settings struct {
	iterations int
	seed       int64
	seedFrom   string // where seed came from, for the log
}

// resolveSettings applies the defaults: a non-zero value in the Pair wins,
// then the environment, then the built-in default. getenv and now are
// parameters so tests can control them.
func resolveSettings(p Pair, getenv func(string) string, now func() time.Time) (settings, error) {
	var s settings

	switch {
	case p.Iterations < 0:
		return s, fmt.Errorf("conversiontest: Pair.Iterations is %d; it must be positive, or zero for the default", p.Iterations)
	case p.Iterations > 0:
		s.iterations = p.Iterations
	case getenv(IterationsEnv) != "":
		// A typo in the variable's value fails loudly: silently running the
		// default count would hide that the requested soak never happened.
		n, err := strconv.Atoi(getenv(IterationsEnv))
		if err != nil || n <= 0 {
			return s, fmt.Errorf("conversiontest: %s=%q is not a positive integer", IterationsEnv, getenv(IterationsEnv))
		}
		s.iterations = n
	default:
		s.iterations = DefaultIterations
	}

	switch {
	case p.Seed != 0:
		s.seed, s.seedFrom = p.Seed, "Pair.Seed"
	case getenv(SeedEnv) != "":
		n, err := strconv.ParseInt(getenv(SeedEnv), 10, 64)
		if err != nil {
			return s, fmt.Errorf("conversiontest: %s=%q is not an integer", SeedEnv, getenv(SeedEnv))
		}
		s.seed, s.seedFrom = n, SeedEnv
	default:
		s.seed, s.seedFrom = now().UnixNano(), "clock"
	}
	return s, nil
}
