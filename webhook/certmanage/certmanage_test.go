package certmanage_test

import (
	"flag"
	"io"
	"testing"

	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/certmanage"
)

// Flags is what webhook.Options.ManageCerts takes, and it is off unless
// --manage-certs is given.
func TestFlagsAreACertManagerOffByDefault(t *testing.T) {
	var _ webhook.CertManager = (*certmanage.Flags)(nil)
	for _, c := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"--manage-certs"}, true}} {
		fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f := certmanage.BindFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if f.Enabled() != c.want {
			t.Errorf("%v: Enabled() = %v, want %v", c.args, f.Enabled(), c.want)
		}
	}
}
