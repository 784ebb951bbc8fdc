package automigrate

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

var endpointSliceResource = schema.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}

// readyEndpoints lists the names of the pods behind the ready endpoints of
// service: those the API server may send a conversion to. An endpoint
// naming no pod cannot be matched with a record: it is returned as
// unnamed, and the migration waits.
func readyEndpoints(ctx context.Context, slices dynamic.ResourceInterface, service string) (names []string, unnamed int, err error) {
	list, err := slices.List(ctx, metav1.ListOptions{LabelSelector: "kubernetes.io/service-name=" + service})
	if err != nil {
		return nil, 0, err
	}
	for _, s := range list.Items {
		eps, _, _ := unstructured.NestedSlice(s.Object, "endpoints")
		for _, e := range eps {
			ep, _ := e.(map[string]any)
			// A missing ready condition means ready, as for kube-proxy.
			if ready, found, _ := unstructured.NestedBool(ep, "conditions", "ready"); found && !ready {
				continue
			}
			name, _, _ := unstructured.NestedString(ep, "targetRef", "name")
			if name == "" {
				unnamed++
				continue
			}
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names, unnamed, nil
}

// replicasLacking returns why not every ready endpoint's replica converts
// every version of groupKind; empty when all of them do. A record older
// than stale is a replica's that stopped recording: no proof of what it
// serves now.
func replicasLacking(endpoints []string, unnamed int, records map[string]record, groupKind string, versions []string, now time.Time, stale time.Duration) string {
	if len(endpoints) == 0 && unnamed == 0 {
		return "the Service has no ready endpoint"
	}
	var lacking []string
	for _, name := range endpoints {
		r, ok := records[name]
		switch {
		case !ok:
			lacking = append(lacking, name+" (no record)")
		case now.Sub(r.At) > stale:
			lacking = append(lacking, name+" (record from "+r.At.UTC().Format(time.RFC3339)+")")
		case !r.converts(groupKind, versions):
			lacking = append(lacking, fmt.Sprintf("%s (converts %v)", name, r.Kinds[groupKind]))
		}
	}
	if unnamed > 0 {
		lacking = append(lacking, fmt.Sprintf("%d endpoint(s) naming no pod", unnamed))
	}
	if len(lacking) == 0 {
		return ""
	}
	return fmt.Sprintf("not every ready replica converts %s %v yet: %s", groupKind, versions, strings.Join(lacking, ", "))
}
