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
package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// FieldManager is the field manager of migrate's writes. (A write that
// changes no field adds no managedFields entry.)
const FieldManager = "crdforge-migrate"

// Defaults of Options.
const (
	DefaultChunkSize   = 500
	DefaultConcurrency = 4
	DefaultRetries     = 5
)

// ErrUsage marks errors in what was asked: an unknown CRD, bad options.
var ErrUsage = errors.New("usage")

// ErrConversion marks the refusal to start because the conversion webhook
// does not answer; nothing was changed.
var ErrConversion = errors.New("conversion webhook check failed")

// ErrFailed marks a run in which some objects could not be written;
// status.storedVersions was left alone.
var ErrFailed = errors.New("some objects could not be rewritten")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// Options configure Run. Zero values take the defaults.
type Options struct {
	CRD         string // the CustomResourceDefinition's name, <plural>.<group>
	ChunkSize   int64  // objects per list page
	Concurrency int    // concurrent writers
	Retries     int    // attempts per object on conflicts
	DryRun      bool   // server-side dry-run writes; storedVersions untouched

	// Progress receives progress output (nil: none): a bar redrawn in place
	// when Terminal, else a line every ProgressEvery objects and at the end.
	Progress      io.Writer
	Terminal      bool
	ProgressEvery int

	// StorageWait bounds the wait until the API server's discovery reports
	// the CRD's storage version (default 30s); see waitStorageVersion.
	StorageWait time.Duration

	// AfterObject, when set, is called after each object is done (by any
	// worker, serialised) with the number done so far. Tests use it to
	// interrupt a run by cancelling the context.
	AfterObject func(done int)
}

// Result is what a run did.
type Result struct {
	CRD             string
	Resource        schema.GroupVersionResource // at the storage version
	Storage         string
	Served          []string
	StoredBefore    []string // status.storedVersions before the run
	StoredAfter     []string // after it (StoredBefore unless it set them)
	Total           int      // objects listed
	Expected        int      // objects the first list page announced (remainingItemCount)
	Rewritten       int      // written (or, with DryRun, would be)
	Unchanged       int      // of Rewritten: already at the storage version, no write happened
	Skipped         int      // deleted while the run went on
	Failed          int
	Failures        []string // the first few failures, "ns/name: error"
	ManagedDropped  int      // managedFields entries removed
	StoredUpdated   bool
	DryRun          bool
	ConversionCheck string // what the webhook check read, or why none
	StorageCheck    string // what discovery said about the storage version
}

// Summary is the one-paragraph report of a run.
func (r *Result) Summary() string {
	var b strings.Builder
	verb := "rewrote"
	if r.DryRun {
		verb = "would rewrite"
	}
	fmt.Fprintf(&b, "%s: %s %d of %d objects at %s (%d already stored there), skipped %d (deleted meanwhile), failed %d",
		r.CRD, verb, r.Rewritten, max(r.Total, r.Expected), r.Storage, r.Unchanged, r.Skipped, r.Failed)
	if r.Expected > r.Total {
		fmt.Fprintf(&b, "; %d listed so far", r.Total)
	}
	if r.ManagedDropped > 0 {
		fmt.Fprintf(&b, "; dropped %d managedFields entries of unserved versions", r.ManagedDropped)
	}
	b.WriteString("\n")
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "  failed: %s\n", f)
	}
	switch {
	case r.StoredUpdated:
		fmt.Fprintf(&b, "status.storedVersions: %v -> %v\n", r.StoredBefore, r.StoredAfter)
	case r.DryRun:
		fmt.Fprintf(&b, "status.storedVersions: %v, would become [%s] (dry run: unchanged)\n", r.StoredBefore, r.Storage)
	default:
		fmt.Fprintf(&b, "status.storedVersions: %v (unchanged)\n", r.StoredBefore)
	}
	return b.String()
}

// Clients are the API clients Run needs. Discovery may be nil (no wait
// for the storage version to show in discovery).
type Clients struct {
	Ext       apiext.Interface
	Dynamic   dynamic.Interface
	Discovery discovery.DiscoveryInterface
}

// NewClients builds Clients from a rest.Config.
func NewClients(cfg *rest.Config) (*Clients, error) {
	ext, err := apiext.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Clients{Ext: ext, Dynamic: dyn, Discovery: disc}, nil
}

// Run migrates the CRD's objects with a client from cfg. See RunWith.
// When cfg sets no client-side rate limit (QPS 0), Run sets one that does
// not hold the workers back (client-go's default, 5 per second, would);
// the API server's priority and fairness still applies.
func Run(ctx context.Context, cfg *rest.Config, opts Options) (*Result, error) {
	if cfg.QPS == 0 && cfg.RateLimiter == nil {
		cfg = rest.CopyConfig(cfg)
		n := max(opts.Concurrency, DefaultConcurrency)
		cfg.QPS = float32(50 * n)
		cfg.Burst = 100 * n
	}
	c, err := NewClients(cfg)
	if err != nil {
		return nil, err
	}
	return RunWith(ctx, c, opts)
}

// RunWith migrates the objects of opts.CRD to its storage version and then
// sets status.storedVersions to that version alone. Its error wraps
// ErrUsage, ErrConversion, ErrFailed or the context's error; the Result
// (non-nil once the CRD was read) says what was done either way.
func RunWith(ctx context.Context, c *Clients, opts Options) (*Result, error) {
	if opts.CRD == "" {
		return nil, usagef("no CustomResourceDefinition named")
	}
	if opts.ChunkSize < 0 || opts.Concurrency < 0 || opts.Retries < 0 {
		return nil, usagef("--chunk-size, --concurrency and retries must not be negative")
	}
	if opts.ChunkSize == 0 {
		opts.ChunkSize = DefaultChunkSize
	}
	if opts.Concurrency == 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.Retries == 0 {
		opts.Retries = DefaultRetries
	}
	if opts.ProgressEvery <= 0 {
		opts.ProgressEvery = 100
	}
	if opts.StorageWait <= 0 {
		opts.StorageWait = 30 * time.Second
	}
	crd, err := c.Ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, opts.CRD, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, usagef("no CustomResourceDefinition %q (want <plural>.<group>, as in kubectl get crd)", opts.CRD)
	}
	if err != nil {
		return nil, fmt.Errorf("reading CustomResourceDefinition %s: %w", opts.CRD, err)
	}
	plan, err := PlanFor(crd)
	if err != nil {
		return nil, err
	}
	res := &Result{CRD: crd.Name, Resource: plan.Resource, Storage: plan.Storage, Served: plan.Served,
		StoredBefore: slices.Clone(crd.Status.StoredVersions), DryRun: opts.DryRun}
	res.StoredAfter = res.StoredBefore
	ri := c.Dynamic.Resource(plan.Resource)

	if err := waitStorageVersion(ctx, c.Discovery, crd, plan, opts.StorageWait, res); err != nil {
		return res, err
	}
	if err := checkConversion(ctx, c.Dynamic, crd, plan, res); err != nil {
		return res, err
	}

	m := &migration{opts: opts, plan: plan, ri: ri, res: res}
	if err := m.run(ctx); err != nil {
		return res, err
	}
	if res.Failed > 0 {
		return res, fmt.Errorf("%w: %d of %d failed; status.storedVersions left at %v", ErrFailed, res.Failed, res.Total, res.StoredBefore)
	}
	if opts.DryRun {
		return res, nil
	}
	if err := setStoredVersions(ctx, c.Ext, crd.Name, plan.Storage, res); err != nil {
		return res, err
	}
	return res, nil
}

// Plan is what Run derives from the CRD.
type Plan struct {
	Resource   schema.GroupVersionResource // at the storage version
	Storage    string
	Served     []string
	Namespaced bool
	Webhook    bool                // conversion strategy Webhook
	ServedAPI  map[string]struct{} // group/version of each served version
}

// PlanFor checks that crd has exactly one storage version, and that it is
// served, and says how to migrate it.
func PlanFor(crd *apiextv1.CustomResourceDefinition) (*Plan, error) {
	p := &Plan{ServedAPI: map[string]struct{}{}, Namespaced: crd.Spec.Scope == apiextv1.NamespaceScoped}
	var storage []string
	storageServed := false
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storage = append(storage, v.Name)
			storageServed = v.Served
		}
		if v.Served {
			p.Served = append(p.Served, v.Name)
			p.ServedAPI[crd.Spec.Group+"/"+v.Name] = struct{}{}
		}
	}
	if len(storage) != 1 {
		return nil, fmt.Errorf("CustomResourceDefinition %s has %d storage versions %v, want exactly one", crd.Name, len(storage), storage)
	}
	if !storageServed {
		return nil, fmt.Errorf("CustomResourceDefinition %s: storage version %s is not served; serve it to migrate", crd.Name, storage[0])
	}
	p.Storage = storage[0]
	p.Resource = schema.GroupVersionResource{Group: crd.Spec.Group, Version: p.Storage, Resource: crd.Spec.Names.Plural}
	p.Webhook = crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy == apiextv1.WebhookConverter
	return p, nil
}

// StorageVersionHash is the storageVersionHash the API server's discovery
// gives a resource stored at group/version as kind (the same computation as
// k8s.io/apiserver/pkg/endpoints/discovery.StorageVersionHash).
func StorageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// waitStorageVersion waits until discovery reports the CRD's storage
// version: right after a CRD update the API server may still write at the
// previous storage version for a moment, and rewriting objects then would
// not move them. Discovery is updated from the same CRD events as the
// handlers that store objects, so it is a good (not a perfect) sign. A
// server without storageVersionHash in discovery is not waited for.
func waitStorageVersion(ctx context.Context, disc discovery.DiscoveryInterface, crd *apiextv1.CustomResourceDefinition, p *Plan, timeout time.Duration, res *Result) error {
	if disc == nil {
		return nil
	}
	want := StorageVersionHash(crd.Spec.Group, p.Storage, crd.Spec.Names.Kind)
	gv := crd.Spec.Group + "/" + p.Storage
	deadline := time.Now().Add(timeout)
	var last string
	for {
		list, err := disc.ServerResourcesForGroupVersion(gv)
		if err == nil {
			for _, r := range list.APIResources {
				if r.Name != p.Resource.Resource {
					continue
				}
				last = r.StorageVersionHash
				switch last {
				case "":
					res.StorageCheck = "discovery gives no storageVersionHash; not checked"
					return nil
				case want:
					res.StorageCheck = "discovery reports storage version " + p.Storage
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("discovery of %s: %w", gv, err)
			}
			return fmt.Errorf("the API server does not report %s as the storage version of %s yet (storageVersionHash %q, want %q); try again in a moment", p.Storage, crd.Name, last, want)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// checkConversion reads one object, if any, at every served version when
// the CRD converts with a webhook: reading an object at a version it is not
// stored at calls the webhook, and with two served versions at least one
// read is such. A failure refuses the run before anything changed.
func checkConversion(ctx context.Context, dyn dynamic.Interface, crd *apiextv1.CustomResourceDefinition, p *Plan, res *Result) error {
	if !p.Webhook {
		res.ConversionCheck = "conversion strategy None: no webhook to check"
		return nil
	}
	refuse := func(what string, err error) error {
		return fmt.Errorf("%w: %s: %v; nothing was changed (is the webhook of %s running and reachable from the API server?)", ErrConversion, what, err, crd.Name)
	}
	list, err := dyn.Resource(p.Resource).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return refuse("listing at "+p.Storage, err)
	}
	if len(list.Items) == 0 {
		res.ConversionCheck = "no objects: nothing to convert"
		return nil
	}
	obj := list.Items[0]
	var read []string
	for _, v := range p.Served {
		if v == p.Storage {
			continue
		}
		gvr := p.Resource
		gvr.Version = v
		_, err := dyn.Resource(gvr).Namespace(obj.GetNamespace()).Get(ctx, obj.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue // deleted meanwhile; the list already converted it
		}
		if err != nil {
			return refuse(fmt.Sprintf("reading %s at %s", key(&obj), v), err)
		}
		read = append(read, v)
	}
	res.ConversionCheck = fmt.Sprintf("read %s at %s and %v", key(&obj), p.Storage, read)
	return nil
}

func key(u *unstructured.Unstructured) string {
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}

// PruneManagedFields drops the managedFields entries of obj whose
// apiVersion is not in served, and returns how many it dropped. When it
// would drop them all it leaves one empty entry: an empty list means "keep
// the stored managedFields" to the API server, a list of one empty entry
// means "clear them".
func PruneManagedFields(obj *unstructured.Unstructured, served map[string]struct{}) int {
	list, ok, _ := unstructured.NestedSlice(obj.Object, "metadata", "managedFields")
	if !ok || len(list) == 0 {
		return 0
	}
	kept := make([]any, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		av, _ := m["apiVersion"].(string)
		if _, ok := served[av]; ok || av == "" {
			kept = append(kept, e)
		}
	}
	dropped := len(list) - len(kept)
	if dropped == 0 {
		return 0
	}
	if len(kept) == 0 {
		kept = []any{map[string]any{}}
	}
	_ = unstructured.SetNestedSlice(obj.Object, kept, "metadata", "managedFields")
	return dropped
}

type migration struct {
	opts Options
	plan *Plan
	ri   dynamic.NamespaceableResourceInterface
	res  *Result

	mu      sync.Mutex // guards res counters and progress output
	done    int
	total   atomic.Int64 // expected, from the first page's remainingItemCount
	lastOut time.Time
}

func (m *migration) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan unstructured.Unstructured, m.opts.ChunkSize)
	var listErr error
	go func() {
		defer close(items)
		listErr = m.list(ctx, items)
	}()
	var wg sync.WaitGroup
	for range m.opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for obj := range items {
				if ctx.Err() != nil {
					continue // drain
				}
				outcome, dropped, err := m.rewrite(ctx, &obj)
				if ctx.Err() != nil && err != nil {
					continue // interrupted: neither done nor failed
				}
				m.record(&obj, outcome, dropped, err)
			}
		}()
	}
	wg.Wait()
	m.progress(true)
	if err := ctx.Err(); err != nil {
		if cerr := context.Cause(ctx); cerr != nil {
			err = cerr
		}
		return fmt.Errorf("interrupted after %d of %d objects (run again to finish; status.storedVersions left at %v): %w", m.done, max(m.res.Total, m.res.Expected), m.res.StoredBefore, err)
	}
	if listErr != nil {
		return fmt.Errorf("listing %s: %w (status.storedVersions left at %v; run again)", m.plan.Resource, listErr, m.res.StoredBefore)
	}
	return nil
}

// maxListRestarts bounds how often an expired list is started over.
const maxListRestarts = 3

// list sends every object, page by page, across namespaces. When a page's
// continue token has expired (the listing outlived etcd's compaction window:
// 410 Expired), the listing starts over and skips the objects already sent.
func (m *migration) list(ctx context.Context, out chan<- unstructured.Unstructured) error {
	sent := map[string]bool{}
	cont := ""
	first := true
	restarts := 0
	for {
		page, err := m.ri.List(ctx, metav1.ListOptions{Limit: m.opts.ChunkSize, Continue: cont})
		if err != nil {
			if cont != "" && (apierrors.IsResourceExpired(err) || apierrors.IsGone(err)) && restarts < maxListRestarts {
				restarts++
				cont = ""
				continue
			}
			return err
		}
		if first {
			rem := int64(0)
			if r := page.GetRemainingItemCount(); r != nil {
				rem = *r
			}
			m.total.Store(int64(len(page.Items)) + rem)
			m.mu.Lock()
			m.res.Expected = len(page.Items) + int(rem)
			m.mu.Unlock()
			first = false
		}
		for _, it := range page.Items {
			key := it.GetNamespace() + "/" + it.GetName()
			if sent[key] {
				continue
			}
			sent[key] = true
			m.mu.Lock()
			m.res.Total++
			m.mu.Unlock()
			select {
			case out <- it:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		cont = page.GetContinue()
		if cont == "" {
			return nil
		}
	}
}

type outcome int

const (
	written outcome = iota
	unchanged
	skipped
	failed
)

// rewrite writes obj back at the storage version, re-reading it on
// conflicts.
func (m *migration) rewrite(ctx context.Context, obj *unstructured.Unstructured) (outcome, int, error) {
	ri := m.ri.Namespace(obj.GetNamespace())
	opts := metav1.UpdateOptions{FieldManager: FieldManager}
	if m.opts.DryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	var lastErr error
	for attempt := 0; attempt < m.opts.Retries; attempt++ {
		if attempt > 0 {
			cur, err := ri.Get(ctx, obj.GetName(), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return skipped, 0, nil
			}
			if err != nil {
				return failed, 0, err
			}
			obj = cur
		}
		rv := obj.GetResourceVersion()
		w := obj.DeepCopy()
		dropped := PruneManagedFields(w, m.plan.ServedAPI)
		got, err := ri.Update(ctx, w, opts)
		switch {
		case err == nil:
			if !m.opts.DryRun && got.GetResourceVersion() == rv {
				return unchanged, dropped, nil
			}
			return written, dropped, nil
		case apierrors.IsNotFound(err):
			return skipped, 0, nil
		case apierrors.IsConflict(err):
			lastErr = err
			continue
		default:
			return failed, 0, err
		}
	}
	return failed, 0, fmt.Errorf("%d conflicts, giving up: %w", m.opts.Retries, lastErr)
}

const maxFailures = 10

func (m *migration) record(obj *unstructured.Unstructured, o outcome, dropped int, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch o {
	case written:
		m.res.Rewritten++
	case unchanged:
		m.res.Rewritten++
		m.res.Unchanged++
	case skipped:
		m.res.Skipped++
	case failed:
		m.res.Failed++
		if len(m.res.Failures) < maxFailures {
			m.res.Failures = append(m.res.Failures, key(obj)+": "+err.Error())
		}
	}
	m.res.ManagedDropped += dropped
	m.done++
	m.progressLocked(false)
	if m.opts.AfterObject != nil {
		m.opts.AfterObject(m.done)
	}
}

func (m *migration) progress(final bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.progressLocked(final)
}

// progressLocked draws the bar (terminal) or prints a line every
// ProgressEvery objects, and always at the end.
func (m *migration) progressLocked(final bool) {
	w := m.opts.Progress
	if w == nil {
		return
	}
	total := int(m.total.Load())
	if m.res.Total > total {
		total = m.res.Total
	}
	if m.opts.Terminal {
		if !final && time.Since(m.lastOut) < 100*time.Millisecond {
			return
		}
		m.lastOut = time.Now()
		fmt.Fprintf(w, "\r%s", Bar(m.done, total, m.res.Failed, 30))
		if final {
			fmt.Fprintln(w)
		}
		return
	}
	if final || m.done%m.opts.ProgressEvery == 0 {
		if final && m.done%m.opts.ProgressEvery == 0 && m.done != 0 {
			return // already said
		}
		verb := "rewrote"
		if m.opts.DryRun {
			verb = "checked (dry run)"
		}
		fmt.Fprintf(w, "%s %d/%d", verb, m.done, total)
		if m.res.Failed > 0 {
			fmt.Fprintf(w, " (%d failed)", m.res.Failed)
		}
		fmt.Fprintln(w)
	}
}

// Bar is a progress bar of width cells for done of total.
func Bar(done, total, failed, width int) string {
	frac := 1.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	if frac > 1 {
		frac = 1
	}
	n := int(frac * float64(width))
	bar := strings.Repeat("=", n)
	if n < width {
		bar += ">" + strings.Repeat(" ", width-n-1)
	}
	s := fmt.Sprintf("[%s] %d/%d %3.0f%%", bar, done, total, frac*100)
	if failed > 0 {
		s += fmt.Sprintf(" (%d failed)", failed)
	}
	return s
}

// setStoredVersions sets status.storedVersions to [storage], after checking
// that the storage version did not change during the run.
func setStoredVersions(ctx context.Context, ext apiext.Interface, name, storage string, res *Result) error {
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	for attempt := 0; ; attempt++ {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("re-reading %s: %w", name, err)
		}
		p, err := PlanFor(crd)
		if err != nil {
			return err
		}
		if p.Storage != storage {
			return fmt.Errorf("the storage version of %s changed from %s to %s during the run; run again", name, storage, p.Storage)
		}
		if slices.Equal(crd.Status.StoredVersions, []string{storage}) {
			res.StoredAfter = crd.Status.StoredVersions
			return nil
		}
		crd.Status.StoredVersions = []string{storage}
		upd, err := crds.UpdateStatus(ctx, crd, metav1.UpdateOptions{FieldManager: FieldManager})
		if apierrors.IsConflict(err) && attempt < DefaultRetries {
			continue
		}
		if err != nil {
			return fmt.Errorf("setting status.storedVersions of %s to [%s]: %w", name, storage, err)
		}
		res.StoredAfter = upd.Status.StoredVersions
		res.StoredUpdated = true
		return nil
	}
}
