package helm_test

import (
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/crdforge/crdforge/generators/pipeline"
)

// With migrateStorage.enabled, and cert-manager keeping the certificates,
// helm template renders the webhook migrating storage: --migrate-storage
// naming the state (names.migrateState), the Service and the CRD; POD_NAME
// for its record; its own service account with a token; its Lease and
// ConfigMap; RBAC of its CRD by name and its objects.
func TestChartMigrateStorage(t *testing.T) {
	bin := helmBin(t)
	chart := writeChart(t, pipeline.Config{Dir: "../../examples/crontab", Only: []string{"helm"}, WebhookManageCerts: true, WebhookMigrateStorage: true})
	out, err := helmTemplate(t, bin, chart, "--set", "migrateStorage.enabled=true", "--set", "certManager.enabled=true", "--set", "names.migrateState=hook-migrate")
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, out)
	}
	objs := rendered(t, out)
	d, _ := objs["Deployment/crontab-webhook"].(*appsv1.Deployment)
	if d == nil {
		t.Fatalf("no Deployment among %v", keys(objs))
	}
	pod := d.Spec.Template.Spec
	c := pod.Containers[0]
	for _, want := range []string{"--migrate-storage", "--migrate-state=hook-migrate", "--migrate-service=crontab-webhook-service", "--migrate-crds=crontabs.example.com"} {
		if !slices.Contains(c.Args, want) {
			t.Errorf("the webhook's args %v lack %s", c.Args, want)
		}
	}
	if slices.Contains(c.Args, "--manage-certs") {
		t.Errorf("managedCerts is off, yet the args %v hold --manage-certs", c.Args)
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool {
		return e.Name == "POD_NAME" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.name"
	}) {
		t.Errorf("no POD_NAME from metadata.name in %+v", c.Env)
	}
	if pod.ServiceAccountName != "crontab-webhook" || pod.AutomountServiceAccountToken == nil || !*pod.AutomountServiceAccountToken {
		t.Errorf("the pod runs as %q with token %v, want crontab-webhook's, mounted", pod.ServiceAccountName, pod.AutomountServiceAccountToken)
	}
	for _, k := range []string{"Lease/hook-migrate", "ConfigMap/hook-migrate", "ServiceAccount/crontab-webhook", "RoleBinding/crontab-webhook-migrate",
		"ClusterRoleBinding/crontab-system-crontab-webhook-migrate"} {
		if _, ok := objs[k]; !ok {
			t.Errorf("no %s among %v", k, keys(objs))
		}
	}
	cluster, _ := objs["ClusterRole/crontab-system-crontab-webhook-migrate"].(*rbacv1.ClusterRole)
	if cluster == nil {
		t.Fatalf("no ClusterRole among %v", keys(objs))
	}
	var crdRule, objectRule bool
	for _, r := range cluster.Rules {
		crdRule = crdRule || (slices.Equal(r.Resources, []string{"customresourcedefinitions/status"}) && slices.Equal(r.ResourceNames, []string{"crontabs.example.com"}))
		objectRule = objectRule || (slices.Equal(r.APIGroups, []string{"example.com"}) && slices.Equal(r.Resources, []string{"crontabs"}) && slices.Contains(r.Verbs, "update"))
	}
	if !crdRule || !objectRule {
		t.Errorf("the ClusterRole grants %+v, want the CRD's status by name and its objects' update", cluster.Rules)
	}
}
