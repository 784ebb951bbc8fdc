package e2e

import (
	"os"
	"testing"
)

// Fetching says this run only fills the module cache (CRDFORGE_FETCH is
// set, as `make fetch` sets it): a test that needs the module proxy takes
// its steps up to the last that does, then stops. The test tiers run after
// it with GOPROXY=off, so a step that would still reach the network fails
// there instead of passing by chance.
func Fetching() bool { return os.Getenv("CRDFORGE_FETCH") != "" }

// StopIfFetching ends tb, skipped, when Fetching: every step before it
// needed the module proxy; none after it does.
func StopIfFetching(tb testing.TB) {
	tb.Helper()
	if Fetching() {
		tb.Skip("CRDFORGE_FETCH: the modules this test needs are in the module cache")
	}
}
