package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// benchObjects is how many objects BenchmarkMigrateEngines migrates.
const benchObjects = 10000

// BenchmarkMigrateEngines migrates the same 10,000 objects with each engine
// on the same cluster, in one run: the client engine moves them from v1 to
// v2, the cluster's migrator (kube-controller-manager) back to v1. The CRD
// converts with None, so the figures are the engines' own, not a webhook's.
// It reports objects/s, and the API server's own count of the requests on
// the resource (apiserver_request_total) per object.
//
//	go test ./e2e -run '^$' -bench BenchmarkMigrateEngines -benchtime 1x
func BenchmarkMigrateEngines(b *testing.B) {
	if skipWhy != "" {
		b.Skip(skipWhy)
	}
	if setupFail != nil {
		b.Fatal(setupFail)
	}
	ctx := context.Background()
	group := "bench.e2e.crdforge.io"
	name := "things." + group
	openAPI := map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	version := func(v string, storage bool) any {
		return map[string]any{"name": v, "served": true, "storage": storage, "schema": openAPI}
	}
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names":    map[string]any{"plural": "things", "singular": "thing", "kind": "Thing", "listKind": "ThingList"},
			"versions": []any{version("v1", true), version("v2", false)},
		},
	}}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			b.Errorf("deleting %s: %v", name, err)
		}
	})
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		b.Fatal(err)
	}
	res := schemaGVR(group, "v1", "things")
	jobs := make(chan int)
	var wg sync.WaitGroup
	var createErr error
	var mu sync.Mutex
	for range 16 {
		wg.Go(func() {
			for i := range jobs {
				obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/v1", "kind": "Thing",
					"metadata": map[string]any{"name": fmt.Sprintf("t-%05d", i), "namespace": "default"},
					"spec":     map[string]any{"n": int64(i), "text": strings.Repeat("x", 200)}}}
				if _, err := cluster.Dynamic.Resource(res).Namespace("default").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
					mu.Lock()
					createErr = err
					mu.Unlock()
				}
			}
		})
	}
	for i := range benchObjects {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if createErr != nil {
		b.Fatal(createErr)
	}
	logf, err := os.Create(filepath.Join(b.TempDir(), "kcm.log"))
	if err != nil {
		b.Fatal(err)
	}
	cm, err := cluster.StartControllerManager(controllerManager(b), logf)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := cm.Stop(); err != nil {
			b.Error(err)
		}
	})

	for _, c := range []struct{ engine, to string }{{"client", "v2"}, {"cluster", "v1"}} {
		b.Run(c.engine, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				if _, err := cluster.UpdateCRD(ctx, name, func(u *unstructured.Unstructured) error {
					return SetVersionFields(u, c.to, map[string]any{"storage": true})
				}); err != nil {
					b.Fatal(err)
				}
				before := requestsOn(b, cluster.Config, group)
				b.StartTimer()
				start := time.Now()
				_, stderr, code := runCrdforge(b, "migrate", name, "--kubeconfig", cluster.Kubeconfig, "--engine", c.engine, "-q")
				elapsed := time.Since(start)
				b.StopTimer()
				if code != 0 {
					b.Fatalf("crdforge migrate --engine %s: exit %d\n%s", c.engine, code, stderr)
				}
				if got := etcdCount(b, "/registry/"+group+"/things/"); got[group+"/"+c.to] != benchObjects {
					b.Fatalf("etcd holds %v after the %s engine, want all %d at %s", got, c.engine, benchObjects, c.to)
				}
				after := requestsOn(b, cluster.Config, group)
				b.ReportMetric(float64(benchObjects)/elapsed.Seconds(), "objects/s")
				b.ReportMetric(float64(after-before)/benchObjects, "requests/object")
			}
		})
	}
}

// requestsOn sums apiserver_request_total over the requests on group, as
// the API server counts them (its /metrics).
func requestsOn(b *testing.B, cfg *rest.Config, group string) float64 {
	b.Helper()
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := disc.RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	sum := 0.0
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "apiserver_request_total{") || !strings.Contains(line, `group="`+group+`"`) {
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if err != nil {
			b.Fatal(err)
		}
		sum += v
	}
	return sum
}

// etcdCount counts the objects under prefix by stored apiVersion.
func etcdCount(b *testing.B, prefix string) map[string]int {
	b.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{cluster.EtcdURL}, DialTimeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = cli.Close() }()
	resp, err := cli.Get(context.Background(), prefix, clientv3.WithPrefix())
	if err != nil {
		b.Fatal(err)
	}
	out := map[string]int{}
	for _, kv := range resp.Kvs {
		var obj struct {
			APIVersion string `json:"apiVersion"`
		}
		if err := json.Unmarshal(kv.Value, &obj); err != nil {
			b.Fatal(err)
		}
		out[obj.APIVersion]++
	}
	return out
}
