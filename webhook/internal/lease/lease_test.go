package lease

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic/fake"
)

// The Lease goes to one replica at a time: the other takes it only once
// the holder has not renewed it for its duration, by the taker's own
// clock, or at once after the holder gave it up.
func TestLeaseGoesToOneReplicaAtATime(t *testing.T) {
	ctx := context.Background()
	client := fake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{Resource: "LeaseList"})
	leases := client.Resource(Resource).Namespace("ns")
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clockA, clockB := start, start.Add(time.Hour) // the clocks disagree; neither is compared with the other
	a := &elector{leases: leases, name: "certs", identity: "a", now: func() time.Time { return clockA }}
	b := &elector{leases: leases, name: "certs", identity: "b", now: func() time.Time { return clockB }}
	try := func(e *elector, want bool) {
		t.Helper()
		held, err := e.tryAcquireOrRenew(ctx)
		if err != nil || held != want {
			t.Fatalf("%s: held %v, %v; want %v", e.identity, held, err, want)
		}
	}
	holder := func(want string) {
		t.Helper()
		l, err := leases.Get(ctx, "certs", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got, _, _ := unstructured.NestedString(l.Object, "spec", "holderIdentity"); got != want {
			t.Fatalf("holder %q, want %q", got, want)
		}
	}

	try(a, true) // none there: created
	holder("a")
	try(b, false)
	for i := 0; i < 5; i++ { // a renews in time; b never takes it
		clockA, clockB = clockA.Add(retryPeriod), clockB.Add(retryPeriod*5)
		try(a, true)
		try(b, false)
	}
	clockB = clockB.Add(leaseDuration - time.Second) // a renewed last less than a duration ago
	try(b, false)
	clockB = clockB.Add(2 * time.Second) // a has not renewed for its duration
	try(b, true)
	holder("b")
	try(a, false) // a sees b hold it
	if err := b.release(ctx); err != nil {
		t.Fatal(err)
	}
	holder("")
	try(a, true) // at once
	holder("a")
	if err := b.release(ctx); err != nil { // not b's: left alone
		t.Fatal(err)
	}
	holder("a")
}
