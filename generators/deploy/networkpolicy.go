package deploy

import "path/filepath"

// networkPolicyDir is the kustomize component, below the webhook's
// directory, that restricts who reaches the webhook's pods. It is opt-in:
// the webhook's kustomization does not include it, since a NetworkPolicy
// that selects no scraper the cluster has would cut its metrics off; a
// kustomization of the user's adds it (docs/webhook.md).
const networkPolicyDir = "network-policy"

// MetricsNamespaceSelector selects the namespaces whose pods the
// NetworkPolicy lets scrape the webhook's metrics, as YAML at no
// indentation: those labelled metrics: enabled, the label kubebuilder's
// network policies read, so that one label on a monitoring namespace serves
// both. The kustomize component prints it; the Helm chart falls back to it
// where networkPolicy.metricsNamespaceSelector is unset.
const MetricsNamespaceSelector = `matchLabels:
  metrics: enabled
`

// networkPolicyFiles are the component's files: its kustomization, then
// the NetworkPolicy it adds.
func (g Generator) networkPolicyFiles() (kustomization, policy string) {
	dir := filepath.Join(g.Dir, networkPolicyDir)
	return filepath.Join(dir, "kustomization.yaml"), filepath.Join(dir, "networkpolicy.yaml")
}
