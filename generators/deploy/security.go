package deploy

// The webhook pod's and its container's securityContext, as YAML at no
// indentation: the Pod Security Standard "restricted" holds the pod to them
// (a test evaluates every generated pod spec with pod-security-admission).
// The kustomization's Deployment prints them; the Helm chart's values.yaml
// starts with them as podSecurityContext and securityContext, and its
// templates fall back to them where a values.yaml lacks the key. One copy,
// so that the two ways of deploying cannot drift apart.
const (
	PodSecurityContext = `runAsNonRoot: true
runAsUser: 65532
seccompProfile:
  type: RuntimeDefault
`
	ContainerSecurityContext = `readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop:
  - ALL
`
)
