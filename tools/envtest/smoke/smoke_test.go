// Package smoke checks that bin/k8s/kube-apiserver and bin/k8s/etcd (built by
// tools/envtest/envtest.mk) run a working control plane under envtest.
package smoke

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/discovery"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

const wantServerVersion = "v1.37.2"

// assetsDir is KUBEBUILDER_ASSETS when set (envtest prefers it anyway), else
// the repository's bin/k8s.
func assetsDir(t *testing.T) string {
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "bin", "k8s")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(abs, name)); err != nil {
			t.Skipf("envtest binary %s missing in %s: run `make -f tools/envtest/envtest.mk envtest-assets` from the repository root first", name, abs)
		}
	}
	return abs
}

func TestControlPlane(t *testing.T) {
	env := &envtest.Environment{BinaryAssetsDirectory: assetsDir(t)}
	start := time.Now()
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest control plane: %v", err)
	}
	t.Logf("control plane started in %s at %s", time.Since(start).Round(time.Millisecond), cfg.Host)
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest control plane: %v", err)
		}
	})

	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	info, err := dc.ServerVersion()
	if err != nil {
		t.Fatalf("server version: %v", err)
	}
	if info.GitVersion != wantServerVersion || info.Major != "1" || info.Minor != "37" {
		t.Errorf("server version = %q (major %q, minor %q), want %s", info.GitVersion, info.Major, info.Minor, wantServerVersion)
	}

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "smoke-"}}
	if err := c.Create(ctx, ns); err != nil {
		t.Fatalf("creating namespace: %v", err)
	}
	var list corev1.NamespaceList
	if err := c.List(ctx, &list); err != nil {
		t.Fatalf("listing namespaces: %v", err)
	}
	names := make([]string, 0, len(list.Items))
	found := false
	for _, item := range list.Items {
		names = append(names, item.Name)
		found = found || item.Name == ns.Name
	}
	if !found {
		t.Fatalf("namespace %s not in list %v", ns.Name, names)
	}
	t.Logf("server %s; namespaces: %v", info.GitVersion, names)
}
