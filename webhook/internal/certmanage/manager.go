package certmanage

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/webhook/internal/lease"
)

// Config is one replica's certificate management.
type Config struct {
	Policy Policy
	// Namespace holds the Secret and the Lease, both named Secret.
	Namespace, Secret string
	// CRDs are the names of the CustomResourceDefinitions whose caBundle
	// the elected replica writes: exactly those the webhook serves.
	CRDs []string
	// Identity is this replica's in the Lease.
	Identity string
	// SyncPeriod is how often every replica reads the Secret, and the
	// elected one checks it and the CRDs.
	SyncPeriod time.Duration
	// CertDir is where the serving pair goes, as tls.crt and tls.key.
	CertDir string
	Log     *slog.Logger
	// Now is the clock; time.Now in a webhook.
	Now func() time.Time
}

// The resources it reads and writes, through client-go's dynamic client:
// client-go's typed clientset (and tools/leaderelection, which takes it)
// would link every group of k8s.io/api into the webhook.
var (
	crdResource    = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	secretResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// manager holds the clients of one replica.
type manager struct {
	Config
	secrets dynamic.ResourceInterface
	crds    dynamic.NamespaceableResourceInterface
	leases  dynamic.ResourceInterface
}

// Run keeps the certificates until ctx ends: it runs for the Lease, checks
// the Secret and the CRDs while it holds it, and on every replica writes
// the Secret's serving pair into CertDir, calling ready once the first one
// is there. It returns ctx's error, or an error building its clients.
func Run(ctx context.Context, cfg Config, kube *rest.Config, ready func()) error {
	dyn, err := dynamic.NewForConfig(kube)
	if err != nil {
		return err
	}
	m := &manager{Config: cfg, crds: dyn.Resource(crdResource),
		secrets: dyn.Resource(secretResource).Namespace(cfg.Namespace),
		leases:  dyn.Resource(lease.Resource).Namespace(cfg.Namespace)}
	go lease.Campaign(ctx, m.leases, m.Secret, m.Identity, m.Log, m.lead)
	m.syncFiles(ctx, ready)
	return ctx.Err()
}

// lead checks the certificates at once, then every SyncPeriod, while this
// replica holds the Lease (ctx).
func (m *manager) lead(ctx context.Context) {
	m.Log.Info("keeping the certificates", "identity", m.Identity, "secret", m.Namespace+"/"+m.Secret)
	t := time.NewTicker(m.SyncPeriod)
	defer t.Stop()
	for {
		if err := m.check(ctx); err != nil && ctx.Err() == nil {
			m.Log.Error("checking the certificates", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// check moves the Secret to Next's state. The CRDs' bundle trusts both
// states before the Secret changes, and only the new one after, so that a
// replica serving either leaf stays trusted all along; when nothing changes
// it still writes the bundle, which a CRD applied again (by helm upgrade,
// or GitOps) lost.
func (m *manager) check(ctx context.Context) error {
	sec, err := m.getSecret(ctx)
	create := apierrors.IsNotFound(err)
	if create {
		sec, err = newSecret(m.Namespace, m.Secret), nil
	}
	if err != nil {
		return err
	}
	state := decode(sec.data, sec.obj.GetAnnotations())
	next, why, err := Next(state, m.Policy, m.Now())
	if err != nil || len(why) == 0 {
		return errors.Join(err, m.writeBundle(ctx, state.Bundle()))
	}
	if err := m.writeBundle(ctx, union(state.Bundle(), next.Bundle())); err != nil {
		return fmt.Errorf("the CRDs do not trust the new certificates yet, so the Secret keeps the old: %w", err)
	}
	if err := m.writeSecret(ctx, sec, next, create); err != nil {
		return err
	}
	m.Log.Info("certificates changed", "why", why, "caNotAfter", next.CA.Cert.NotAfter,
		"notAfter", next.Leaf.Cert.NotAfter, "previousCA", next.Previous != nil)
	return m.writeBundle(ctx, next.Bundle())
}

// writeSecret stores s in sec, creating it when create. An update carries
// sec's resourceVersion, so that of two replicas that both think they are
// elected, one fails and checks again.
func (m *manager) writeSecret(ctx context.Context, sec secret, s State, create bool) error {
	obj := sec.obj.DeepCopy()
	data := map[string][]byte{}
	for k, v := range sec.data {
		data[k] = v
	}
	annotations := obj.GetAnnotations()
	if annotations == nil {
		annotations = map[string]string{}
	}
	encode(s, data, annotations)
	obj.SetAnnotations(annotations)
	encoded := map[string]any{}
	for k, v := range data {
		encoded[k] = base64.StdEncoding.EncodeToString(v)
	}
	obj.Object["data"] = encoded
	var err error
	if create {
		_, err = m.secrets.Create(ctx, obj, metav1.CreateOptions{})
	} else {
		_, err = m.secrets.Update(ctx, obj, metav1.UpdateOptions{})
	}
	return err
}

// writeBundle sets the conversion caBundle of every CRD in m.CRDs that
// does not hold bundle yet.
func (m *manager) writeBundle(ctx context.Context, bundle []byte) error {
	want := base64.StdEncoding.EncodeToString(bundle)
	patch, err := json.Marshal(map[string]any{"spec": map[string]any{"conversion": map[string]any{
		"webhook": map[string]any{"clientConfig": map[string]any{"caBundle": want}}}}})
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range m.CRDs {
		crd, err := m.crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			errs = append(errs, fmt.Errorf("CRD %s: %w", name, err))
			continue
		}
		strategy, _, _ := unstructuredString(crd.Object, "spec", "conversion", "strategy")
		if strategy != "Webhook" {
			errs = append(errs, fmt.Errorf("CRD %s converts with strategy %q, not through the webhook", name, strategy))
			continue
		}
		if have, _, _ := unstructuredString(crd.Object, "spec", "conversion", "webhook", "clientConfig", "caBundle"); have == want {
			continue
		}
		if _, err := m.crds.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			errs = append(errs, fmt.Errorf("CRD %s: %w", name, err))
			continue
		}
		m.Log.Info("wrote the CRD's caBundle", "crd", name, "cas", len(splitPEM(bundle)))
	}
	return errors.Join(errs...)
}

// syncFiles writes the Secret's serving pair into CertDir whenever it
// changes, every SyncPeriod, until ctx ends; ready is called after the
// first write.
func (m *manager) syncFiles(ctx context.Context, ready func()) {
	t := time.NewTicker(m.SyncPeriod)
	defer t.Stop()
	var written pair
	for {
		if p, err := m.readPair(ctx); err != nil {
			m.Log.Debug("no serving certificate in the Secret yet", "error", err)
		} else if !p.equal(written) {
			if err := writePair(m.CertDir, p); err != nil {
				m.Log.Error("writing the serving certificate", "dir", m.CertDir, "error", err)
			} else {
				if written.cert == nil {
					ready()
				}
				written = p
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
