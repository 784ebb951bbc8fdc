package e2e

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// nudgeMigrator calls write once, when kube-controller-manager has given
// the StorageVersionMigration of group its resource version; the returned
// function waits for that (or gives up when the test ends first).
//
// Why: the migrator starts only once its garbage collector's cache of the
// resource has reached the migration's resource version ("GC cache is not
// up to date"). That cache moves with writes to the resource; one nobody
// writes moves only at the API server's next watch bookmark, about a minute
// away, by when the migrator's backoff has grown to tens of seconds: well
// over a minute of a test spent waiting. write is one object written, as a cluster's
// ordinary traffic would; it must leave what the test checks unchanged.
func nudgeMigrator(t *testing.T, group string, write func(context.Context) error) (wait func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := PollFor(ctx, time1m, func() error {
			svms, err := migrationsOf(ctx, group)
			if err != nil {
				return err
			}
			for _, it := range svms {
				if rv, _, _ := unstructured.NestedString(it.Object, "status", "resourceVersion"); rv != "" {
					return nil
				}
			}
			return fmt.Errorf("no StorageVersionMigration of %s with a resource version yet", group)
		})
		if err == nil {
			err = write(ctx)
		}
		if err != nil && ctx.Err() == nil {
			t.Errorf("nudging the migrator: %v", err)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return func() { <-done }
}

// migrationsOf lists the StorageVersionMigrations of a resource of group.
func migrationsOf(ctx context.Context, group string) ([]unstructured.Unstructured, error) {
	l, err := cluster.Dynamic.Resource(cluster.StorageMigration).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var of []unstructured.Unstructured
	for _, it := range l.Items {
		if g, _, _ := unstructured.NestedString(it.Object, "spec", "resource", "group"); g == group {
			of = append(of, it)
		}
	}
	return of, nil
}
