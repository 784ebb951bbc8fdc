package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kind whose conversion needs hand-written functions nobody has written
// stays at strategy None (testdata/nonefallback) only while nothing says
// its project converts it: a conversion webhook kubebuilder scaffolded for
// it, or +crdforge:conversion:strategy=Webhook, makes crdforge convert it
// through the webhook and ask for the functions, as conversion-gen would.
func TestStrategyFallbackOnlyWhereNothingSaysConvert(t *testing.T) {
	dir := scratchCase(t, "nonefallback")
	project := `domain: example.com
layout:
- go.kubebuilder.io/v4
projectName: parts
resources:
- group: parts
  kind: Widget
  version: v1
  webhooks:
    conversion: true
    webhookVersion: v1
`
	if err := os.WriteFile(filepath.Join(dir, "PROJECT"), []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	types := filepath.Join(dir, "api/v1/types.go")
	src, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	const gadget = "// +kubebuilder:storageversion\n\n// Gadget is a part made of sized pieces."
	if !strings.Contains(string(src), gadget) {
		t.Fatal("testdata/nonefallback changed: no Gadget")
	}
	marked := strings.Replace(string(src), gadget, "// +kubebuilder:storageversion\n// +crdforge:conversion:strategy=Webhook\n\n// Gadget is a part made of sized pieces.", 1)
	if err := os.WriteFile(types, []byte(marked), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, "generate", "--only", "crd", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, kind := range []string{"Widget", "Gadget"} {
		if strings.Contains(stderr, kind+"'s versions differ") {
			t.Errorf("%s fell back to strategy None:\n%s", kind, stderr)
		}
	}
	if !strings.Contains(stderr, "write func Convert_v1_Size_To_v1beta1_Size") {
		t.Errorf("generate does not ask for Size's conversion:\n%s", stderr)
	}
	for plural, want := range map[string]string{"widgets": "Webhook", "gadgets": "Webhook", "sprockets": "Webhook", "policies": "None"} {
		crd, err := os.ReadFile(filepath.Join(dir, "config/crd/bases/parts.example.com_"+plural+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(crd), "strategy: "+want+"\n") {
			t.Errorf("%s: want strategy %s:\n%s", plural, want, crd)
		}
	}
}
