package manifestcheck

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Both checks can fail: a misplaced field, an unknown kind, and a pod
// running as root are each refused.
func TestChecksRefuse(t *testing.T) {
	for _, bad := range []string{
		"apiVersion: v1\nkind: Service\nspec:\n  replicas: 2\n",
		"apiVersion: v1\nkind: Gadget\n",
	} {
		if _, err := Decode([]byte("# header\n---\n" + bad)); err == nil {
			t.Errorf("decoded without error:\n%s", bad)
		}
	}
	objs, err := Decode([]byte("---\napiVersion: cert-manager.io/v1\nkind: Issuer\nspec: {}\n---\n# none\n"))
	if err != nil || len(objs) != 1 || objs[0].Typed != nil {
		t.Errorf("cert-manager's Issuer: %v, %v; want it untyped", objs, err)
	}
	root := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}}
	if err := Restricted(root); err == nil || !strings.Contains(err.Error(), "runAsNonRoot") {
		t.Errorf("a pod with no securityContext: %v, want a runAsNonRoot violation", err)
	}
}
