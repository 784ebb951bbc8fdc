// Package lease elects one replica of the webhook through a
// coordination.k8s.io Lease, as client-go's tools/leaderelection does with a
// LeaseLock, over the dynamic client: tools/leaderelection takes typed
// clients, which would link every group of k8s.io/api into the webhook.
// --manage-certs and --migrate-storage each campaign for a Lease of their
// own, so that the two jobs may land on two replicas.
package lease

import (
	"context"
	"log/slog"
	"math/rand"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Resource is the Lease's, for the dynamic client.
var Resource = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}

// The Lease's timing: client-go's and controller-runtime's defaults.
const (
	leaseDuration = 15 * time.Second
	renewDeadline = 10 * time.Second
	retryPeriod   = 2 * time.Second
)

// elector is one replica's side of the Lease, as client-go's
// tools/leaderelection keeps it with a LeaseLock, over the dynamic client:
// tools/leaderelection takes typed clients, which would link every group
// of k8s.io/api into the webhook. A replica takes the Lease when it is
// free (no holder) or its holder has not renewed it for its duration, as
// this replica's clock measures it from when it last saw the Lease change,
// so that no two clocks are compared; it writes with the resourceVersion
// it read, so that of two replicas taking it at once one fails.
type elector struct {
	leases         dynamic.ResourceInterface
	name, identity string
	now            func() time.Time
	// observed is the Lease as last read (record), and observedAt when it
	// was first seen so.
	observed   string
	observedAt time.Time
}

// tryAcquireOrRenew takes or renews the Lease, and reports whether this
// replica holds it.
func (e *elector) tryAcquireOrRenew(ctx context.Context) (bool, error) {
	now := e.now()
	lease, err := e.leases.Get(ctx, e.name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		// The deployment renders the Lease, so that its Role need not
		// create; a Lease deleted since is made again, where allowed.
		lease = &unstructured.Unstructured{Object: map[string]any{"apiVersion": "coordination.k8s.io/v1", "kind": "Lease"}}
		lease.SetName(e.name)
		setHolder(lease, e.identity, now, true, 0)
		created, err := e.leases.Create(ctx, lease, metav1.CreateOptions{})
		if err != nil {
			return false, err
		}
		e.observe(record(created), now)
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if r := record(lease); r != e.observed {
		e.observe(r, now)
	}
	holder, _, _ := unstructured.NestedString(lease.Object, "spec", "holderIdentity")
	duration := leaseDuration
	if s, ok, _ := unstructured.NestedInt64(lease.Object, "spec", "leaseDurationSeconds"); ok && s > 0 {
		duration = time.Duration(s) * time.Second
	}
	if holder != "" && holder != e.identity && now.Before(e.observedAt.Add(duration)) {
		return false, nil
	}
	transitions, _, _ := unstructured.NestedInt64(lease.Object, "spec", "leaseTransitions")
	if holder != e.identity {
		transitions++
	}
	lease = lease.DeepCopy()
	setHolder(lease, e.identity, now, holder != e.identity, transitions)
	updated, err := e.leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return false, err
	}
	e.observe(record(updated), now)
	return true, nil
}

func (e *elector) observe(record string, at time.Time) {
	e.observed, e.observedAt = record, at
}

// record is what of a Lease changes when its holder renews it.
func record(lease *unstructured.Unstructured) string {
	holder, _, _ := unstructured.NestedString(lease.Object, "spec", "holderIdentity")
	renewed, _, _ := unstructured.NestedString(lease.Object, "spec", "renewTime")
	return lease.GetResourceVersion() + "|" + holder + "|" + renewed
}

// release gives the Lease up, if this replica still holds it, so that
// another takes it at once rather than after its duration.
func (e *elector) release(ctx context.Context) error {
	lease, err := e.leases.Get(ctx, e.name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if holder, _, _ := unstructured.NestedString(lease.Object, "spec", "holderIdentity"); holder != e.identity {
		return nil
	}
	lease = lease.DeepCopy()
	transitions, _, _ := unstructured.NestedInt64(lease.Object, "spec", "leaseTransitions")
	setHolder(lease, "", e.now(), true, transitions)
	_ = unstructured.SetNestedField(lease.Object, int64(1), "spec", "leaseDurationSeconds")
	_, err = e.leases.Update(ctx, lease, metav1.UpdateOptions{})
	return err
}

// setHolder writes the Lease's spec as tools/leaderelection does.
func setHolder(lease *unstructured.Unstructured, holder string, now time.Time, acquired bool, transitions int64) {
	at := now.UTC().Format(metav1.RFC3339Micro)
	spec, _, _ := unstructured.NestedMap(lease.Object, "spec")
	if spec == nil {
		spec = map[string]any{}
	}
	spec["holderIdentity"] = holder
	spec["leaseDurationSeconds"] = int64(leaseDuration / time.Second)
	spec["renewTime"] = at
	spec["leaseTransitions"] = transitions
	if acquired {
		spec["acquireTime"] = at
	}
	lease.Object["spec"] = spec
}

// Campaign runs for the Lease name in leases as identity, calls lead with
// a context that ends when the Lease is lost, runs again each time it is
// lost, until ctx ends; then it gives the Lease up. lead returns once its
// context ends; no lead runs once the Lease may be another's.
func Campaign(ctx context.Context, leases dynamic.ResourceInterface, name, identity string, log *slog.Logger, lead func(context.Context)) {
	e := &elector{leases: leases, name: name, identity: identity, now: time.Now}
	for acquire(ctx, e, log) {
		leading, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			lead(leading)
		}()
		renew(ctx, e, log)
		stop()
		<-done
		if ctx.Err() != nil {
			release, cancel := context.WithTimeout(context.Background(), renewDeadline)
			if err := e.release(release); err != nil {
				log.Debug("giving the Lease up", "lease", name, "error", err)
			}
			cancel()
			return
		}
		log.Info("lost the Lease", "lease", name, "identity", identity)
	}
}

// acquire tries for the Lease every retryPeriod, jittered, until this
// replica holds it (true) or ctx ends (false).
func acquire(ctx context.Context, e *elector, log *slog.Logger) bool {
	for {
		held, err := e.tryAcquireOrRenew(ctx)
		if err != nil && ctx.Err() == nil {
			log.Debug("the Lease is not ours", "lease", e.name, "error", err)
		}
		if held {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(retryPeriod + time.Duration(rand.Int63n(int64(retryPeriod/5)))):
		}
	}
}

// renew renews the Lease every retryPeriod until ctx ends, another replica
// holds it, or no renewal succeeded for renewDeadline: before the Lease's
// duration runs out, so that this replica stops leading before another
// may take over.
func renew(ctx context.Context, e *elector, log *slog.Logger) {
	t := time.NewTicker(retryPeriod)
	defer t.Stop()
	last := e.now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		attempt, cancel := context.WithTimeout(ctx, renewDeadline-e.now().Sub(last))
		held, err := e.tryAcquireOrRenew(attempt)
		cancel()
		switch {
		case held:
			last = e.now()
		case err == nil:
			return // another replica holds it
		case e.now().Sub(last) >= renewDeadline:
			log.Error("cannot renew the Lease", "lease", e.name, "error", err)
			return
		}
	}
}
