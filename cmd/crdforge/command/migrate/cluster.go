package migrate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// errNoMigrator and errMigrationFailed are storagemigrate's, which follows
// the migration for crdforge migrate and the webhook's --migrate-storage.
var (
	errNoMigrator      = storagemigrate.ErrNoMigrator
	errMigrationFailed = storagemigrate.ErrMigrationFailed
)

// clusterRun is a migration carried out by the cluster's migrator.
type clusterRun struct {
	opts   Options
	plan   *plan
	res    *Result
	svms   dynamic.NamespaceableResourceInterface
	svmGVR schema.GroupVersionResource
	total  int // objects, from the resource's list, for the progress bar

	lastOut  time.Time
	lastLine string
}

// runCluster creates a StorageVersionMigration for the CRD's resource (or
// follows one that is already pending or running) and waits until it
// succeeds or fails. It returns errNoMigrator, having deleted the object it
// created, when nothing takes the migration up within opts.migratorWait.
func runCluster(ctx context.Context, c *clients, opts Options, p *plan, res *Result, svmGVR schema.GroupVersionResource) error {
	r := &clusterRun{opts: opts, plan: p, res: res, svms: c.dynamic.Resource(svmGVR), svmGVR: svmGVR}
	res.engine = EngineCluster
	res.svmAPI = svmGVR.GroupVersion().String()
	obj, err := r.migration().Pending(ctx)
	if err != nil {
		return err
	}
	created := false
	if obj == nil {
		create := metav1.CreateOptions{FieldManager: fieldManager}
		if opts.DryRun {
			create.DryRun = []string{metav1.DryRunAll}
		}
		obj, err = r.svms.Create(ctx, &unstructured.Unstructured{Object: svmManifest(svmGVR, p.resource, "")}, create)
		if err != nil {
			return fmt.Errorf("creating a %s StorageVersionMigration for %s: %w", res.svmAPI, p.resource.GroupResource(), err)
		}
		created = true
		if opts.DryRun {
			res.svmName = "(dry run: not created)"
			res.svmOutcome = "the API server accepted the StorageVersionMigration"
			return nil
		}
	} else {
		res.svmAdopted = true
	}
	res.svmName = obj.GetName()
	r.total = countObjects(ctx, c.dynamic.Resource(p.resource))
	err = r.follow(ctx, obj.GetName())
	if errors.Is(err, errNoMigrator) && created {
		// Left behind, it would run whenever a migrator comes up, long
		// after this run reported what it did.
		if derr := r.svms.Delete(context.WithoutCancel(ctx), obj.GetName(), metav1.DeleteOptions{}); derr != nil && !apierrors.IsNotFound(derr) {
			return fmt.Errorf("%w; deleting StorageVersionMigration %s failed too: %v", err, obj.GetName(), derr)
		}
	}
	return err
}

// migration is the run's migration through the cluster's migrator, as
// storagemigrate follows it.
func (r *clusterRun) migration() *storagemigrate.ClusterMigration {
	return &storagemigrate.ClusterMigration{
		SVMs: r.svms, Resource: r.plan.resource, MigratorWait: r.opts.migratorWait, Timeout: r.opts.Timeout, Retrier: r.opts.retrier(),
	}
}

// follow follows the migration until it ends (storagemigrate's
// ClusterMigration), drawing progress from its Running condition's
// message, and says what the person who runs crdforge migrate can do when
// it does not succeed.
func (r *clusterRun) follow(ctx context.Context, name string) error {
	defer r.progress(true)
	var last *unstructured.Unstructured
	m := r.migration()
	m.Observe = func(obj *unstructured.Unstructured) {
		last = obj
		r.observe(storagemigrate.ConditionsOf(obj).Get("Running").Message, false)
	}
	err := m.Follow(ctx, name)
	var conds storagemigrate.Conditions
	if last != nil {
		conds = storagemigrate.ConditionsOf(last)
	}
	running := conds.Get("Running").Message
	switch failed := conds.Get("Failed"); {
	case err == nil:
		r.res.svmOutcome = "Succeeded"
		if c := conds.Get("Succeeded"); c.Message != "" {
			r.res.svmOutcome += ": " + c.Message
		}
		r.observe(running, true)
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted while following StorageVersionMigration %s, which goes on in the cluster (kubectl get storageversionmigration %s); run crdforge migrate again to follow it and finish: %w", name, name, ctx.Err())
	case errors.Is(err, errMigrationFailed) && failed.Status == "True":
		r.res.svmOutcome = fmt.Sprintf("Failed (%s): %s", failed.Reason, failed.Message)
		return fmt.Errorf("%w: StorageVersionMigration %s: %s: %s; status.storedVersions left at %v. The migrator never runs a failed migration again: fix the cause (does the conversion webhook answer?) and run crdforge migrate again, which creates a new one; the failed one stays for inspection (kubectl get storageversionmigration %s -o yaml), delete it when done",
			errMigrationFailed, name, failed.Reason, failed.Message, r.res.storedBefore, name)
	case errors.Is(err, errMigrationFailed):
		return fmt.Errorf("%w: nothing can be concluded from it; status.storedVersions is left at %v: run crdforge migrate again, which starts a new one", err, r.res.storedBefore)
	case errors.Is(err, errNoMigrator):
		return fmt.Errorf("%w: the API server serves %s, but kube-controller-manager does not run the storage version migrator (it needs its StorageVersionMigrator and InformerResourceVersion feature gates, on by default from Kubernetes 1.37, and its garbage-collector and storage-version-migrator-controller)",
			err, r.svmGVR.GroupVersion())
	case errors.Is(err, storagemigrate.ErrUnfinished):
		switch rv := storagemigrate.TakenAt(last); {
		case len(conds) == 0 && rv != "":
			running = fmt.Sprintf("nothing yet: it took the migration up at resource version %s and waits until its garbage collector's cache of %s has reached that version, which writes to the resource move along", rv, r.plan.resource.GroupResource())
		case running == "":
			running = "no message"
		}
		return fmt.Errorf("StorageVersionMigration %s has not finished within --timeout %s (the migrator says: %s); it goes on in the cluster, and status.storedVersions is left at %v: run crdforge migrate again to follow it and finish",
			name, r.opts.Timeout, running, r.res.storedBefore)
	}
	return fmt.Errorf("%w (it goes on in the cluster: run crdforge migrate again to follow it)", err)
}

var (
	notYetRE   = regexp.MustCompile(`(\d+)/(\d+) objects not yet migrated`)
	verifiedRE = regexp.MustCompile(`(\d+) objects verified migrated`)
)

// migratedCounts reads the migrator's Running message ("The migration is
// running, 3/10 objects not yet migrated", "10 objects verified migrated")
// into done and total; ok is false when it has no counts.
func migratedCounts(msg string) (done, total int, ok bool) {
	if m := notYetRE.FindStringSubmatch(msg); m != nil {
		left, _ := strconv.Atoi(m[1])
		total, _ = strconv.Atoi(m[2])
		return total - left, total, true
	}
	if m := verifiedRE.FindStringSubmatch(msg); m != nil {
		total, _ = strconv.Atoi(m[1])
		return total, total, true
	}
	return 0, 0, false
}

// observe records the counts of a Running message, and reports progress.
func (r *clusterRun) observe(msg string, finished bool) {
	if done, total, ok := migratedCounts(msg); ok {
		r.res.total, r.res.rewritten = total, done
		r.total = total
	} else if finished {
		r.res.rewritten = r.total
		r.res.total = r.total
	}
	r.progress(false)
}

// progress draws the bar on a terminal (at most every 100ms), or prints a
// line when the counts change.
func (r *clusterRun) progress(final bool) {
	if r.opts.Progress == nil {
		return
	}
	done, total := r.res.rewritten, max(r.total, r.res.total)
	if r.opts.Terminal {
		if !final && time.Since(r.lastOut) < 100*time.Millisecond {
			return
		}
		r.lastOut = time.Now()
		out := "\r" + progressBar(done, total, 0, 30) + " (cluster migrator)"
		if final {
			out += "\n"
		}
		_, _ = io.WriteString(r.opts.Progress, out) // only for watching; see migration.progressLocked
		return
	}
	line := fmt.Sprintf("migrated %d/%d (cluster migrator)\n", done, total)
	if line != r.lastLine && (final || done > 0) {
		r.lastLine = line
		_, _ = io.WriteString(r.opts.Progress, line)
	}
}

// countObjects is how many objects the resource has, from a one-item
// list's remainingItemCount (cheap: the API server counts from its cache),
// or 0 when the server does not say.
func countObjects(ctx context.Context, ri dynamic.NamespaceableResourceInterface) int {
	list, err := ri.List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return 0
	}
	n := len(list.Items)
	if rem := list.GetRemainingItemCount(); rem != nil {
		n += int(*rem)
	}
	return n
}
