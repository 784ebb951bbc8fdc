package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// TestUpgradeMigratesStorage is issue 53's "done when": a version's life
// with no human step in the cluster. The chart of version N (v1 the storage
// version, v1alpha1 served beside it), with managed certificates and
// migrateStorage on and neither cert-manager nor crdforge certs, is
// rendered by helm template and applied; two replicas of N's webhook run on
// the host (the API server reaches them through one proxy, and an
// EndpointSlice of the Service names them as its pods). Objects are written
// at every version. Version N+1 is made with crdforge new-version v2
// --storage (v1alpha1 removed), rendered and applied, and its replicas
// replace N's. With no other command the webhook's elected replica waits
// while N's replicas, which do not convert v2, are the Service's endpoints,
// then migrates: every object stored at v2, storedVersions [v2], no
// managedFields entry naming v1alpha1, and no conversion failed. The
// chart's default engine (auto) migrates through the cluster's
// StorageVersionMigration where kube-controller-manager runs the migrator,
// and rewrites the objects itself where none takes the migration up.
func TestUpgradeMigratesStorage(t *testing.T) {
	needCluster(t)
	t.Run("no migrator", func(t *testing.T) { upgradeMigrates(t, "upgrade", false) })
	t.Run("cluster migrator", func(t *testing.T) { upgradeMigrates(t, "upgrade-svm", true) })
}

// upgradeMigrates is TestUpgradeMigratesStorage in group name.e2e.crdforge.io
// and namespace name-e2e, with kube-controller-manager's storage version
// migrator running when migrator says so.
func upgradeMigrates(t *testing.T, name string, migrator bool) {
	h := newHelm(t)
	ctx := context.Background()
	group, ns, release, perVersion := name+".e2e.crdforge.io", name+"-e2e", name, 10
	// How long the replicas wait for a migrator to take their
	// StorageVersionMigration up: where one runs, well above what it takes.
	migratorWait := "15s"
	if migrator {
		migratorWait = "1m"
	}
	crdName := "crontabs." + group
	dir := lifeProject(t, group)
	if err := os.WriteFile(filepath.Join(dir, ".crdforge.yaml"), []byte("helm: true\nwebhook-manage-certs: true\nwebhook-migrate-storage: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	crdforgeIn(t, dir, "generate", "./...")
	crdforgeIn(t, dir, "new-version", "v1alpha1")
	addSpecField(t, dir, "v1alpha1", "Zone string `json:\"zone,omitempty\"`")
	crdforgeIn(t, dir, "generate", "./...")
	binN := buildWebhook(t, dir, "webhook-n")
	docsN := renderChart(t, h, dir, release, ns)

	createNamespace(t, ns)
	lb := startRoundRobin(t)
	t.Cleanup(func() {
		_ = cluster.Dynamic.Resource(CRDResource).Delete(ctx, crdName, metav1.DeleteOptions{})
	})
	applyRendered(t, docsN, lb.addr())
	args := chartReplicaArgs(t, docsN, ns, migratorWait)
	logs := logFile(t, "replicas")
	old := []*Webhook{startReplica(t, binN, "webhook-0", args, logs), startReplica(t, binN, "webhook-1", args, logs)}
	lb.set(old...)
	service := flagValue(t, args, "--migrate-service")
	setEndpoints(t, ns, service, "webhook-0", "webhook-1")

	e := &Example{Name: "upgrade", Group: group, Plural: "crontabs", Kind: "CronTab"}
	for _, v := range []string{"v1alpha1", "v1"} {
		for i := range perVersion {
			obj := e.Obj(v, ns, fmt.Sprintf("%s-%d", v, i), map[string]any{"host": "h", "port": fmt.Sprint(i)})
			// The first waits for the replicas' first certificate in the
			// caBundle.
			if err := PollFor(ctx, time.Minute, func() error {
				_, err := cluster.Dynamic.Resource(e.Resource(v)).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{})
				return err
			}); err != nil {
				t.Fatalf("creating %s at %s: %v", obj.GetName(), v, err)
			}
		}
	}
	if got := etcdPrefixVersions(t, lifePrefix(e)); got[group+"/v1"] != 2*perVersion || len(got) != 1 {
		t.Fatalf("etcd holds %v, want all %d at v1", got, 2*perVersion)
	}

	// Version N+1: v2 the storage version, v1alpha1 gone.
	crdforgeIn(t, dir, "new-version", "v2", "--storage")
	addSpecField(t, dir, "v2", "TimeZone string `json:\"timeZone,omitempty\"`")
	if err := os.RemoveAll(filepath.Join(dir, "api", "v1alpha1")); err != nil {
		t.Fatal(err)
	}
	crdforgeIn(t, dir, "generate", "./...")
	binN1 := buildWebhook(t, dir, "webhook-n1")
	docsN1 := renderChart(t, h, dir, release, ns)
	applyRendered(t, docsN1, lb.addr())
	if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1", "v2"}) {
		t.Fatalf("storedVersions after the upgrade's CRD %v, want [v1 v2]", sv)
	}
	// N's replicas, the Service's only endpoints, do not convert v2: the
	// migration waits, and says so.
	if err := PollFor(ctx, time.Minute, func() error {
		s := migrationStatus(t, crdName)
		if s.Phase != "Waiting" || !strings.Contains(s.Message, "webhook-0") {
			return fmt.Errorf("status %+v, want Waiting on webhook-0", s)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}

	// The rolling update: N+1's replicas start and become the endpoints,
	// then N's stop.
	args = chartReplicaArgs(t, docsN1, ns, migratorWait)
	replicas := []*Webhook{startReplica(t, binN1, "webhook-2", args, logs), startReplica(t, binN1, "webhook-3", args, logs)}
	// As in a rolling update: N+1's pods ready beside N's (the migration
	// still waits on N's), then N's stop, closing their connections, and
	// leave the endpoints.
	setEndpoints(t, ns, service, "webhook-0", "webhook-1", "webhook-2", "webhook-3")
	lb.set(replicas...)
	for _, w := range old {
		if err := w.Stop(); err != nil {
			t.Error(err)
		}
	}
	if migrator {
		// Only now: its controllers read every resource at the storage
		// version, which N's replicas, and the API server's connections to
		// them, do not convert to. (In a cluster such reads fail until
		// N+1's pods serve, as every client's at v2 would.)
		startControllerManager(t)
	}
	setEndpoints(t, ns, service, "webhook-2", "webhook-3")
	nudged := func() {}
	if migrator {
		nudged = nudgeMigrator(t, group, func(ctx context.Context) error {
			_, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace(ns).Patch(ctx, "v1-0", types.MergePatchType,
				[]byte(`{"metadata":{"annotations":{"e2e.crdforge.io/nudge":"migrator"}}}`), metav1.PatchOptions{})
			return err
		})
	}

	if err := PollFor(ctx, 3*time.Minute, func() error {
		// The report follows storedVersions' trim: wait for both.
		if sv, s := storedVersions(t, crdName), migrationStatus(t, crdName); !slices.Equal(sv, []string{"v2"}) || s.Phase == "Running" {
			return fmt.Errorf("storedVersions %v; migration %+v", sv, s)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	nudged()
	if got := etcdPrefixVersions(t, lifePrefix(e)); got[group+"/v2"] != 2*perVersion || len(got) != 1 {
		t.Errorf("etcd holds %v after the upgrade, want all %d at v2", got, 2*perVersion)
	}
	svms, err := migrationsOf(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	byMigrator := strings.Contains(migrationStatus(t, crdName).Message, "by the cluster's migrator")
	// 1.31's alpha migrator (storagemigration.k8s.io/v1alpha1) fails this
	// migration: "migration encountered unhandled error", its report of an
	// apply patch the API server refused (the objects hold managedFields of
	// the removed version, which the patch's field manager must convert).
	// auto then rewrites them from the replica, and says so (a
	// StorageMigrationFallback event, checked below).
	tookOver := gatedStorageMigration(cluster.Release) == "v1alpha1" &&
		strings.Contains(migrationStatus(t, crdName).Message, "after the cluster's migration failed")
	if migrated := byMigrator || tookOver; migrator && (len(svms) != 1 || !migrated) {
		t.Errorf("with the cluster's migrator running: %d StorageVersionMigrations of %s, status %+v; want it to have migrated", len(svms), group, migrationStatus(t, crdName))
	}
	if !migrator && (len(svms) != 0 || byMigrator) {
		t.Errorf("with no migrator running: %d StorageVersionMigrations of %s left, status %+v; want the webhook's rewrites", len(svms), group, migrationStatus(t, crdName))
	}
	for _, obj := range listAll(t, e, "v2", ns) {
		for _, m := range obj.GetManagedFields() {
			if m.APIVersion == group+"/v1alpha1" {
				t.Errorf("%s: a managedFields entry of %s (%s) names the removed version", obj.GetName(), m.Manager, m.APIVersion)
			}
		}
	}
	if s := migrationStatus(t, crdName); s.Phase != "Succeeded" || s.Failed != 0 || s.Rewritten != 2*perVersion {
		t.Errorf("the migration's status %+v, want Succeeded, %d rewritten, none failed", s, 2*perVersion)
	}
	if b, err := os.ReadFile(logs.Name()); err != nil || bytes.Contains(b, []byte(`"msg":"conversion failed"`)) {
		t.Errorf("a replica failed a conversion during the upgrade (%v)", err)
	}
	var reasons []string
	for _, ev := range migrationEvents(t, ns, crdName) {
		reasons = append(reasons, ev.reason)
		if ev.reason == "StorageMigrationFailed" {
			t.Errorf("a failed migration: %s", ev.message)
		}
	}
	if tookOver != slices.Contains(reasons, "StorageMigrationFallback") {
		t.Errorf("the status says the replica took over from the cluster's migration: %v; the events %v", tookOver, reasons)
	}
	for _, want := range []string{"StorageMigrationWaiting", "StorageMigrationStarted", "StorageMigrationSucceeded"} {
		if !slices.Contains(reasons, want) {
			t.Errorf("the Events about %s in %s: %v, no %s", crdName, ns, reasons, want)
		}
	}
}

// startControllerManager runs kube-controller-manager, and with it the
// storage version migrator, until the test ends.
func startControllerManager(t *testing.T) {
	t.Helper()
	cm, err := cluster.StartControllerManager(controllerManager(t), logFile(t, "kube-controller-manager"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cm.Stop(); err != nil {
			t.Error(err)
		}
	})
}

// addSpecField gives version's CronTabSpec a field (an optional string,
// field being its Go declaration): its schema then differs from the other
// versions', so the kind converts through the webhook.
func addSpecField(t *testing.T, dir, version, field string) {
	t.Helper()
	types := filepath.Join(dir, "api", version, "crontab_types.go")
	b, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	anchor := []byte("type CronTabSpec struct {\n")
	if !bytes.Contains(b, anchor) {
		t.Fatalf("%s has no CronTabSpec", types)
	}
	b = bytes.Replace(b, anchor, append(anchor, []byte("\t// +optional\n\t"+field+"\n\n")...), 1)
	if err := os.WriteFile(types, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildWebhook builds the project's generated webhook as name.
func buildWebhook(t *testing.T, dir, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	if err := GoBuild(context.Background(), dir, bin, "./cmd/webhook"); err != nil {
		t.Fatal(err)
	}
	return bin
}

// renderChart is the project's chart rendered by helm template with
// managed certificates and storage migration on, cert-manager off.
func renderChart(t *testing.T, h *helmCLI, dir, release, ns string) []map[string]any {
	t.Helper()
	out := h.run("template", release, chartIn(t, dir), "-n", ns, "--set", "certManager.enabled=false",
		"--set", "managedCerts.enabled=true", "--set", "migrateStorage.enabled=true")
	path := filepath.Join(t.TempDir(), "rendered.yaml")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return yamlDocs(t, path)
}

// applyRendered applies docs with kubectl apply --server-side, as a GitOps
// tool would, the CRD's conversion pointed at the proxy in front of the
// replicas (the test's API server cannot reach a Service) and with no
// caBundle, which the replicas own.
func applyRendered(t *testing.T, docs []map[string]any, addr string) {
	t.Helper()
	items := make([]any, 0, len(docs))
	for _, d := range docs {
		u := &unstructured.Unstructured{Object: d}
		if u.GetKind() == "CustomResourceDefinition" {
			u = u.DeepCopy()
			if _, err := PointAtWebhook(u, addr, nil); err != nil {
				t.Fatal(err)
			}
			unstructured.RemoveNestedField(u.Object, "spec", "conversion", "webhook", "clientConfig", "caBundle")
		}
		items = append(items, u.Object)
	}
	list, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err := cluster.Kubectl(context.Background(), list, "apply", "--server-side", "--field-manager=gitops", "-f", "-")
	if err != nil {
		t.Fatalf("kubectl apply: %v\n%s%s", err, out, stderr)
	}
	for _, d := range docs {
		if u := (&unstructured.Unstructured{Object: d}); u.GetKind() == "CustomResourceDefinition" {
			if err := cluster.WaitEstablished(context.Background(), u.GetName()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// chartReplicaArgs are the rendered Deployment's --manage-certs and
// --migrate-storage flags, and those a replica running on the host needs in
// their stead of a pod's: a kubeconfig that acts as the Deployment's
// service account (so the chart's RBAC, and nothing more, is what the
// replicas may do), the namespace, the serving certificate's host, and
// short sync periods and waits.
func chartReplicaArgs(t *testing.T, docs []map[string]any, ns, migratorWait string) []string {
	t.Helper()
	var args []string
	kubeconfig := ""
	for _, d := range docs {
		u := &unstructured.Unstructured{Object: d}
		if u.GetKind() != "Deployment" {
			continue
		}
		sa, _, _ := unstructured.NestedString(u.Object, "spec", "template", "spec", "serviceAccountName")
		if sa == "" {
			t.Fatal("the rendered Deployment names no service account")
		}
		kubeconfig = impersonating(t, "system:serviceaccount:"+ns+":"+sa)
		containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
		for _, c := range containers {
			list, _ := c.(map[string]any)["args"].([]any)
			for _, a := range list {
				s, _ := a.(string)
				if strings.HasPrefix(s, "--manage-certs") || strings.HasPrefix(s, "--certs-") || strings.HasPrefix(s, "--migrate-") {
					args = append(args, s)
				}
			}
		}
	}
	for _, want := range []string{"--manage-certs", "--migrate-storage"} {
		if !slices.Contains(args, want) {
			t.Fatalf("the rendered Deployment's flags %v lack %s", args, want)
		}
	}
	return append(args, "--kubeconfig", kubeconfig, "--certs-namespace", ns, "--migrate-namespace", ns,
		"--certs-hosts", "127.0.0.1", "--certs-sync-period", "1s", "--migrate-sync-period", "1s", "--migrate-retry-backoff", "2s",
		"--migrate-migrator-wait", migratorWait)
}

// flagValue is the value of the --name=value flag among args.
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	t.Fatalf("no %s among %v", name, args)
	return ""
}

// startReplica runs bin as the replica name (the pod its endpoint names),
// stopped when the test ends.
func startReplica(t *testing.T, bin, name string, args []string, logs *os.File) *Webhook {
	t.Helper()
	w, err := StartWebhook(bin, filepath.Join(t.TempDir(), "certs"), logs, append(args, "--replica-name", name)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := w.Stop(); err != nil {
			t.Error(err)
		}
	})
	return w
}

// setEndpoints makes the Service's one EndpointSlice list pods, ready, as
// the endpoint controller would for the replicas' pods (no controller runs
// here).
func setEndpoints(t *testing.T, ns, service string, pods ...string) {
	t.Helper()
	var eps []any
	for i, p := range pods {
		eps = append(eps, map[string]any{"addresses": []any{fmt.Sprintf("10.0.0.%d", i+1)},
			"conditions": map[string]any{"ready": true}, "targetRef": map[string]any{"kind": "Pod", "namespace": ns, "name": p}})
	}
	slice := map[string]any{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
		"metadata":    map[string]any{"name": service + "-e2e", "namespace": ns, "labels": map[string]any{"kubernetes.io/service-name": service}},
		"addressType": "IPv4", "endpoints": eps, "ports": []any{map[string]any{"name": "webhook", "port": int64(9443), "protocol": "TCP"}}}
	b, err := json.Marshal(slice)
	if err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := cluster.Kubectl(context.Background(), b, "apply", "--server-side", "--field-manager=endpointslice-e2e", "-f", "-"); err != nil {
		t.Fatalf("kubectl apply the EndpointSlice: %v\n%s%s", err, out, stderr)
	}
}

// migrationState is the CRD's crdforge.io/storage-migration annotation,
// the webhook's report.
type migrationState struct {
	Phase, Message    string
	Rewritten, Failed int
}

func migrationStatus(t *testing.T, crd string) migrationState {
	t.Helper()
	var s migrationState
	if a := getCRD(t, crd).GetAnnotations()["crdforge.io/storage-migration"]; a != "" {
		if err := json.Unmarshal([]byte(a), &s); err != nil {
			t.Fatalf("the annotation crdforge.io/storage-migration %q: %v", a, err)
		}
	}
	return s
}

type event struct{ reason, message string }

// migrationEvents are the Events about the CRD crd in ns.
func migrationEvents(t *testing.T, ns, crd string) []event {
	t.Helper()
	list, err := cluster.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "events"}).Namespace(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []event
	for _, ev := range list.Items {
		if name, _, _ := unstructured.NestedString(ev.Object, "involvedObject", "name"); name == crd {
			reason, _, _ := unstructured.NestedString(ev.Object, "reason")
			msg, _, _ := unstructured.NestedString(ev.Object, "message")
			out = append(out, event{reason, msg})
		}
	}
	return out
}

// set makes the proxy hand connections to ws alone.
func (r *roundRobin) set(ws ...*Webhook) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.backends = r.backends[:0]
	for _, w := range ws {
		r.backends = append(r.backends, w.Addr)
	}
}
