package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

var (
	certificates = schema.GroupVersionResource{Group: "cert-manager.io", Version: "v1", Resource: "certificates"}
	secrets      = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

// kubeletDelay is how long after cert-manager writes the renewed Secret
// the simulated kubelet updates the webhook's mounted files: the kubelet's
// sync period and cache TTL make that up to a minute or more in a cluster
// (issue 59); ten seconds is enough for the CA injector to have updated the
// caBundle long before.
const kubeletDelay = 10 * time.Second

// TestCertificateRenewal runs cert-manager's controller and CA injector
// (make certmanager) against the suite's API server, applies a generated
// project's cert-manager objects, serves its webhook with the Secret
// cert-manager issued (mounted as the kubelet would, and updated
// kubeletDelay after each change), and renews the serving certificate
// while clients read at the non-storage version.
//
// With the generated chain (a CA Issuer signs the serving certificate,
// the caBundle is the CA), no read fails. With the old layout (the
// self-signed Issuer signs the serving certificate, so the caBundle is that
// certificate itself) an injector that replaces the caBundle, as
// cert-manager's did before v1.19 (and does with CAInjectorMerging=false),
// swaps it within seconds of the renewal while the webhook still serves the
// old certificate: reads fail until the kubelet catches up. A sub-test,
// run with CRDFORGE_E2E_RACE=1, holds the test to seeing that; the gate
// leaves it out, since how many reads land in the kubelet's delay depends
// on the machine's load (4 of 450 failed on a loaded 2-core machine), and
// a window too short to see one would fail it for no fault of crdforge's.
// cert-manager from v1.19 merges the new CA
// into the caBundle instead; the chain must hold with both injectors.
func TestCertificateRenewal(t *testing.T) {
	needCluster(t)
	bin := needTool(t, repoRoot, "certmanager")
	crds, err := CertManagerCRDs(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range crds {
		if _, _, err := cluster.Kubectl(context.Background(), nil, "apply", "--server-side", "-f", f); err != nil {
			t.Fatal(err)
		}
	}
	logs := logFile(t, "cert-manager")

	stop := runCertManager(t, bin, "CAInjectorMerging=false", logs)
	t.Run("CA chain, replacing injector", func(t *testing.T) {
		noFailedRead(t, renewWhileReading(t, "renew-chain.e2e.crdforge.io", servedOnLoopback))
	})
	t.Run("self-signed leaf, the old layout, replacing injector", func(t *testing.T) {
		if os.Getenv("CRDFORGE_E2E_RACE") == "" {
			t.Skip("shows the race the chain avoids; set CRDFORGE_E2E_RACE=1 to run it")
		}
		r := renewWhileReading(t, "renew-leaf.e2e.crdforge.io", func(docs []map[string]any) []map[string]any {
			return servedOnLoopback(selfSignedLeaf(t, docs))
		})
		t.Logf("%d reads at v2, %d failed; first: %v", r.reads, r.failed, r.first)
		if r.failed == 0 {
			t.Errorf("with the serving certificate as its own CA, no read failed across the renewal: the test no longer sees the race it guards against")
		}
	})
	stop()

	runCertManager(t, bin, "", logs)
	t.Run("CA chain, merging injector", func(t *testing.T) {
		noFailedRead(t, renewWhileReading(t, "renew-chain-merging.e2e.crdforge.io", servedOnLoopback))
	})
}

// runCertManager starts cert-manager with feature gates gates until the
// test ends or the returned stop is called.
func runCertManager(t *testing.T, bin, gates string, logs io.Writer) (stop func()) {
	t.Helper()
	cm, err := cluster.StartCertManager(bin, gates, logs)
	if err != nil {
		t.Fatal(err)
	}
	stop = func() {
		if err := cm.Stop(); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(stop)
	return stop
}

// noFailedRead fails the test unless every read of r succeeded and the
// renewal left the caBundle as it was.
func noFailedRead(t *testing.T, r renewal) {
	t.Helper()
	t.Logf("%d reads at v2, %d failed", r.reads, r.failed)
	if r.failed != 0 {
		t.Errorf("%d of %d reads at v2 failed across the renewal, want none; first: %v", r.failed, r.reads, r.first)
	}
	if !r.caBundleKept {
		t.Errorf("the renewal changed the CRD's caBundle, want the CA kept")
	}
}

// renewal is what renewWhileReading saw.
type renewal struct {
	reads, failed int64
	first         error // the first failed read
	caBundleKept  bool  // the CRD's caBundle after the renewal is the one before
}

// renewWhileReading sets up a two-version project in group, its
// cert-manager objects (from config/webhook/certificate.yaml, through
// shape) applied and its webhook serving the issued Secret, renews the
// serving certificate while four clients read at v2 (the storage version
// is v1), and returns once the webhook serves the new certificate.
func renewWhileReading(t *testing.T, group string, shape func([]map[string]any) []map[string]any) renewal {
	ctx := context.Background()
	dir := lifeProject(t, group)
	crdforgeIn(t, dir, "generate", "./...")
	newVersionV2(t, dir)
	crdforgeIn(t, dir, "generate", "./...")
	crd, err := LoadCRD(onlyCRDFile(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	ns, certName, _ := strings.Cut(crd.GetAnnotations()["cert-manager.io/inject-ca-from"], "/")
	docs := shape(append(yamlDocs(t, filepath.Join(dir, "config", "webhook", "namespace.yaml")),
		yamlDocs(t, filepath.Join(dir, "config", "webhook", "certificate.yaml"))...))
	list, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": docs})
	if _, _, err := cluster.Kubectl(ctx, list, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	secretName := servingSecretName(t, docs, certName)
	secret := waitSecret(t, ns, secretName)

	work := t.TempDir()
	certDir := filepath.Join(work, "certs")
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := MountSecret(certDir, secret); err != nil {
		t.Fatal(err)
	}
	wh := startProjectWebhook(t, dir, certDir)
	installInjected(t, crd, wh.Addr)
	before := waitCABundle(t, crd.GetName(), secret["ca.crt"])
	e := &Example{Group: group, Plural: "crontabs", Kind: "CronTab", CRD: crd}
	createNamespace(t, "renewal")
	if err := e.WaitConversion(ctx, cluster, e.Obj("v1", "renewal", "probe", map[string]any{"host": "p", "port": "1"})); err != nil {
		t.Fatalf("conversion never worked: %v", err)
	}
	for i := range 20 {
		obj := e.Obj("v1", "renewal", fmt.Sprintf("c-%d", i), map[string]any{"host": "h", "port": fmt.Sprint(i)})
		if _, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace("renewal").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	var r renewal
	stop := readInLoop(t, e, 4, &r)
	kubelet := kubeletAfterDelay(t, ns, secretName, secret["tls.crt"], certDir)
	renewCertificate(t, ns, certName)
	renewed := <-kubelet // the webhook's files now hold the new certificate
	// Reads go on until the webhook has picked the files up (it polls
	// them every second) and a little after.
	time.Sleep(3 * time.Second)
	stop()
	if bytes.Equal(renewed, secret["tls.crt"]) {
		t.Fatal("the serving certificate was not renewed")
	}
	r.caBundleKept = caBundleOf(t, crd.GetName()) == before
	return r
}

// servedOnLoopback adds 127.0.0.1 to the serving certificate: the harness
// runs the webhook on loopback, and the CRD calls it by that address
// rather than through the Service, whose DNS names the certificate keeps.
func servedOnLoopback(docs []map[string]any) []map[string]any {
	for _, d := range docs {
		if d["kind"] == "Certificate" && !isCA(d) {
			spec := d["spec"].(map[string]any)
			spec["ipAddresses"] = []any{"127.0.0.1"}
		}
	}
	return docs
}

// selfSignedLeaf turns the generated chain back into the layout before it
// (issue 59): no CA Certificate, no CA Issuer, the serving Certificate
// issued by the self-signed Issuer.
func selfSignedLeaf(t *testing.T, docs []map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	selfSigned := ""
	for _, d := range docs {
		spec, _ := d["spec"].(map[string]any)
		switch {
		case d["kind"] == "Issuer" && spec["selfSigned"] != nil:
			selfSigned = d["metadata"].(map[string]any)["name"].(string)
		case d["kind"] == "Issuer" && spec["ca"] != nil, d["kind"] == "Certificate" && isCA(d):
			continue
		}
		out = append(out, d)
	}
	if selfSigned == "" {
		t.Fatal("certificate.yaml has no self-signed Issuer")
	}
	for _, d := range out {
		if d["kind"] == "Certificate" {
			d["spec"].(map[string]any)["issuerRef"] = map[string]any{"kind": "Issuer", "name": selfSigned}
		}
	}
	return out
}

func isCA(doc map[string]any) bool {
	spec, _ := doc["spec"].(map[string]any)
	return spec["isCA"] == true
}

// servingSecretName is the secretName of the Certificate named name.
func servingSecretName(t *testing.T, docs []map[string]any, name string) string {
	t.Helper()
	for _, d := range docs {
		if d["kind"] == "Certificate" && d["metadata"].(map[string]any)["name"] == name {
			return d["spec"].(map[string]any)["secretName"].(string)
		}
	}
	t.Fatalf("no Certificate %s, which the CRD's inject-ca-from names", name)
	return ""
}

// yamlDocs reads the YAML documents of a file.
func yamlDocs(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if errors.Is(err, io.EOF) {
				return docs
			}
			t.Fatalf("%s: %v", path, err)
		}
		if d != nil {
			docs = append(docs, d)
		}
	}
}

// onlyCRDFile is the one CRD under dir/config/crd/bases.
func onlyCRDFile(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "config", "crd", "bases", "*.yaml"))
	var crds []string
	for _, f := range files {
		if filepath.Base(f) != "kustomization.yaml" {
			crds = append(crds, f)
		}
	}
	if len(crds) != 1 {
		t.Fatalf("CRDs in %s/config/crd/bases: %v, want one", dir, crds)
	}
	return crds[0]
}

// logFile is a file in the test's directory, printed (its end) when the
// test fails.
func logFile(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(f.Name()); err == nil {
				t.Logf("%s log:\n%s", name, tail(string(b), 6000))
			}
		}
		if err := f.Close(); err != nil {
			t.Error(err)
		}
	})
	return f
}

// waitSecret waits (up to two minutes) for the Secret ns/name to hold
// tls.crt, tls.key and ca.crt, and returns its data.
func waitSecret(t *testing.T, ns, name string) map[string][]byte {
	t.Helper()
	var data map[string][]byte
	err := PollFor(context.Background(), 2*time.Minute, func() error {
		var err error
		data, err = secretData(ns, name)
		return err
	})
	if err != nil {
		t.Fatalf("Secret %s/%s: %v", ns, name, err)
	}
	return data
}

// secretData is the Secret's tls.crt, tls.key and ca.crt, an error when
// one is missing.
func secretData(ns, name string) (map[string][]byte, error) {
	s, err := cluster.Dynamic.Resource(secrets).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	raw, _, _ := unstructured.NestedStringMap(s.Object, "data")
	data := map[string][]byte{}
	for _, k := range []string{"tls.crt", "tls.key", "ca.crt"} {
		b, err := base64.StdEncoding.DecodeString(raw[k])
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("no %s yet (%v)", k, err)
		}
		data[k] = b
	}
	return data, nil
}

// startProjectWebhook builds the project's generated webhook and runs it
// with the certificate in certDir.
func startProjectWebhook(t *testing.T, dir, certDir string) *Webhook {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "webhook")
	if err := GoBuild(context.Background(), dir, bin, "./cmd/webhook"); err != nil {
		t.Fatal(err)
	}
	wh, err := StartWebhook(bin, certDir, logFile(t, "webhook"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := wh.Stop(); err != nil {
			t.Error(err)
		}
	})
	return wh
}

// installInjected installs crd calling the webhook at addr, with no
// caBundle and its inject-ca-from annotation: the CA injector fills it in.
func installInjected(t *testing.T, crd *unstructured.Unstructured, addr string) {
	t.Helper()
	ann := crd.GetAnnotations()
	if _, err := PointAtWebhook(crd, addr, nil); err != nil {
		t.Fatal(err)
	}
	unstructured.RemoveNestedField(crd.Object, "spec", "conversion", "webhook", "clientConfig", "caBundle")
	crd.SetAnnotations(ann)
	if err := cluster.ApplyCRD(context.Background(), crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cluster.Dynamic.Resource(CRDResource).Delete(context.Background(), crd.GetName(), metav1.DeleteOptions{})
	})
	if err := cluster.WaitEstablished(context.Background(), crd.GetName()); err != nil {
		t.Fatal(err)
	}
}

// caBundleOf is the installed CRD's conversion caBundle (base64).
func caBundleOf(t *testing.T, name string) string {
	t.Helper()
	ca, _, _ := unstructured.NestedString(getCRD(t, name).Object, "spec", "conversion", "webhook", "clientConfig", "caBundle")
	return ca
}

// waitCABundle waits for the CA injector to set the CRD's caBundle to ca
// and returns it.
func waitCABundle(t *testing.T, name string, ca []byte) string {
	t.Helper()
	want := base64.StdEncoding.EncodeToString(ca)
	if err := PollFor(context.Background(), time.Minute, func() error {
		if got := caBundleOf(t, name); got != want {
			return fmt.Errorf("caBundle %.40q..., want the Secret's ca.crt", got)
		}
		return nil
	}); err != nil {
		t.Fatalf("CRD %s: the CA injector never set the caBundle: %v", name, err)
	}
	return want
}

// readInLoop starts n clients that list the example's objects at v2 (the
// API server converts each from v1 through the webhook) until the
// returned stop is called, counting reads and failures into r.
func readInLoop(t *testing.T, e *Example, n int, r *renewal) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace("renewal").List(ctx, metav1.ListOptions{})
				if ctx.Err() != nil {
					return // the read was cut short by stop
				}
				atomic.AddInt64(&r.reads, 1)
				if err != nil {
					atomic.AddInt64(&r.failed, 1)
					mu.Lock()
					if r.first == nil {
						r.first = err
					}
					mu.Unlock()
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}

// kubeletAfterDelay watches the Secret for a tls.crt other than old, and
// kubeletDelay after it appears writes it into certDir (MountSecret); the
// channel then receives the new tls.crt, or old when none came.
func kubeletAfterDelay(t *testing.T, ns, name string, old []byte, certDir string) <-chan []byte {
	t.Helper()
	out := make(chan []byte, 1)
	go func() {
		var data map[string][]byte
		err := PollFor(context.Background(), 2*time.Minute, func() error {
			var err error
			if data, err = secretData(ns, name); err == nil && bytes.Equal(data["tls.crt"], old) {
				err = errors.New("tls.crt unchanged")
			}
			return err
		})
		if err != nil {
			t.Errorf("Secret %s/%s after the renewal: %v", ns, name, err)
			out <- old
			return
		}
		time.Sleep(kubeletDelay)
		if err := MountSecret(certDir, data); err != nil {
			t.Error(err)
		}
		out <- data["tls.crt"]
	}()
	return out
}

// renewCertificate asks cert-manager to issue the Certificate again now, as
// `cmctl renew` does: the Issuing condition set True on its status.
func renewCertificate(t *testing.T, ns, name string) {
	t.Helper()
	certs := cluster.Dynamic.Resource(certificates).Namespace(ns)
	err := PollFor(context.Background(), 30*time.Second, func() error {
		c, err := certs.Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		var conds []any
		old, _, _ := unstructured.NestedSlice(c.Object, "status", "conditions")
		for _, cond := range old {
			if m, _ := cond.(map[string]any); m["type"] != "Issuing" {
				conds = append(conds, cond)
			}
		}
		conds = append(conds, map[string]any{"type": "Issuing", "status": "True", "reason": "ManuallyTriggered",
			"message": "Certificate re-issuance manually triggered", "observedGeneration": c.GetGeneration(),
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339)})
		if err := unstructured.SetNestedSlice(c.Object, conds, "status", "conditions"); err != nil {
			return err
		}
		_, err = certs.UpdateStatus(context.Background(), c, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("renewing Certificate %s/%s: %v", ns, name, err)
	}
}
