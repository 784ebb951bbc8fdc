package e2e

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const managedSecret = "cronjob-webhook-certs"

// TestManagedCerts runs two replicas of the cronjob example's generated
// webhook (generated with webhook-manage-certs) with --manage-certs behind one address, with no certificate made
// beforehand: the Secret appears, the CRD's caBundle is written, and
// conversions work through the API server. Then, with a CA valid for 90s
// and a leaf for 30s, it reads at the non-storage version while the leaf is
// renewed three times and the CA rotated once, and counts no failed read.
func TestManagedCerts(t *testing.T) {
	needCluster(t)
	ctx := context.Background()
	work := t.TempDir()
	dir := filepath.Join(repoRoot, "examples", "cronjob")
	bin := filepath.Join(work, "cronjob-webhook")
	if err := GoBuild(ctx, dir, bin, "./cmd/webhook"); err != nil {
		t.Fatal(err)
	}
	crdFile := filepath.Join(dir, "config", "crd", "bases", "batch.tutorial.kubebuilder.io_cronjobs.yaml")
	crd, err := LoadCRD(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	lb := startRoundRobin(t)
	if _, err := PointAtWebhook(crd, lb.addr(), nil); err != nil {
		t.Fatal(err)
	}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cluster.Dynamic.Resource(CRDResource).Delete(ctx, crd.GetName(), metav1.DeleteOptions{})
		_ = cluster.Dynamic.Resource(secretResource).Namespace("default").Delete(ctx, managedSecret, metav1.DeleteOptions{})
	})
	for i := range 2 {
		logf, err := os.Create(filepath.Join(work, "webhook.log"+string(rune('0'+i))))
		if err != nil {
			t.Fatal(err)
		}
		w, err := StartWebhook(bin, filepath.Join(work, "certs"+string(rune('0'+i))), logf,
			"--manage-certs", "--certs-secret", managedSecret, "--certs-namespace", "default",
			"--certs-crds", crd.GetName(), "--certs-hosts", "127.0.0.1", "--kubeconfig", cluster.Kubeconfig,
			"--certs-sync-period", "1s", "--ca-validity", "90s", "--cert-validity", "30s", "--ca-overlap", "10s")
		if err != nil {
			t.Fatal(err)
		}
		lb.add(w.Addr)
		t.Cleanup(func() {
			if err := w.Stop(); err != nil {
				t.Error(err)
			}
			_ = logf.Close() // written to the end; read below
			if t.Failed() {
				b, _ := os.ReadFile(logf.Name())
				t.Logf("replica %d's log:\n%s", i, tail(string(b), 4000))
			}
		})
	}
	e := &Example{Name: "cronjob", Group: "batch.tutorial.kubebuilder.io", Plural: "cronjobs", Kind: "CronJob", CRD: crd}
	obj := e.Obj("v1", "default", "managed", map[string]any{"spec": map[string]any{"schedule": "* * * * *", "jobTemplate": jobTemplate()}})
	if err := PollFor(ctx, time.Minute, func() error {
		_, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace("default").Create(ctx, obj, metav1.CreateOptions{})
		return err
	}); err != nil {
		t.Fatalf("the first object, through the first certificates: %v", err)
	}
	if _, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace("default").Get(ctx, "managed", metav1.GetOptions{}); err != nil {
		t.Fatalf("reading at v2 through the first certificates: %v", err)
	}
	t.Logf("first issuance: %d CA(s) in the caBundle", len(managedCABundle(ctx, t, crd.GetName())))

	var reads, failed atomic.Int64
	seen := watchSecret(ctx, t, 85*time.Second, func() {
		reads.Add(1)
		if _, err := cluster.Dynamic.Resource(e.Resource("v2")).Namespace("default").Get(ctx, "managed", metav1.GetOptions{}); err != nil {
			failed.Add(1)
			t.Errorf("read at v2: %v", err)
		}
	})
	t.Logf("%d reads at v2, %d failed; %d serving certificates and %d CAs seen, the bundle held two CAs: %v",
		reads.Load(), failed.Load(), len(seen.leaves), len(seen.cas), seen.overlap)
	if len(seen.leaves) < 4 || len(seen.cas) < 2 || !seen.overlap {
		t.Errorf("no leaf renewal and CA rotation happened: %+v", seen)
	}
}

var secretResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

func managedCABundle(ctx context.Context, t *testing.T, name string) []string {
	t.Helper()
	crd, err := cluster.Dynamic.Resource(CRDResource).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := unstructured.NestedString(crd.Object, "spec", "conversion", "webhook", "clientConfig", "caBundle")
	if b == "" {
		t.Fatal("the CRD has no caBundle")
	}
	return []string{b}
}

// secretHistory is what watchSecret saw of the Secret.
type secretHistory struct {
	leaves, cas map[string]bool
	overlap     bool // a previous CA was kept beside the new one
}

// watchSecret calls read every 50ms for d, and looks at the Secret every
// 200ms, recording each serving certificate and CA it held.
func watchSecret(ctx context.Context, t *testing.T, d time.Duration, read func()) secretHistory {
	h := secretHistory{leaves: map[string]bool{}, cas: map[string]bool{}}
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		read()
		if i%4 == 0 {
			sec, err := cluster.Dynamic.Resource(secretResource).Namespace("default").Get(ctx, managedSecret, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			data, _, _ := unstructured.NestedStringMap(sec.Object, "data")
			h.leaves[data["tls.crt"]], h.cas[data["ca.crt"]] = true, true
			h.overlap = h.overlap || data["previous-ca.crt"] != ""
		}
		time.Sleep(50 * time.Millisecond)
	}
	return h
}

// roundRobin is a TCP proxy that hands each connection to the next
// replica, so that the API server reaches both through one URL.
type roundRobin struct {
	ln       net.Listener
	mu       sync.Mutex
	backends []string
	next     int
}

func startRoundRobin(t *testing.T) *roundRobin {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &roundRobin{ln: ln}
	t.Cleanup(func() { _ = ln.Close() }) // the proxy stops with the test
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go r.serve(c)
		}
	}()
	return r
}

func (r *roundRobin) addr() string { return r.ln.Addr().String() }

func (r *roundRobin) add(backend string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.backends = append(r.backends, backend)
}

func (r *roundRobin) serve(c net.Conn) {
	defer func() { _ = c.Close() }() // the client sees the close
	r.mu.Lock()
	if len(r.backends) == 0 {
		r.mu.Unlock()
		return
	}
	backend := r.backends[r.next%len(r.backends)]
	r.next++
	r.mu.Unlock()
	b, err := net.Dial("tcp", backend)
	if err != nil {
		return
	}
	defer func() { _ = b.Close() }() // the backend sees the close
	done := make(chan error, 2)
	go func() { _, err := io.Copy(b, c); done <- err }()
	go func() { _, err := io.Copy(c, b); done <- err }()
	if err := <-done; err != nil && !errors.Is(err, net.ErrClosed) {
		return
	}
}
