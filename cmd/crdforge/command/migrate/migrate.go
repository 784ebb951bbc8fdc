// Package migrate upgrades the stored objects of a CustomResourceDefinition
// to its current storage version, the "upgrade existing objects to a new
// stored version" procedure of the Kubernetes documentation:
//
//  1. (done by the user) set storage: true on the new version and apply the
//     CRD: status.storedVersions now lists the old and the new version;
//  2. list every object and write it back unchanged, which makes the API
//     server store it at the current storage version;
//  3. remove the old versions from status.storedVersions.
//
// Run does steps 2 and 3. It first checks that the CRD has exactly one
// storage version, served, and that its conversion webhook answers; it
// changes status.storedVersions only when every object was written.
// Writing an object that is already stored at the storage version is a
// no-op for the API server (it skips writes that change no bytes), so Run
// is idempotent: after an interruption, run it again.
//
// In the same write it drops metadata.managedFields entries whose apiVersion
// is no longer served (kubernetes/kubernetes#111937: they would otherwise
// outlive the version, and break server-side apply once it is removed).
//
// A file per step: plan.go decides from the CRD what to do, storageversion.go
// and conversioncheck.go check before any write, list.go, workers.go,
// rewrite.go and managedfields.go rewrite the objects, progress.go reports,
// storedversions.go is step 3.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate/testhook"
)

// Run migrates the objects of opts.CRD to its storage version and then sets
// status.storedVersions to that version alone, talking to the API server
// of cfg. When cfg sets no client-side rate limit, Run sets one that keeps
// up with the workers.
//
// Its error wraps ErrUsage, ErrConversion, the context's error, or says
// that objects failed or the listing did; the Result (non-nil once the CRD
// was read) says what was done either way.
func Run(ctx context.Context, cfg *rest.Config, opts Options) (*Result, error) {
	c, err := newClients(withRateLimit(cfg, opts.Concurrency))
	if err != nil {
		return nil, err
	}
	return runWith(ctx, c, opts)
}

// runWith is Run with the clients given, fakes in tests.
func runWith(ctx context.Context, c *clients, opts Options) (*Result, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	crd, err := readCRD(ctx, c.ext, opts.CRD)
	if err != nil {
		return nil, err
	}
	p, err := planFor(crd)
	if err != nil {
		return nil, err
	}
	res := newResult(crd, p, opts.DryRun)
	if err := waitStorageVersion(ctx, c.discovery, crd, p, opts.storageWait, res); err != nil {
		return res, err
	}
	if err := checkConversion(ctx, c.dynamic, crd, p, res); err != nil {
		return res, err
	}
	if opts.Engine != EngineClient {
		done, err := runClusterEngine(ctx, c, opts, crd, p, res)
		if done || err != nil {
			return res, err
		}
	}
	res.engine = EngineClient
	m := &migration{opts: opts, plan: p, ri: c.dynamic.Resource(p.resource), res: res, afterObject: testhook.AfterObject(ctx)}
	if err := m.run(ctx); err != nil {
		return res, err
	}
	if res.failed > 0 {
		return res, fmt.Errorf("%w: %d of %d failed; status.storedVersions left at %v", errFailed, res.failed, res.total, res.storedBefore)
	}
	if opts.DryRun {
		return res, nil
	}
	if err := setStoredVersions(ctx, c.ext, crd.Name, p, opts.retrier(), res); err != nil {
		return res, err
	}
	return res, nil
}

// readCRD reads the CRD named name; not finding it is a usage error.
func readCRD(ctx context.Context, ext apiext.Interface, name string) (*apiextv1.CustomResourceDefinition, error) {
	crd, err := ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, usagef("no CustomResourceDefinition %q (want <plural>.<group>, as in kubectl get crd)", name)
	}
	if err != nil {
		return nil, fmt.Errorf("reading CustomResourceDefinition %s: %w", name, err)
	}
	return crd, nil
}

// runClusterEngine migrates through the cluster's migrator when the API
// server serves storagemigration.k8s.io; done is false when the client
// engine is to run instead (auto, and no migrator), with the reason in
// res.fallback.
func runClusterEngine(ctx context.Context, c *clients, opts Options, crd *apiextv1.CustomResourceDefinition, p *plan, res *Result) (done bool, err error) {
	svmGVR, ok, err := svmResource(c.discovery)
	if err != nil {
		return true, err
	}
	if !ok {
		if opts.Engine == EngineCluster {
			return true, usagef("the API server serves no %s API (v1, v1beta1, or v1alpha1 with its feature gate on): use --engine client", svmGroup)
		}
		res.fallback = "the API server serves no " + svmGroup + " API"
		return false, nil
	}
	err = runCluster(ctx, c, opts, p, res, svmGVR)
	if errors.Is(err, errNoMigrator) && opts.Engine == EngineAuto {
		res.fallback = err.Error()
		res.engine, res.svmName, res.svmAPI = "", "", ""
		return false, nil
	}
	if err != nil || opts.DryRun {
		return true, err
	}
	// What the migrator leaves undone: managedFields entries of versions
	// no longer served, then storedVersions where it did not set them.
	prune := &migration{opts: opts, plan: p, ri: c.dynamic.Resource(p.resource), res: res, pruneOnly: true}
	prune.opts.Progress = nil
	total, rewritten := res.total, res.rewritten
	if err := prune.run(ctx); err != nil {
		return true, err
	}
	res.total, res.rewritten = total, rewritten
	if res.failed > 0 {
		return true, fmt.Errorf("%w: dropping managedFields entries of unserved versions failed for %d objects", errFailed, res.failed)
	}
	return true, finishStoredVersions(ctx, c, opts, crd.Name, p, res)
}

// finishStoredVersions waits a moment for the migrator to set
// status.storedVersions to the storage version (Kubernetes 1.36 and later
// do, when the CRD did not change during the migration), and sets them
// itself when it does not.
func finishStoredVersions(ctx context.Context, c *clients, opts Options, name string, p *plan, res *Result) error {
	wait := opts.storedWait
	if !migratorSetsStoredVersions(c) {
		wait = 0 // it never will: set them now
	}
	deadline := time.Now().Add(wait)
	for {
		crd, err := c.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("re-reading %s: %w", name, err)
		}
		if slices.Equal(crd.Status.StoredVersions, []string{p.storage}) {
			res.storedAfter = crd.Status.StoredVersions
			if !slices.Equal(res.storedBefore, res.storedAfter) {
				res.storedBy = "the migrator"
			}
			return nil
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	if err := setStoredVersions(ctx, c.ext, name, p, opts.retrier(), res); err != nil {
		return err
	}
	res.storedBy = "crdforge"
	return nil
}

// migratorSetsStoredVersions reports whether the cluster's migrator drops
// migrated versions from a CRD's status.storedVersions itself: from
// Kubernetes 1.36 on (kubernetes/kubernetes#135297). When the server's
// version cannot be read it says yes, which only costs a short wait.
func migratorSetsStoredVersions(c *clients) bool {
	if c.discovery == nil {
		return true
	}
	v, err := c.discovery.ServerVersion()
	if err != nil {
		return true
	}
	major, err1 := strconv.Atoi(strings.TrimRight(v.Major, "+"))
	minor, err2 := strconv.Atoi(strings.TrimRight(v.Minor, "+"))
	if err1 != nil || err2 != nil {
		return true
	}
	return major > 1 || minor >= 36
}
