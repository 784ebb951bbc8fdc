// Package certmanage is the webhook's --manage-certs: one replica, elected
// through a Lease, keeps a CA and a serving certificate in a Secret, renews
// and rotates them, and writes the CA bundle into the CRDs the webhook
// serves; every replica writes the Secret's serving pair into --cert-dir.
//
// It is a package of its own, which a generated main imports only when
// crdforge generate's webhook-manage-certs setting asks for it, because it
// links client-go's REST client: a webhook whose certificates cert-manager
// or crdforge certs keeps links none of it.
//
//	opts := webhook.BindFlags(flag.CommandLine)
//	opts.ManageCerts(certmanage.BindFlags(flag.CommandLine))
//	flag.Parse()
//	os.Exit(webhook.Run(opts, kinds()...))
package certmanage

import (
	"context"
	"flag"
	"log/slog"

	"github.com/crdforge/crdforge/webhook/internal/certmanage"
)

// Flags are the --manage-certs flags, as parsed; they implement
// webhook.CertManager.
type Flags struct{ f *certmanage.Flags }

// BindFlags defines the --manage-certs flags in fs (docs/webhook.md lists
// them) and returns what they set, for webhook.Options.ManageCerts.
func BindFlags(fs *flag.FlagSet) *Flags { return &Flags{certmanage.Bind(fs)} }

// Enabled reports whether --manage-certs is on.
func (f *Flags) Enabled() bool { return f.f.Enabled() }

// Complete checks the flags, for a server reading its certificate from
// certDir and logging to log.
func (f *Flags) Complete(certDir string, log *slog.Logger) error { return f.f.Complete(certDir, log) }

// Run keeps the certificates until ctx ends, calling ready once the first
// serving pair is in the certificate directory.
func (f *Flags) Run(ctx context.Context, ready func()) error { return f.f.Run(ctx, ready) }
