package migrate

import "testing"

// The e2e suite checks storageVersionHash against a real API server's
// discovery; this pins the value.
func TestStorageVersionHash(t *testing.T) {
	if got, want := storageVersionHash(group, "v1", "CronTab"), "bodr40kQYQo="; got != want {
		t.Errorf("storageVersionHash = %q, want %q", got, want)
	}
}
