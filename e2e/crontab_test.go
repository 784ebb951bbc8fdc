package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The seed documents' error for a hostPort without exactly one colon.
const hostPortError = "hostPort could not be parsed into a separate host and port"

// TestCronTab: examples/crontab, example.com CronTab; v1 (storage, hub) has
// host and port where v1beta1 has hostPort.
func TestCronTab(t *testing.T) {
	e := setUpExample(t, "crontab", map[string]any{"host": "probe", "port": "1"})
	ctx := context.Background()

	// The seed's scenario, exactly, through kubectl.
	t.Run("seed", func(t *testing.T) {
		seed := `apiVersion: example.com/v1beta1
kind: CronTab
metadata:
  name: local-crontab
  namespace: default
hostPort: "localhost:1234"
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
`
		if _, _, err := cluster.Kubectl(ctx, []byte(seed), "create", "-f", "-"); err != nil {
			t.Fatal(err)
		}
		want := fields{"host": "localhost", "port": "1234", "hostPort": absent,
			"spec.cronSpec": "* * * * */5", "spec.image": "my-awesome-cron-image"}
		check(t, "local-crontab at v1 by kubectl", getKubectl(t, e, "v1", "local-crontab"), want)
		check(t, "local-crontab at v1 by dynamic", getDynamic(t, e, "v1", "local-crontab"), want)
		check(t, "local-crontab at v1beta1", getKubectl(t, e, "v1beta1", "local-crontab"),
			fields{"hostPort": "localhost:1234", "host": absent, "port": absent})

		bad := strings.Replace(strings.Replace(seed, "localhost:1234", "localhost", 1), "local-crontab", "bad-crontab", 1)
		_, _, err := cluster.Kubectl(ctx, []byte(bad), "create", "-f", "-")
		if err == nil || !strings.Contains(err.Error(), hostPortError) {
			t.Errorf("kubectl create with hostPort: localhost: error %v, want one carrying %q", err, hostPortError)
		} else {
			t.Logf("kubectl: %v", err)
		}
		obj := e.Obj("v1beta1", ns, "bad-crontab-dynamic", map[string]any{"hostPort": "a:b:c"})
		_, err = cluster.Dynamic.Resource(e.Resource("v1beta1")).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{})
		if err == nil || !strings.Contains(err.Error(), hostPortError) {
			t.Errorf("dynamic create with hostPort: a:b:c: error %v, want one carrying %q", err, hostPortError)
		}
		for _, name := range []string{"bad-crontab", "bad-crontab-dynamic"} {
			_, err := cluster.Dynamic.Resource(e.Resource("v1")).Namespace(ns).Get(ctx, name, metav1.GetOptions{})
			if !isNotFound404(err) {
				t.Errorf("%s exists after the failed create: %v", name, err)
			}
		}
	})

	t.Run("matrix", func(t *testing.T) {
		testMatrix(t, e, []fixture{{
			version: "v1beta1", name: "from-v1beta1",
			content: map[string]any{"hostPort": "example.com:2345", "spec": map[string]any{"cronSpec": "*/5 * * * *", "image": "img:1", "replicas": int64(3)}},
			want: map[string]fields{
				"v1beta1": {"hostPort": "example.com:2345", "spec.replicas": 3, "spec.image": "img:1"},
				"v1":      {"host": "example.com", "port": "2345", "hostPort": absent, "spec.cronSpec": "*/5 * * * *", "spec.image": "img:1", "spec.replicas": 3},
			},
		}, {
			version: "v1", name: "from-v1",
			content: map[string]any{"host": "10.0.0.1", "port": "8080", "spec": map[string]any{"cronSpec": "0 * * * *", "image": "img:2", "replicas": int64(2)}},
			want: map[string]fields{
				"v1":      {"host": "10.0.0.1", "port": "8080", "spec.replicas": 2},
				"v1beta1": {"hostPort": "10.0.0.1:8080", "host": absent, "port": absent, "spec.cronSpec": "0 * * * *", "spec.image": "img:2", "spec.replicas": 2},
			},
		}})
	})

	t.Run("warnings", func(t *testing.T) { noWarnings(t, e, "from-v1-dynamic") })

	t.Run("large list", func(t *testing.T) { testLargeList(t, e, 2000) })

	// v1 and v1beta1 carry the same data (host and port joined or split),
	// so nothing needs keeping in an annotation; still, an edit through
	// v1beta1 keeps every v1 field.
	t.Run("nothing lost", func(t *testing.T) {
		orig := map[string]any{"host": "db.internal", "port": "5432", "spec": map[string]any{"cronSpec": "* * * * *", "image": "img:3", "replicas": int64(4)}}
		edited := deepCopy(orig)
		edited["spec"].(map[string]any)["image"] = "img:4"
		testNothingLost(t, e, "v1", "v1beta1", "lossless", false, orig,
			fields{"hostPort": "db.internal:5432", "spec.replicas": 4},
			func(old map[string]any) { old["spec"].(map[string]any)["image"] = "img:4" },
			edited)
	})

	// No crontab version is deprecated; this sub-test marks v1beta1
	// deprecated without a deprecationWarning in the installed CRD (and
	// takes it back) to see the API server's default text.
	t.Run("deprecation default warning", func(t *testing.T) {
		setDeprecated := func(on bool) {
			t.Helper()
			crd, err := cluster.UpdateCRD(ctx, e.CRD.GetName(), func(u *unstructured.Unstructured) error {
				return SetVersionFields(u, "v1beta1", map[string]any{"deprecated": on})
			})
			if err != nil {
				t.Fatal(err)
			}
			e.CRD = crd
		}
		setDeprecated(true)
		defer setDeprecated(false)
		rec := &Warnings{}
		dc, err := cluster.DynamicWithWarnings(rec)
		if err != nil {
			t.Fatal(err)
		}
		const want = "example.com/v1beta1 CronTab is deprecated"
		var got []string
		if err := PollFor(ctx, time1m, func() error {
			if _, err := dc.Resource(e.Resource("v1beta1")).Namespace(ns).Get(ctx, "local-crontab", metav1.GetOptions{}); err != nil {
				return err
			}
			if got = rec.Take(); len(got) != 1 || !strings.HasPrefix(got[0], want) {
				return fmt.Errorf("warnings %q", got)
			}
			return nil
		}); err != nil {
			t.Fatalf("get at deprecated v1beta1 never warned %q: %v", want, err)
		}
		t.Logf("default warning: %q", got[0])
	})

	t.Run("storage version change", func(t *testing.T) {
		testStorageChange(t, e, "from-v1beta1-dynamic", "v1beta1", func(name string) *unstructured.Unstructured {
			return e.Obj("v1", ns, name, map[string]any{"host": "h", "port": "1", "spec": map[string]any{"image": "i"}})
		})
		got := etcdObject(t, e, "after-storage-change-dynamic")
		if got["hostPort"] != "h:1" {
			b, _ := json.Marshal(got)
			t.Errorf("etcd holds %s, want hostPort h:1", b)
		}
	})
}
