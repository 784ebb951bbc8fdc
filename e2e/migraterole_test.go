package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"
)

var (
	clusterRoles        = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	clusterRoleBindings = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}
	serviceAccounts     = schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}
	accessReviews       = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "subjectaccessreviews"}
)

// migrateIdentity is a ServiceAccount bound to the example's generated
// migrate ClusterRole and nothing else, and a kubeconfig that acts as it
// (the harness's admin, impersonating it).
type migrateIdentity struct {
	kubeconfig string
	ns, sa     string
	role       *unstructured.Unstructured // as generated
}

// setUpMigrateIdentity installs e's config/webhook/migrate-role.yaml, binds
// it to a new ServiceAccount, and removes them when the test ends.
func setUpMigrateIdentity(t *testing.T, e *Example) *migrateIdentity {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join(e.Dir, "config", "webhook", "migrate-role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	role := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &role.Object); err != nil {
		t.Fatal(err)
	}
	id := &migrateIdentity{ns: "migrate-rbac", sa: "crdforge-migrate", role: role}
	createNamespace(t, id.ns)
	sa := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": id.sa}}}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
		"metadata": map[string]any{"name": role.GetName()},
		"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role.GetName()},
		"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": id.sa, "namespace": id.ns}},
	}}
	for _, c := range []struct {
		gvr schema.GroupVersionResource
		ns  string
		obj *unstructured.Unstructured
	}{{serviceAccounts, id.ns, sa}, {clusterRoles, "", role.DeepCopy()}, {clusterRoleBindings, "", binding}} {
		if _, err := cluster.Dynamic.Resource(c.gvr).Namespace(c.ns).Create(ctx, c.obj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := cluster.Dynamic.Resource(c.gvr).Namespace(c.ns).Delete(ctx, c.obj.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s %s: %v", c.gvr.Resource, c.obj.GetName(), err)
			}
		})
	}
	id.kubeconfig = impersonating(t, "system:serviceaccount:"+id.ns+":"+id.sa)
	id.without(t, "") // the role as generated, also when a previous run left it changed
	return id
}

// impersonating writes a copy of the harness's kubeconfig whose user acts
// as user.
func impersonating(t *testing.T, user string) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(cluster.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range cfg.AuthInfos {
		a.Impersonate = user
	}
	p := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// without sets the ClusterRole to the generated one less the rules whose
// first resource is resource ("": none), and waits until the authorizer
// sees the change.
func (id *migrateIdentity) without(t *testing.T, resource string) {
	t.Helper()
	ctx := context.Background()
	rules, _, _ := unstructured.NestedSlice(id.role.Object, "rules")
	var kept []any
	var removed map[string]any
	for _, r := range rules {
		m := r.(map[string]any)
		if res, _ := m["resources"].([]any); resource != "" && len(res) > 0 && res[0] == resource {
			removed = m
			continue
		}
		kept = append(kept, r)
	}
	if resource != "" && removed == nil {
		t.Fatalf("the generated role has no rule for %s", resource)
	}
	cur, err := cluster.Dynamic.Resource(clusterRoles).Get(ctx, id.role.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedSlice(cur.Object, kept, "rules"); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.Dynamic.Resource(clusterRoles).Update(ctx, cur, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The authorizer follows the role through an informer: ask it until it
	// answers as the role now says.
	probe := removed
	if probe == nil {
		probe = rules[0].(map[string]any)
	}
	if err := Poll(ctx, time1m, func() (bool, error) {
		allowed, err := id.allowed(ctx, probe)
		return allowed == (removed == nil), err
	}); err != nil {
		t.Fatalf("the authorizer did not follow the role without %q: %v", resource, err)
	}
}

// allowed asks the API server whether the ServiceAccount may do the first
// verb of rule on its first resource (and name).
func (id *migrateIdentity) allowed(ctx context.Context, rule map[string]any) (bool, error) {
	first := func(k string) string {
		l, _ := rule[k].([]any)
		if len(l) == 0 {
			return ""
		}
		return l[0].(string)
	}
	res, sub, _ := strings.Cut(first("resources"), "/")
	sar := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
		"spec": map[string]any{
			"user":   "system:serviceaccount:" + id.ns + ":" + id.sa,
			"groups": []any{"system:serviceaccounts", "system:serviceaccounts:" + id.ns, "system:authenticated"},
			"resourceAttributes": map[string]any{
				"verb": first("verbs"), "group": first("apiGroups"), "resource": res, "subresource": sub, "name": first("resourceNames"),
			},
		},
	}}
	got, err := cluster.Dynamic.Resource(accessReviews).Create(ctx, sar, metav1.CreateOptions{})
	if err != nil {
		return false, err
	}
	allowed, _, _ := unstructured.NestedBool(got.Object, "status", "allowed")
	return allowed, nil
}

// setStoredVersionsByHand sets the CRD's status.storedVersions as an admin.
func setStoredVersionsByHand(t *testing.T, name string, versions ...string) {
	t.Helper()
	ctx := context.Background()
	crd, err := cluster.Dynamic.Resource(CRDResource).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := unstructured.SetNestedStringSlice(crd.Object, versions, "status", "storedVersions"); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.Dynamic.Resource(CRDResource).UpdateStatus(ctx, crd, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if sv := storedVersions(t, name); !slices.Equal(sv, versions) {
		t.Fatalf("status.storedVersions = %v, want %v", sv, versions)
	}
}

// migrateRoleLastRules takes away, in turn, the generated role's rules a
// run needs last: the status update that trims storedVersions (put back
// to both versions by hand first), and the StorageVersionMigrations a
// cluster engine's dry run lists and creates.
func migrateRoleLastRules(t *testing.T, e *Example, id *migrateIdentity, run func(*testing.T, func(int), ...string) (int, string, string)) {
	t.Helper()
	crdName := e.CRD.GetName()
	asSA := []string{"--kubeconfig", id.kubeconfig}
	setStoredVersionsByHand(t, crdName, "v1beta1", "v1")
	id.without(t, "customresourcedefinitions/status")
	code, _, stderr := run(t, nil, asSA...)
	if code == 0 || !strings.Contains(stderr, "forbidden") {
		t.Errorf("without the status rule: exit %d, stderr %q; want a forbidden error", code, stderr)
	}
	if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1beta1", "v1"}) {
		t.Errorf("status.storedVersions = %v after a forbidden trim, want [v1beta1 v1]", sv)
	}
	id.without(t, "")
	if code, _, _ := run(t, nil, asSA...); code != 0 {
		t.Errorf("with the generated role again: exit %d", code)
	}
	if sv := storedVersions(t, crdName); !slices.Equal(sv, []string{"v1"}) {
		t.Errorf("status.storedVersions = %v, want [v1]", sv)
	}

	cluster := append([]string{"--engine", "cluster", "--dry-run"}, asSA...)
	if code, out, _ := run(t, nil, cluster...); code != 0 || !strings.Contains(out, "engine: cluster") {
		t.Errorf("cluster engine dry run with the generated role: exit %d, stdout %q; want 0 (is storagemigration.k8s.io served?)", code, out)
	}
	id.without(t, "storageversionmigrations")
	if code, _, stderr := run(t, nil, cluster...); code == 0 || !strings.Contains(stderr, "forbidden") {
		t.Errorf("cluster engine dry run without the storageversionmigrations rule: exit %d, stderr %q; want a forbidden error", code, stderr)
	}
	id.without(t, "")
}
