package load

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParseKubebuilderProject(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          *KubebuilderProject
	}{
		{"config version 3", "domain: x.io\nlayout:\n- go.kubebuilder.io/v4\nprojectName: project\nversion: \"3\"\n",
			&KubebuilderProject{Name: "project", Layout: []string{"go.kubebuilder.io/v4"}}},
		{"config version 2, layout as a string", "layout: go.kubebuilder.io/v3\nprojectName: old\n",
			&KubebuilderProject{Name: "old", Layout: []string{"go.kubebuilder.io/v3"}}},
		{"no layout", "projectName: project\n", nil},
		{"no projectName", "layout:\n- go.kubebuilder.io/v4\n", nil},
		{"not YAML", "layout: [\n", nil},
		{"some other tool's PROJECT", "Project X: plans and notes\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseKubebuilderProject([]byte(tc.content))
			if ok != (tc.want != nil) {
				t.Fatalf("detected = %v, want %v", ok, tc.want != nil)
			}
			if ok && (got.Name != tc.want.Name || !slices.Equal(got.Layout, tc.want.Layout)) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A kubebuilder project picks crdforge's standalone webhook by requiring its
// module; a replace alone, a comment, or another crdforge module does not.
func TestRequiresModule(t *testing.T) {
	for _, tc := range []struct {
		name, goMod string
		want        bool
	}{
		{"required", "module p\n\ngo 1.24\n\nrequire (\n\tk8s.io/apimachinery v0.34.0\n\tgithub.com/crdforge/crdforge/webhook v0.0.0-00010101000000-000000000000\n)\n\nreplace github.com/crdforge/crdforge/webhook => ../crdforge/webhook\n", true},
		{"required on one line", "module p\n\nrequire github.com/crdforge/crdforge/webhook v1.0.0\n", true},
		{"only the runtime", "module p\n\nrequire github.com/crdforge/crdforge/runtime v1.0.0\n", false},
		{"only replaced", "module p\n\nreplace github.com/crdforge/crdforge/webhook => ../w\n", false},
		{"only named in a comment", "module p\n\n// github.com/crdforge/crdforge/webhook v1.0.0\n", false},
		{"not a go.mod", "require (\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "go.mod")
			if err := os.WriteFile(p, []byte(tc.goMod), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := requiresModule(p, WebhookModule); got != tc.want {
				t.Errorf("requiresModule = %v, want %v", got, tc.want)
			}
		})
	}
	if requiresModule(filepath.Join(t.TempDir(), "go.mod"), WebhookModule) || requiresModule("", WebhookModule) {
		t.Error("a missing go.mod requires something")
	}
}

// `kubebuilder create webhook --conversion` records the kind's conversion
// webhook in PROJECT; the kind's group is its group and the domain, the
// resource's own domain first.
func TestProjectConversionWebhooks(t *testing.T) {
	const content = `domain: tutorial.kubebuilder.io
layout:
- go.kubebuilder.io/v4
projectName: project
resources:
- domain: tutorial.kubebuilder.io
  group: batch
  kind: CronJob
  version: v1
  webhooks:
    conversion: true
    webhookVersion: v1
- group: batch
  kind: CronJob
  version: v2
- group: apps
  kind: Deployment
  version: v1
  webhooks:
    defaulting: true
- domain: other.io
  group: ""
  kind: Thing
  version: v1
  webhooks:
    conversion: true
`
	p, ok := parseKubebuilderProject([]byte(content))
	if !ok {
		t.Fatal("not detected")
	}
	for _, tc := range []struct {
		group, kind string
		want        bool
	}{
		{"batch.tutorial.kubebuilder.io", "CronJob", true},
		{"batch", "CronJob", false},
		{"apps.tutorial.kubebuilder.io", "Deployment", false},
		{"other.io", "Thing", true},
	} {
		if got := p.ConversionWebhook(tc.group, tc.kind); got != tc.want {
			t.Errorf("ConversionWebhook(%q, %q) = %v, want %v", tc.group, tc.kind, got, tc.want)
		}
	}
}
