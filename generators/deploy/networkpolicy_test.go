package deploy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The NetworkPolicy is opt-in: config/webhook renders none, and a
// kustomization beside it that adds the network-policy component renders
// one that selects the Deployment's pods in their namespace and admits the
// container's webhook port from anywhere (the API server is no pod), its
// metrics port from the namespaces labelled metrics=enabled, and no other
// port.
func TestNetworkPolicyComponent(t *testing.T) {
	m, crds := load(t, "../../examples/crontab")
	root := t.TempDir()
	writeTree(t, root, crds, generate(t, byDefault, m))
	for _, o := range kustomize(t, filepath.Join(root, "config/webhook")) {
		if o.str("kind") == "NetworkPolicy" {
			t.Errorf("config/webhook renders NetworkPolicy %s: the component is opt-in", o.id())
		}
	}
	mine := filepath.Join(root, "config", "mine")
	if err := os.MkdirAll(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	overlay := "resources:\n- ../webhook\ncomponents:\n- ../webhook/network-policy\n"
	if err := os.WriteFile(filepath.Join(mine, "kustomization.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	objs := kustomize(t, mine)
	d, np := one(t, objs, "Deployment"), one(t, objs, "NetworkPolicy")
	if ns := np.str("metadata", "namespace"); ns != d.str("metadata", "namespace") {
		t.Errorf("NetworkPolicy in namespace %q, the Deployment in %q", ns, d.str("metadata", "namespace"))
	}
	podLabels := d.get("spec", "template", "metadata", "labels").(map[string]any)
	for k, v := range np.get("spec", "podSelector", "matchLabels").(map[string]any) {
		if podLabels[k] != v {
			t.Errorf("the NetworkPolicy selects %s=%v, which the webhook's pods do not carry (%v)", k, v, podLabels)
		}
	}
	ports := containerPorts(obj(d.get("spec", "template", "spec", "containers", 0).(map[string]any)))
	want := []string{
		fmt.Sprintf("from anywhere to %v", ports["webhook"]),
		fmt.Sprintf("from namespaces map[matchLabels:map[metrics:enabled]] to %v", ports["metrics"]),
	}
	rules := np.get("spec", "ingress").([]any)
	if len(rules) != len(want) {
		t.Fatalf("%d ingress rules, want %d: %v", len(rules), len(want), rules)
	}
	for i, r := range rules {
		if got := describeRule(obj(r.(map[string]any))); got != want[i] {
			t.Errorf("ingress rule %d admits %s, want %s", i, got, want[i])
		}
	}
	if types := np.get("spec", "policyTypes"); fmt.Sprint(types) != "[Ingress]" {
		t.Errorf("policyTypes %v, want [Ingress]", types)
	}
}

// containerPorts are container c's ports by name.
func containerPorts(c obj) map[string]any {
	out := map[string]any{}
	for _, p := range c.get("ports").([]any) {
		p := obj(p.(map[string]any))
		out[p.str("name")] = p.get("containerPort")
	}
	return out
}

// describeRule says whom a NetworkPolicy's ingress rule admits to which
// port: one peer and one port each, as the generated rules have.
func describeRule(r obj) string {
	from := "anywhere"
	if peers, _ := r.get("from").([]any); len(peers) > 0 {
		from = fmt.Sprintf("namespaces %v", obj(peers[0].(map[string]any)).get("namespaceSelector"))
		if len(peers) > 1 || len(peers[0].(map[string]any)) > 1 {
			from = fmt.Sprintf("peers %v", peers)
		}
	}
	ports := r.get("ports").([]any)
	if len(ports) != 1 || r.str("ports", 0, "protocol") != "TCP" {
		return fmt.Sprintf("from %s to ports %v", from, ports)
	}
	return fmt.Sprintf("from %s to %v", from, r.get("ports", 0, "port"))
}
