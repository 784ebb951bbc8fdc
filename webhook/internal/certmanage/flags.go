package certmanage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/crdforge/crdforge/webhook/pki"
)

// inClusterNamespace is where a pod finds its namespace.
const inClusterNamespace = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// Flags are the webhook's --manage-certs flags, as parsed.
type Flags struct {
	enabled                    bool
	secret, namespace, service string
	crds, hosts                string
	kubeconfig                 string
	caValidity, leafValidity   time.Duration
	overlap, syncPeriod        time.Duration
	// cfg and kube are what Complete made.
	cfg  Config
	kube *rest.Config
}

// Bind defines the flags in fs.
func Bind(fs *flag.FlagSet) *Flags {
	f := &Flags{
		caValidity:   10 * 365 * 24 * time.Hour,
		leafValidity: 90 * 24 * time.Hour,
		overlap:      10 * time.Minute,
		syncPeriod:   10 * time.Second,
	}
	fs.BoolVar(&f.enabled, "manage-certs", false,
		"Keep the serving certificate without cert-manager: one replica, elected through a Lease named as --certs-secret, keeps a CA and a serving certificate in the Secret --certs-secret, renews them, and writes the CA bundle into the CRDs --certs-crds; every replica reads the Secret and serves its certificate from --cert-dir.")
	fs.StringVar(&f.secret, "certs-secret", "", "With --manage-certs: the Secret, and the Lease, in --certs-namespace.")
	fs.StringVar(&f.namespace, "certs-namespace", "", "With --manage-certs: the namespace of the Secret and the Lease; empty means the pod's.")
	fs.StringVar(&f.crds, "certs-crds", "", "With --manage-certs: the comma-separated names of the CRDs whose conversion caBundle is written, those the webhook serves.")
	fs.StringVar(&f.service, "certs-service", "", "With --manage-certs: the webhook's Service, whose DNS names in --certs-namespace the serving certificate holds.")
	fs.StringVar(&f.hosts, "certs-hosts", "", "With --manage-certs: more comma-separated DNS names or IP addresses for the serving certificate.")
	fs.StringVar(&f.kubeconfig, "kubeconfig", "", "With --manage-certs: the kubeconfig to reach the API server with; empty means the pod's service account.")
	fs.DurationVar(&f.caValidity, "ca-validity", f.caValidity, "With --manage-certs: how long a new CA is valid; it is replaced once a third is left.")
	fs.DurationVar(&f.leafValidity, "cert-validity", f.leafValidity, "With --manage-certs: how long a new serving certificate is valid; it is renewed once a third is left.")
	fs.DurationVar(&f.overlap, "ca-overlap", f.overlap, "With --manage-certs: how long a replaced CA stays in the CRDs' caBundle, beside the new one; more than --certs-sync-period and the time the API server takes to see a CRD change.")
	fs.DurationVar(&f.syncPeriod, "certs-sync-period", f.syncPeriod, "With --manage-certs: how often every replica reads the Secret, and the elected one checks the certificates.")
	return f
}

// Enabled reports whether --manage-certs is on.
func (f *Flags) Enabled() bool { return f.enabled }

// Complete checks the flags and keeps the Config and the API server's
// client configuration they make, for Run.
func (f *Flags) Complete(certDir string, log *slog.Logger) error {
	var err error
	f.cfg, f.kube, err = f.Config(certDir, log)
	return err
}

// Run keeps the certificates as Complete configured (see Run).
func (f *Flags) Run(ctx context.Context, ready func()) error {
	if f.kube == nil {
		return errors.New("--manage-certs: the flags were not completed")
	}
	return Run(ctx, f.cfg, f.kube, ready)
}

// Config checks the flags and returns the Config and the API server's
// client configuration they make, for a webhook serving from certDir.
func (f *Flags) Config(certDir string, log *slog.Logger) (Config, *rest.Config, error) {
	ns, err := f.namespaceOrPod()
	if err != nil {
		return Config{}, nil, err
	}
	cfg := Config{
		Policy: Policy{
			Hosts:      canonicalHosts(f.service, ns, f.hosts),
			CAValidity: f.caValidity, LeafValidity: f.leafValidity, Overlap: f.overlap,
			CommonName: f.secret + "." + ns + " CA",
		},
		Namespace: ns, Secret: f.secret, CRDs: splitList(f.crds),
		Identity: identity(), SyncPeriod: f.syncPeriod, CertDir: certDir, Log: log, Now: time.Now,
	}
	if err := cfg.check(); err != nil {
		return Config{}, nil, err
	}
	kube, err := clientcmd.BuildConfigFromFlags("", f.kubeconfig)
	if err != nil {
		return Config{}, nil, fmt.Errorf("--manage-certs: the API server: %w", err)
	}
	return cfg, kube, nil
}

// check reports what the Config lacks, and durations that cannot keep the
// serving certificate trusted.
func (c Config) check() error {
	var errs []error
	if c.Secret == "" {
		errs = append(errs, errors.New("--manage-certs needs --certs-secret"))
	}
	if len(c.CRDs) == 0 {
		errs = append(errs, errors.New("--manage-certs needs --certs-crds"))
	}
	if len(c.Policy.Hosts) == 0 {
		errs = append(errs, errors.New("--manage-certs needs --certs-service or --certs-hosts"))
	}
	if c.SyncPeriod <= 0 || c.Policy.LeafValidity <= 0 {
		errs = append(errs, errors.New("--certs-sync-period and --cert-validity must be positive"))
	}
	// The replaced CA must outlive the overlap, and the overlap outlast
	// the replicas' reading of the Secret.
	if c.Policy.Overlap >= c.Policy.CAValidity/3 || c.Policy.Overlap <= 2*c.SyncPeriod {
		errs = append(errs, fmt.Errorf("--ca-overlap %s must be more than twice --certs-sync-period (%s) and less than a third of --ca-validity (%s)",
			c.Policy.Overlap, c.SyncPeriod, c.Policy.CAValidity))
	}
	return errors.Join(errs...)
}

func (f *Flags) namespaceOrPod() (string, error) {
	if f.namespace != "" {
		return f.namespace, nil
	}
	b, err := os.ReadFile(inClusterNamespace)
	if err != nil {
		return "", fmt.Errorf("--manage-certs: no --certs-namespace, and not in a pod: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// canonicalHosts are the Service's DNS names, then the other hosts: DNS
// names first, then IP addresses, as a certificate lists them, so that
// Next compares them with a certificate's (hostsOf).
func canonicalHosts(service, namespace, more string) []string {
	var names, ips []string
	if service != "" {
		names = pki.ServiceDNSNames(service, namespace)
	}
	for _, h := range splitList(more) {
		if ip := net.ParseIP(h); ip != nil {
			ips = append(ips, ip.String())
		} else {
			names = append(names, h)
		}
	}
	return append(names, ips...)
}

func splitList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// identity names this replica in the Lease: its host name (a pod's name)
// and a random suffix, so that two processes on one host differ.
func identity() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return host + "_" + hex.EncodeToString(b)
}
