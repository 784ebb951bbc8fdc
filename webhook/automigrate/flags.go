// Package automigrate is the webhook's --migrate-storage: after an upgrade
// that makes a new version the storage version, one replica, elected
// through a Lease, waits until every ready replica of the webhook's Service
// converts every version of the CRD (each replica records the versions it
// converts; checked, not assumed), then rewrites the stored objects through
// webhook/storagemigrate, the code crdforge migrate runs, and trims the
// CRD's status.storedVersions. Progress and result are Events, the CRD's
// annotation crdforge.io/storage-migration (which crdforge status reads),
// and metrics on the webhook's /metrics.
//
// It is a package of its own, which a generated main imports only when
// crdforge generate's webhook-migrate-storage setting asks for it, because
// it links client-go's REST and dynamic clients:
//
//	opts := webhook.BindFlags(flag.CommandLine)
//	opts.MigrateStorage(automigrate.BindFlags(flag.CommandLine))
//	flag.Parse()
//	os.Exit(webhook.Run(opts, kinds()...))
package automigrate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// inClusterNamespace is where a pod finds its namespace.
const inClusterNamespace = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

// PodNameEnv is the environment variable the generated Deployment sets to
// the pod's name (the downward API), which names this replica's record and
// matches the targetRef of its endpoint.
const PodNameEnv = "POD_NAME"

// The values of --migrate-engine: who rewrites the objects.
const (
	EngineAuto    = "auto"
	EngineCluster = "cluster"
	EngineClient  = "client"
)

// Flags are the --migrate-storage flags, as parsed; they implement
// webhook.StorageMigrator.
type Flags struct {
	enabled                  bool
	state, namespace         string
	crds, service, replica   string
	kubeconfig               *string
	kubeconfigFlag           *flag.Flag // --manage-certs', when it defined it first
	syncPeriod, retryBackoff time.Duration
	concurrency              int
	engine                   string
	migratorWait             time.Duration
	// cfg and kube are what Complete made.
	cfg  config
	kube *rest.Config
}

// BindFlags defines the --migrate-storage flags in fs (docs/webhook.md lists
// them) and returns what they set, for webhook.Options.MigrateStorage.
// --kubeconfig is shared with --manage-certs: defined here only when fs
// lacks it.
func BindFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{syncPeriod: 10 * time.Second, retryBackoff: time.Minute, concurrency: 4, engine: EngineAuto, migratorWait: 30 * time.Second}
	fs.BoolVar(&f.enabled, "migrate-storage", false,
		"Migrate stored objects after an upgrade: once every ready replica of --migrate-service converts every version of a CRD of --migrate-crds whose status.storedVersions hold a version other than the storage version, one replica, elected through the Lease --migrate-state, rewrites its objects at the storage version and trims status.storedVersions and the managedFields of versions no longer served.")
	fs.StringVar(&f.state, "migrate-state", "", "With --migrate-storage: the Lease electing the migrating replica, and the ConfigMap where each replica records the versions it converts, both of this name in --migrate-namespace.")
	fs.StringVar(&f.namespace, "migrate-namespace", "", "With --migrate-storage: the namespace of --migrate-state and --migrate-service, and of the Events; empty means the pod's.")
	fs.StringVar(&f.crds, "migrate-crds", "", "With --migrate-storage: the comma-separated names of the CRDs to migrate, those the webhook serves.")
	fs.StringVar(&f.service, "migrate-service", "", "With --migrate-storage: the webhook's Service; every ready endpoint of it must have recorded the CRD's versions before a migration starts.")
	fs.StringVar(&f.replica, "replica-name", "", "With --migrate-storage: this replica's name, that of the pod its endpoint names; empty means $"+PodNameEnv+", else the host name.")
	fs.DurationVar(&f.syncPeriod, "migrate-sync-period", f.syncPeriod, "With --migrate-storage: how often every replica records its versions, and the elected one checks the CRDs.")
	fs.DurationVar(&f.retryBackoff, "migrate-retry-backoff", f.retryBackoff, "With --migrate-storage: the wait before a failed migration is tried again; it doubles with each failure, up to 32 times.")
	fs.IntVar(&f.concurrency, "migrate-concurrency", f.concurrency, "With --migrate-storage: objects rewritten at once.")
	fs.StringVar(&f.engine, "migrate-engine", f.engine, "With --migrate-storage: who rewrites the objects: "+EngineCluster+" (a StorageVersionMigration, which kube-controller-manager's migrator carries out), "+EngineClient+" (this replica), or "+EngineAuto+" (the cluster's migrator where the API server serves it and one takes the migration up within --migrate-migrator-wait, else this replica, which also takes over a migration the cluster's migrator failed).")
	fs.DurationVar(&f.migratorWait, "migrate-migrator-wait", f.migratorWait, "With --migrate-storage and --migrate-engine auto or cluster: how long a StorageVersionMigration may stay untaken before no migrator is taken to run.")
	if k := fs.Lookup("kubeconfig"); k != nil {
		f.kubeconfig, f.kubeconfigFlag = new(string), k
	} else {
		f.kubeconfig = fs.String("kubeconfig", "", "The kubeconfig to reach the API server with; empty means the pod's service account.")
	}
	return f
}

// Enabled reports whether --migrate-storage is on.
func (f *Flags) Enabled() bool { return f.enabled }

// Complete checks the flags, for a webhook logging to log and exposing
// metrics through reg.
func (f *Flags) Complete(log *slog.Logger, reg prometheus.Registerer) error {
	var errs []error
	if f.state == "" {
		errs = append(errs, errors.New("--migrate-storage needs --migrate-state"))
	}
	if f.service == "" {
		errs = append(errs, errors.New("--migrate-storage needs --migrate-service"))
	}
	crds := splitList(f.crds)
	if len(crds) == 0 {
		errs = append(errs, errors.New("--migrate-storage needs --migrate-crds"))
	}
	if f.syncPeriod <= 0 || f.retryBackoff <= 0 || f.concurrency <= 0 || f.migratorWait <= 0 {
		errs = append(errs, errors.New("--migrate-sync-period, --migrate-retry-backoff, --migrate-concurrency and --migrate-migrator-wait must be positive"))
	}
	switch f.engine {
	case EngineAuto, EngineCluster, EngineClient:
	default:
		errs = append(errs, fmt.Errorf("--migrate-engine must be %s, %s or %s, not %q", EngineAuto, EngineCluster, EngineClient, f.engine))
	}
	ns, err := namespaceOrPod(f.namespace)
	if err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	kubeconfig := *f.kubeconfig
	if f.kubeconfigFlag != nil {
		kubeconfig = f.kubeconfigFlag.Value.String()
	}
	kube, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return fmt.Errorf("--migrate-storage: the API server: %w", err)
	}
	m, err := newMetrics(reg)
	if err != nil {
		return err
	}
	f.cfg = config{namespace: ns, state: f.state, service: f.service, crds: crds, replica: replicaName(f.replica),
		syncPeriod: f.syncPeriod, retryBackoff: f.retryBackoff, concurrency: f.concurrency, engine: f.engine, migratorWait: f.migratorWait,
		log: log, metrics: m}
	f.kube = kube
	return nil
}

// Run records this replica's versions, converting served (group/Kind to
// versions), and migrates while elected, until ctx ends.
func (f *Flags) Run(ctx context.Context, served map[string][]string) error {
	if f.kube == nil {
		return errors.New("--migrate-storage: the flags were not completed")
	}
	return run(ctx, f.cfg, f.kube, served)
}

func namespaceOrPod(ns string) (string, error) {
	if ns != "" {
		return ns, nil
	}
	b, err := os.ReadFile(inClusterNamespace)
	if err != nil {
		return "", fmt.Errorf("--migrate-storage: no --migrate-namespace, and not in a pod: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// replicaName is name, else $POD_NAME, else the host name.
func replicaName(name string) string {
	if name != "" {
		return name
	}
	if pod := os.Getenv(PodNameEnv); pod != "" {
		return pod
	}
	host, _ := os.Hostname()
	return host
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
