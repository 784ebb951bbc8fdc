package e2e

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// jobTemplate is a small valid spec.jobTemplate, written as the webhook's
// Go types serialize it (empty metadata and resources included), so that
// it reads back the same at every version.
func jobTemplate() map[string]any {
	return map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{},
		"spec": map[string]any{
			"containers":    []any{map[string]any{"name": "hello", "image": "busybox:1.36", "args": []any{"echo", "hi"}, "resources": map[string]any{}}},
			"restartPolicy": "OnFailure",
		}}}}
}

// TestCronJob: examples/cronjob, batch.tutorial.kubebuilder.io CronJob; v1
// (storage, hub) has spec.schedule as a cron string, v2 as a struct of the
// five cron fields.
func TestCronJob(t *testing.T) {
	e := setUpExample(t, "cronjob", map[string]any{"spec": map[string]any{"schedule": "* * * * *", "jobTemplate": jobTemplate()}})
	ctx := context.Background()

	t.Run("matrix", func(t *testing.T) {
		testMatrix(t, e, []fixture{{
			version: "v1", name: "from-v1",
			content: map[string]any{"spec": map[string]any{"schedule": "*/1 * * * *", "concurrencyPolicy": "Forbid", "jobTemplate": jobTemplate(), "suspend": false}},
			want: map[string]fields{
				"v1": {"spec.schedule": "*/1 * * * *"},
				"v2": {"spec.schedule": map[string]any{"minute": "*/1", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "*"},
					"spec.concurrencyPolicy": "Forbid", "spec.suspend": false, "spec.jobTemplate": jobTemplate()},
			},
		}, {
			version: "v2", name: "from-v2",
			content: map[string]any{"spec": map[string]any{
				"schedule":    map[string]any{"minute": "0", "hour": "5", "dayOfMonth": "*", "month": "*", "dayOfWeek": "1-5"},
				"jobTemplate": jobTemplate(), "concurrencyPolicy": "Replace", "successfulJobsHistoryLimit": int64(2), "startingDeadlineSeconds": int64(30),
			}},
			want: map[string]fields{
				"v2": {"spec.schedule.dayOfWeek": "1-5"},
				"v1": {"spec.schedule": "0 5 * * 1-5", "spec.successfulJobsHistoryLimit": 2, "spec.concurrencyPolicy": "Replace", "spec.startingDeadlineSeconds": 30, "spec.jobTemplate": jobTemplate()},
			},
		}})
	})

	t.Run("warnings", func(t *testing.T) { noWarnings(t, e, "from-v2-dynamic") })

	// A v2 schedule that leaves fields out reads in v1 with "*" for them;
	// written back through v1 it still leaves them out.
	t.Run("nothing lost", func(t *testing.T) {
		orig := map[string]any{"spec": map[string]any{"schedule": map[string]any{"minute": "30", "hour": "2"}, "jobTemplate": jobTemplate(), "concurrencyPolicy": "Allow"}}
		edited := deepCopy(orig)
		edited["spec"].(map[string]any)["suspend"] = true
		testNothingLost(t, e, "v2", "v1", "lossless", true, orig,
			fields{"spec.schedule": "30 2 * * *"},
			func(old map[string]any) { old["spec"].(map[string]any)["suspend"] = true },
			edited)
	})

	// After the move to v2, etcd holds v2's schedule struct.
	t.Run("storage version change", func(t *testing.T) {
		testStorageChange(t, e, "from-v1-dynamic", "v2", func(name string) *unstructured.Unstructured {
			return e.Obj("v1", ns, name, map[string]any{"spec": map[string]any{"schedule": "15 * * * 0", "jobTemplate": jobTemplate()}})
		})
		check(t, "after-storage-change-dynamic in etcd", etcdObject(t, e, "after-storage-change-dynamic"),
			fields{"spec.schedule": map[string]any{"minute": "15", "hour": "*", "dayOfMonth": "*", "month": "*", "dayOfWeek": "0"}})
		v, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns).Get(ctx, "after-storage-change-dynamic", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s, _, _ := unstructured.NestedString(v.Object, "spec", "schedule"); !strings.EqualFold(s, "15 * * * 0") {
			t.Errorf("v1 schedule = %q", s)
		}
	})
}
