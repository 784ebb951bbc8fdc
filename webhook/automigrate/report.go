package automigrate

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

var eventResource = schema.GroupVersionResource{Version: "v1", Resource: "events"}

// eventRecorder creates core/v1 Events about a CRD in the webhook's
// namespace (a CRD has none), where its Role lets it: kubectl get events -n
// <that namespace> shows them. The API server refuses an Event whose
// involvedObject.namespace differs from its own outside "default", so the
// involvedObject carries the webhook's namespace.
type eventRecorder struct {
	events               dynamic.ResourceInterface
	namespace, component string
	log                  *slog.Logger
}

func (r *eventRecorder) emit(ctx context.Context, crd *unstructured.Unstructured, kind, reason, message string) {
	now := time.Now().UTC().Format(time.RFC3339)
	ev := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Event",
		"metadata": map[string]any{"generateName": crd.GetName() + ".", "namespace": r.namespace},
		"involvedObject": map[string]any{
			"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"namespace": r.namespace, "name": crd.GetName(), "uid": string(crd.GetUID()), "resourceVersion": crd.GetResourceVersion(),
		},
		"type": kind, "reason": reason, "message": message, "count": int64(1),
		"firstTimestamp": now, "lastTimestamp": now,
		"source":             map[string]any{"component": r.component},
		"reportingComponent": "crdforge.io/webhook", "reportingInstance": r.component,
	}}
	if _, err := r.events.Create(ctx, ev, metav1.CreateOptions{}); err != nil && ctx.Err() == nil {
		r.log.Error("creating an Event", "reason", reason, "error", err)
	}
}

// setStatus writes s into the CRD's annotation StatusAnnotation, with a
// merge patch: an annotation changes no spec, so not the CRD's generation,
// which storagemigrate.ConfirmPlan compares.
func (c *controller) setStatus(ctx context.Context, name string, s storagemigrate.Status) {
	s.Time = time.Now().UTC().Truncate(time.Second)
	value, err := json.Marshal(s)
	if err == nil {
		var patch []byte
		patch, err = json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{storagemigrate.StatusAnnotation: string(value)}}})
		if err == nil {
			_, err = c.crdClient.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
		}
	}
	if err != nil && ctx.Err() == nil {
		c.log.Error("writing the migration's status on the CRD", "crd", name, "error", err)
	}
}

// metrics are --migrate-storage's series on the webhook's /metrics.
type metrics struct {
	objects  *prometheus.CounterVec
	runs     *prometheus.CounterVec
	pendingG *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		objects: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crdforge_storage_migration_objects_total",
			Help: "Objects the storage migration rewrote, by CRD and result (rewritten, unchanged, skipped or failed).",
		}, []string{"crd", "result"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "crdforge_storage_migration_runs_total",
			Help: "Storage migrations finished by this replica, by CRD and result (succeeded or failed).",
		}, []string{"crd", "result"}),
		pendingG: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "crdforge_storage_migration_pending",
			Help: "1 while a CRD's status.storedVersions hold a version other than its storage version, as the elected replica last saw it.",
		}, []string{"crd"}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.objects, m.runs, m.pendingG} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("--migrate-storage: registering its metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) object(crd string, o storagemigrate.Outcome) {
	result := map[storagemigrate.Outcome]string{storagemigrate.Written: "rewritten", storagemigrate.Unchanged: "unchanged",
		storagemigrate.Skipped: "skipped", storagemigrate.Failed: "failed"}[o]
	m.objects.WithLabelValues(crd, result).Inc()
}

func (m *metrics) run(crd, result string) { m.runs.WithLabelValues(crd, result).Inc() }

func (m *metrics) pending(crd string, pending bool) {
	v := 0.0
	if pending {
		v = 1
	}
	m.pendingG.WithLabelValues(crd).Set(v)
}
