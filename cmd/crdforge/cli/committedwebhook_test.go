package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gadgetsCRD is testdata/nonefallback's CRD of Gadget, a kind that falls
// back to strategy None there.
const gadgetsCRD = "config/crd/bases/parts.example.com_gadgets.yaml"

// webhookStanza is the conversion of a CRD that converts through a
// webhook, as a cluster was given it before the run.
const webhookStanza = `  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service:
          name: webhook-service
          namespace: system
          path: /convert
          port: 443
      conversionReviewVersions:
      - v1
`

// convertThroughWebhook rewrites the committed CRD at p (crdforge's, with
// strategy None) to convert through a webhook, as `git checkout` of an
// older CRD would.
func convertThroughWebhook(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	const none = "  conversion:\n    strategy: None\n"
	if !strings.Contains(string(b), none) {
		t.Fatalf("%s has no strategy None:\n%s", p, b)
	}
	writeFile(t, p, []byte(strings.Replace(string(b), none, webhookStanza, 1)))
}

// The committed CRDs are inputs of every run, also of one that does not
// write them: a CRD that starts converting through a webhook makes the
// next run look again, and refuse the fallback to None, rather than answer
// "up to date" from the run before.
func TestACommittedWebhookCRDIsAnInput(t *testing.T) {
	dir := scratchCase(t, "nonefallback")
	if code, _, stderr := run(t, dir, "generate", "--only", "crd", "./..."); code != ExitOK {
		t.Fatalf("the CRDs: exit %d\n%s", code, stderr)
	}
	conversion := []string{"generate", "--only", "conversion", "./..."}
	for i := range 2 {
		if code, _, stderr := run(t, dir, conversion...); code != ExitOK {
			t.Fatalf("conversions, run %d: exit %d\n%s", i+1, code, stderr)
		}
	}
	convertThroughWebhook(t, filepath.Join(dir, gadgetsCRD))
	code, _, stderr := run(t, dir, conversion...)
	if code != ExitErrors || upToDateLine.MatchString(stderr) || !strings.Contains(stderr, "Gadget converts through a webhook, and lacks") {
		t.Errorf("after the CRD changed: exit %d, stderr:\n%s\nwant %d and the refused fallback", code, stderr, ExitErrors)
	}
}
