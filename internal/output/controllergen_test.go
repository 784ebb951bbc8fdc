package output

import (
	"strings"
	"testing"
)

// controllerGenRole is config/rbac/role.yaml as controller-gen v0.23
// writes it: a ClusterRole and a namespace's Role, keys sorted.
const controllerGenRole = `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: manager-role
  namespace: system
rules:
- apiGroups:
  - coordination.k8s.io
  resources:
  - leases
  verbs:
  - get
`

// controllerGenWebhooks is config/webhook/manifests.yaml as controller-gen
// writes it, with a number (timeoutSeconds) that must print as it was.
const controllerGenWebhooks = `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions:
  - v1
  clientConfig:
    service:
      name: webhook-service
      namespace: system
      path: /validate-batch-v1-job
  failurePolicy: Fail
  name: vjob-v1.kb.io
  rules:
  - apiGroups:
    - batch
    apiVersions:
    - v1
    operations:
    - CREATE
    resources:
    - jobs
  sideEffects: None
  timeoutSeconds: 5
`

// controller-gen writes role.yaml and manifests.yaml with no generated-file
// line: crdforge, which writes them in its place, may replace exactly what
// controller-gen prints, and never a file a person wrote or touched, even
// of the same kinds.
func TestControllerGenManifestsAreReplacedHandWrittenOnesRefused(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          bool
	}{
		{"controller-gen's role.yaml", controllerGenRole, true},
		{"controller-gen's manifests.yaml", controllerGenWebhooks, true},
		{"a comment added", strings.Replace(controllerGenRole, "rules:\n", "rules: # ours\n", 1), false},
		{"keys reordered", strings.Replace(controllerGenRole, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n", "kind: ClusterRole\napiVersion: rbac.authorization.k8s.io/v1\n", 1), false},
		{"indented lists", strings.Replace(controllerGenRole, "- apiGroups:\n  - \"\"\n", "  - apiGroups:\n    - \"\"\n", 1), false},
		{"no leading ---", strings.TrimPrefix(controllerGenRole, "---\n"), false},
		{"another kind", strings.Replace(controllerGenRole, "kind: Role\n", "kind: RoleBinding\n", 1), false},
		{"a kustomization", "---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- role.yaml\n", false},
		{"empty", "", false},
		{"kubebuilder init's placeholder", kubebuilderRole, true},
		{"kubebuilder's placeholder, edited", strings.Replace(kubebuilderRole, `"pods"`, `"pods", "secrets"`, 1), false},
	} {
		if got := MayReplace([]byte(tc.content)); got != tc.want {
			t.Errorf("%s: MayReplace = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// kubebuilderRole is the config/rbac/role.yaml kubebuilder v4.15's init
// scaffolds, for controller-gen's first make manifests to overwrite.
const kubebuilderRole = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  labels:
    app.kubernetes.io/name: kbproject
    app.kubernetes.io/managed-by: kustomize
  name: manager-role
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
`
