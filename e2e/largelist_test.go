package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// reviewLimit is the webhook's default --max-request-bytes, the API server's
// own limit for a request.
const reviewLimit = 3 << 20

// testLargeList lists, in one call through v1beta1, n CronTabs stored at v1
// that together are larger than a ConversionReview may be: the API server
// converts a LIST's objects one at a time, as it reads each from storage, so
// no review carries the whole list, and the list goes through the webhook
// whatever its size.
func testLargeList(t *testing.T, e *Example, n int) {
	ctx := context.Background()
	const selector = "crdforge-e2e=large-list"
	// An image name of 2 KiB makes each object about 2.3 KiB.
	image := "registry.example.com/" + strings.Repeat("a", 2048)
	created := make(chan error, n)
	names := make(chan int, n)
	for i := range n {
		names <- i
	}
	close(names)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range names {
				obj := e.Obj("v1", ns, fmt.Sprintf("large-%05d", i), map[string]any{
					"host": "h", "port": fmt.Sprint(i),
					"spec": map[string]any{"cronSpec": "* * * * *", "image": image, "replicas": int64(1)},
				})
				obj.SetLabels(map[string]string{"crdforge-e2e": "large-list"})
				_, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{})
				created <- err
			}
		}()
	}
	wg.Wait()
	close(created)
	for err := range created {
		if err != nil {
			t.Fatalf("creating the objects: %v", err)
		}
	}
	defer func() {
		err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			t.Errorf("deleting the objects: %v", err)
		}
	}()

	list, err := cluster.Dynamic.Resource(e.Resource("v1beta1")).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		t.Fatalf("listing %d objects at v1beta1: %v", n, err)
	}
	if len(list.Items) != n {
		t.Fatalf("listed %d objects, want %d", len(list.Items), n)
	}
	for _, item := range list.Items {
		hostPort, _, _ := unstructured.NestedString(item.Object, "hostPort")
		if item.GetAPIVersion() != "example.com/v1beta1" || !strings.HasPrefix(hostPort, "h:") || item.Object["host"] != nil {
			t.Fatalf("%s not converted: apiVersion %s, hostPort %q", item.GetName(), item.GetAPIVersion(), hostPort)
		}
	}
	b, err := json.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) <= reviewLimit {
		t.Fatalf("the list is %d bytes, not more than a review's limit of %d: the test proves nothing", len(b), reviewLimit)
	}
	t.Logf("listed %d objects, %.1f MiB, at v1beta1 through the webhook (limit per review %d MiB)", n, float64(len(b))/(1<<20), reviewLimit>>20)
}
