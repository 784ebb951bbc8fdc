package cli

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/internal/manifestcheck"
)

// In a kubebuilder project, the chart is of the CRDs alone, named
// <project>-crds, to be installed beside kubebuilder's chart of the manager:
// helm lint --strict passes with its defaults and with every value set,
// each object decodes strictly, and the CRDs convert through the objects
// kubebuilder's chart names (<fullname>-webhook-service and
// <fullname>-serving-cert, fullname from the manager's release as
// kubebuilder's helpers compute it), in the manager's namespace.
func TestHelmChartBesideKubebuilder(t *testing.T) {
	helm := helmBinary(t)
	dir := scratchCase(t, "kubebuilder")
	if code, _, stderr := run(t, dir, "generate", "--only", "crd,deprecation,helm", "./..."); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	chart := chartDir(t, dir)
	if !strings.HasSuffix(chart, "project-crds") {
		t.Errorf("the chart is %s, want charts/project-crds", chart)
	}
	for _, tc := range []struct {
		args                           []string
		service, namespace, ca, bundle string
	}{
		{nil, "project-webhook-service", "ns", "ns/project-serving-cert", ""},
		{[]string{"--set", "manager.release=prod"}, "prod-project-webhook-service", "ns", "ns/prod-project-serving-cert", ""},
		{[]string{"--set", "manager.release=my-project", "--set", "manager.namespace=ops"}, "my-project-webhook-service", "ops", "ops/my-project-serving-cert", ""},
		{[]string{"--set", "manager.release=prod", "--set", "manager.nameOverride=op"}, "prod-op-webhook-service", "ns", "ns/prod-op-serving-cert", ""},
		{[]string{"--set", "manager.fullnameOverride=mgr", "--set", "certManager.enabled=false", "--set", "caBundle=Y2E="}, "mgr-webhook-service", "ns", "", "ca"},
	} {
		crds := crdsOf(helmObjects(t, helm, chart, tc.args...))
		if len(crds) != 1 {
			t.Fatalf("%v: %d CRDs rendered, want 1", tc.args, len(crds))
		}
		cc := crds[0].Spec.Conversion.Webhook.ClientConfig
		if cc.Service.Name != tc.service || cc.Service.Namespace != tc.namespace || crds[0].Annotations["cert-manager.io/inject-ca-from"] != tc.ca || string(cc.CABundle) != tc.bundle {
			t.Errorf("%v: converts through %s/%s, inject-ca-from %q, caBundle %q; want %s/%s, %q, %q", tc.args,
				cc.Service.Namespace, cc.Service.Name, crds[0].Annotations["cert-manager.io/inject-ca-from"], cc.CABundle,
				tc.namespace, tc.service, tc.ca, tc.bundle)
		}
	}
	if crds := crdsOf(helmObjects(t, helm, chart, "--set", "crds.enabled=false")); len(crds) != 0 {
		t.Errorf("crds.enabled=false renders %d CRDs", len(crds))
	}
}

func crdsOf(objs []manifestcheck.Object) []*apiextensionsv1.CustomResourceDefinition {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, o := range objs {
		if crd, ok := o.Typed.(*apiextensionsv1.CustomResourceDefinition); ok {
			out = append(out, crd)
		}
	}
	return out
}
