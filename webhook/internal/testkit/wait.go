package testkit

import (
	"testing"
	"time"
)

// WaitUntil polls cond until it holds, failing the test after timeout.
func WaitUntil(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
