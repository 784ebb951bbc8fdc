package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v2"

	"github.com/crdforge/crdforge/internal/output"
)

// TestKubebuilderProject runs crdforge in a project laid out as kubebuilder
// scaffolds it, after controller-gen ran: crdforge takes over the CRD and
// the deepcopy file controller-gen wrote, leaves kubebuilder's scaffolds
// byte for byte, writes no deployment of its own, says so once at the
// PROJECT file, and points the CRD's conversion at the manager's Service.
func TestKubebuilderProject(t *testing.T) {
	dir := scratchCase(t, "kubebuilder")
	const crd = "config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml"
	if old, _ := os.ReadFile(filepath.Join(dir, crd)); !output.IsControllerGenCRD(old) || output.IsGenerated(old) {
		t.Fatalf("the fixture's %s is not a CRD as controller-gen writes it", crd)
	}
	scaffolds := []string{
		"PROJECT",
		"config/crd/kustomization.yaml",
		"config/crd/patches/webhook_in_cronjobs.yaml",
		"config/webhook/kustomization.yaml",
		"config/webhook/kustomizeconfig.yaml",
		"config/webhook/service.yaml",
	}
	before := map[string][]byte{}
	for _, f := range scaffolds {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		before[f] = b
	}

	code, stdout, stderr := run(t, dir, "generate", "./...")
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, want 0 and nothing\n%s", code, stdout, stderr)
	}
	for _, f := range []string{crd, "api/v1/zz_generated.deepcopy.go"} {
		if !strings.Contains(stderr, "wrote "+f+"\n") {
			t.Errorf("controller-gen's %s was not taken over:\n%s", f, stderr)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, f)); !output.IsOurs(b) {
			t.Errorf("%s does not carry crdforge's header after the run", f)
		}
	}
	if n := strings.Count(stderr, "warning:"); n != 1 || !strings.Contains(stderr, "PROJECT:1:1: warning: kubebuilder project project") {
		t.Errorf("want one warning, at PROJECT:1:1; got %d:\n%s", n, stderr)
	}
	for _, f := range scaffolds {
		if now, err := os.ReadFile(filepath.Join(dir, f)); err != nil || !bytes.Equal(now, before[f]) {
			t.Errorf("kubebuilder's %s changed (err %v)", f, err)
		}
	}
	for _, f := range []string{"config/webhook/deployment.yaml", "config/webhook/certificate.yaml", "config/crd/bases/kustomization.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("crdforge wrote %s into kubebuilder's tree", f)
		}
	}

	var got struct {
		Metadata struct {
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"metadata"`
		Spec struct {
			Conversion struct {
				Strategy string `yaml:"strategy"`
				Webhook  struct {
					ClientConfig struct {
						Service struct {
							Name, Namespace, Path string
							Port                  int32
						} `yaml:"service"`
					} `yaml:"clientConfig"`
				} `yaml:"webhook"`
			} `yaml:"conversion"`
		} `yaml:"spec"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, crd))
	if err := yaml.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	svc := got.Spec.Conversion.Webhook.ClientConfig.Service
	if got.Spec.Conversion.Strategy != "Webhook" || svc.Name != "webhook-service" || svc.Namespace != "system" || svc.Path != "/convert" || svc.Port != 443 {
		t.Errorf("conversion = %+v, want Webhook through system/webhook-service:443/convert, the manager's Service as kubebuilder names it", got.Spec.Conversion)
	}
	if ca, ok := got.Metadata.Annotations["cert-manager.io/inject-ca-from"]; ok {
		t.Errorf("inject-ca-from = %q: kubebuilder's kustomize replacements inject the CA in a kubebuilder project", ca)
	}

	// A second run has nothing to do, and a full run deletes none of
	// kubebuilder's files.
	if code, stdout, stderr := run(t, dir, "generate", "--verify", "./..."); code != ExitOK || stdout != "" {
		t.Errorf("--verify after generate: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// A +crdforge:webhook marker still names another Service.
	gv := filepath.Join(dir, "api/v1/groupversion_info.go")
	src, _ := os.ReadFile(gv)
	writeFile(t, gv, bytes.Replace(src, []byte("\npackage v1"), []byte("\n// +crdforge:webhook:serviceName=cron-conversion,namespace=cron\npackage v1"), 1))
	if code, _, stderr := run(t, dir, "generate", "--only", "crd", "./..."); code != ExitOK {
		t.Fatalf("generate with a webhook marker: exit %d\n%s", code, stderr)
	}
	b, _ = os.ReadFile(filepath.Join(dir, crd))
	if !bytes.Contains(b, []byte("name: cron-conversion\n          namespace: cron\n")) {
		t.Errorf("the marker's Service is not the CRD's:\n%s", b)
	}
}
