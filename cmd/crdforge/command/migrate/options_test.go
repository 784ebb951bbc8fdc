package migrate

import (
	"errors"
	"testing"
)

func TestWithDefaults(t *testing.T) {
	got, err := Options{CRD: "x"}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	want := Options{CRD: "x", ChunkSize: DefaultChunkSize, Concurrency: DefaultConcurrency,
		retries: defaultRetries, retryBase: defaultRetryBase, progressEvery: defaultProgressEvery, storageWait: defaultStorageWait,
		migratorWait: defaultMigratorWait, storedWait: defaultStoredWait, Engine: EngineAuto}
	if got != want {
		t.Errorf("zero values: %+v, want %+v", got, want)
	}
	set := Options{CRD: "x", ChunkSize: 7, Concurrency: 3, retries: 2, retryBase: 4, progressEvery: 9, storageWait: 1,
		migratorWait: 2, storedWait: 3, Engine: EngineClient}
	if got, err := set.withDefaults(); err != nil || got != set {
		t.Errorf("set values: %+v, %v; want them kept", got, err)
	}
	for _, bad := range []Options{{}, {CRD: "x", ChunkSize: -1}, {CRD: "x", Concurrency: -1}, {CRD: "x", retries: -1}, {CRD: "x", Engine: "kubectl"}} {
		if _, err := bad.withDefaults(); !errors.Is(err, ErrUsage) {
			t.Errorf("%+v: %v, want ErrUsage", bad, err)
		}
	}
}
