package automigrate_test

import (
	"flag"
	"io"
	"testing"

	"github.com/crdforge/crdforge/webhook"
	"github.com/crdforge/crdforge/webhook/automigrate"
	"github.com/crdforge/crdforge/webhook/certmanage"
)

// Flags is what webhook.Options.MigrateStorage takes, off unless
// --migrate-storage is given, and it binds beside certmanage's flags, which
// define --kubeconfig first, sharing that one.
func TestFlagsAreAStorageMigratorOffByDefault(t *testing.T) {
	var _ webhook.StorageMigrator = (*automigrate.Flags)(nil)
	for _, c := range []struct {
		args      []string
		withCerts bool
		want      bool
	}{{nil, false, false}, {[]string{"--migrate-storage"}, false, true}, {[]string{"--migrate-storage", "--kubeconfig=k"}, true, true}} {
		fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if c.withCerts {
			certmanage.BindFlags(fs)
		}
		f := automigrate.BindFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if f.Enabled() != c.want {
			t.Errorf("%v: Enabled() = %v, want %v", c.args, f.Enabled(), c.want)
		}
	}
}
