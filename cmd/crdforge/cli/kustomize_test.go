package cli

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"
)

// TestKustomizeLayouts renders both webhook layouts with `kubectl
// kustomize` (kubectl's built-in kustomize: no other binary), as `kubectl
// apply -k` would apply them: config/webhook with cert-manager, and
// config/webhook-without-cert-manager after crdforge certs. Both run the
// image --webhook-image names.
func TestKustomizeLayouts(t *testing.T) {
	kubectl, _ := filepath.Abs("../../../bin/k8s/kubectl")
	if _, err := os.Stat(kubectl); err != nil {
		t.Skipf("no kubectl in bin/k8s (make envtest-assets builds it): %v", err)
	}
	dir := scratchCase(t, "database")
	const image = "registry.example.com/team/database-webhook:v1.2.3"
	if code, _, stderr := run(t, dir, "generate", "--webhook-image="+image, "./..."); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	const crdName = "databases.databases.example.com"

	withCM := render(t, kubectl, filepath.Join(dir, "config/webhook"))
	kinds := kindsOf(withCM)
	// cert-manager's chain: a self-signed Issuer and the CA Certificate it
	// signs, a CA Issuer of that CA and the serving Certificate it signs.
	for k, want := range map[string]int{"Namespace": 1, "Service": 1, "Deployment": 1, "PodDisruptionBudget": 1, "Issuer": 2, "Certificate": 2, "CustomResourceDefinition": 1} {
		if kinds[k] != want {
			t.Errorf("config/webhook: %d %s, want %d (kinds: %v)", kinds[k], k, want, kinds)
		}
	}
	if a := annotation(find(withCM, "CustomResourceDefinition", crdName), "cert-manager.io/inject-ca-from"); a == "" {
		t.Errorf("config/webhook: the CRD lacks cert-manager's inject-ca-from annotation")
	}
	if img := deploymentImage(withCM); img != image {
		t.Errorf("config/webhook: the Deployment runs %q, want %q", img, image)
	}

	// Without cert-manager, before crdforge certs: kustomize says what is
	// missing. After it, the overlay renders.
	if _, err := exec.Command(kubectl, "kustomize", filepath.Join(dir, "config/webhook-without-cert-manager")).Output(); err == nil {
		t.Errorf("without-cert-manager rendered before crdforge certs wrote its certificates")
	}
	if code, _, stderr := run(t, dir, "certs", "--host", "127.0.0.1", "./..."); code != ExitOK {
		t.Fatalf("certs: exit %d\n%s", code, stderr)
	}
	without := render(t, kubectl, filepath.Join(dir, "config/webhook-without-cert-manager"))
	kinds = kindsOf(without)
	for k, want := range map[string]int{"Namespace": 1, "Service": 1, "Deployment": 1, "PodDisruptionBudget": 1, "Secret": 1, "CustomResourceDefinition": 1, "Issuer": 0, "Certificate": 0} {
		if kinds[k] != want {
			t.Errorf("without-cert-manager: %d %s, want %d (kinds: %v)", kinds[k], k, want, kinds)
		}
	}
	crd := find(without, "CustomResourceDefinition", crdName)
	if a := annotation(crd, "cert-manager.io/inject-ca-from"); a != "" {
		t.Errorf("without-cert-manager: the CRD still carries inject-ca-from %q", a)
	}
	ca, err := os.ReadFile(filepath.Join(dir, "config/webhook/certs/ca.crt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := dig(crd, "spec", "conversion", "webhook", "clientConfig", "caBundle"); got != base64.StdEncoding.EncodeToString(ca) {
		t.Errorf("without-cert-manager: the CRD's caBundle is %.40q..., want crdforge certs' CA", got)
	}
	if img := deploymentImage(without); img != image {
		t.Errorf("without-cert-manager: the Deployment runs %q, want %q", img, image)
	}
}

func render(t *testing.T, kubectl, dir string) []map[any]any {
	t.Helper()
	out, err := exec.Command(kubectl, "kustomize", dir).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("kubectl kustomize %s: %v\n%s", dir, err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var docs []map[any]any
	dec := yaml.NewDecoder(bytes.NewReader(out))
	for {
		var d map[any]any
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
	return docs
}

func kindsOf(docs []map[any]any) map[string]int {
	out := map[string]int{}
	for _, d := range docs {
		out[dig(d, "kind")]++
	}
	return out
}

func find(docs []map[any]any, kind, name string) map[any]any {
	for _, d := range docs {
		if dig(d, "kind") == kind && dig(d, "metadata", "name") == name {
			return d
		}
	}
	return nil
}

func annotation(obj map[any]any, key string) string {
	return dig(obj, "metadata", "annotations", key)
}

func deploymentImage(docs []map[any]any) string {
	for _, d := range docs {
		if dig(d, "kind") != "Deployment" {
			continue
		}
		spec, _ := digAny(d, "spec", "template", "spec").(map[any]any)
		containers, _ := spec["containers"].([]any)
		if len(containers) > 0 {
			c, _ := containers[0].(map[any]any)
			s, _ := c["image"].(string)
			return s
		}
	}
	return ""
}

func dig(obj map[any]any, path ...string) string {
	s, _ := digAny(obj, path...).(string)
	return strings.TrimSpace(s)
}

func digAny(obj map[any]any, path ...string) any {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[any]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}
