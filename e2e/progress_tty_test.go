package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// tmux is a tmux server of the test's own (its own socket), so that the
// test neither sees nor touches anyone else's sessions.
type tmux struct {
	t      *testing.T
	socket string
}

func newTmux(t *testing.T) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux on PATH: the progress bar needs a real terminal")
	}
	x := &tmux{t: t, socket: fmt.Sprintf("crdforge-e2e-%d", os.Getpid())}
	t.Cleanup(func() {
		if out, err := exec.Command("tmux", "-L", x.socket, "kill-server").CombinedOutput(); err != nil {
			t.Logf("tmux kill-server: %v %s", err, out)
		}
	})
	return x
}

func (x *tmux) run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestMigrateProgressBarOnATerminal runs crdforge migrate in a tmux pane (a
// real terminal, 100 columns) and reads the screen: the progress bar is
// redrawn in place on one line, ends full at the object count, and the
// report follows it.
func TestMigrateProgressBarOnATerminal(t *testing.T) {
	t.Parallel()
	needCluster(t)
	ctx := context.Background()
	name := "bars.tty.e2e.crdforge.io"
	openAPI := map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	version := func(v string, storage bool) any {
		return map[string]any{"name": v, "served": true, "storage": storage, "schema": openAPI}
	}
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"group": "tty.e2e.crdforge.io", "scope": "Namespaced",
			"names":    map[string]any{"plural": "bars", "singular": "bar", "kind": "Bar", "listKind": "BarList"},
			"versions": []any{version("v1", true), version("v2", false)},
		},
	}}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	})
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		t.Fatal(err)
	}
	const n = 400
	res := schemaGVR("tty.e2e.crdforge.io", "v1", "bars")
	for i := range n {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "tty.e2e.crdforge.io/v1", "kind": "Bar",
			"metadata": map[string]any{"name": fmt.Sprintf("bar-%d", i), "namespace": "default"}}}
		if _, err := cluster.Dynamic.Resource(res).Namespace("default").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cluster.UpdateCRD(ctx, name, func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v2", map[string]any{"storage": true})
	}); err != nil {
		t.Fatal(err)
	}

	x := newTmux(t)
	x.run("new-session", "-d", "-s", "migrate", "-x", "100", "-y", "30")
	// One writer at a time, so that the redraws have something to
	// overwrite; the shell prints the exit code after the run (split in
	// the command line, so that only the output reads EXIT=).
	cmdline := fmt.Sprintf("%s migrate %s --kubeconfig %s --engine client --concurrency 1; printf 'EX''IT=%%s\\n' $?", crdforge, name, cluster.Kubeconfig)
	exited := regexp.MustCompile(`EXIT=(\d+)`)
	x.run("send-keys", "-t", "migrate", cmdline, "Enter")
	var screen string
	sawPartial := false
	partial := regexp.MustCompile(`\[=*>\s*\] (\d+)/400`)
	deadline := time.Now().Add(2 * time.Minute)
	for !exited.MatchString(screen) {
		if time.Now().After(deadline) {
			t.Fatalf("crdforge migrate did not finish in the pane within 2 minutes; screen:\n%s", screen)
		}
		time.Sleep(50 * time.Millisecond)
		screen = x.run("capture-pane", "-p", "-t", "migrate")
		if m := partial.FindStringSubmatch(screen); m != nil && m[1] != "0" {
			sawPartial = true
		}
	}
	t.Logf("the pane at the end:\n%s", screen)
	if exited.FindStringSubmatch(screen)[1] != "0" {
		t.Fatalf("crdforge migrate failed in the pane")
	}
	var bars []string
	for _, line := range strings.Split(screen, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			bars = append(bars, strings.TrimRight(line, " "))
		}
	}
	want := "[" + strings.Repeat("=", 30) + "] 400/400 100%"
	if len(bars) != 1 || bars[0] != want {
		t.Errorf("progress lines on the screen %q, want exactly one, %q: the bar is redrawn in place", bars, want)
	}
	if !sawPartial {
		t.Errorf("never saw the bar part-way (a [==>   ] n/400 line): it should move while objects are written")
	}
	if !strings.Contains(screen, name+": rewrote 400 of 400 objects at v2") {
		t.Errorf("the report does not follow the bar")
	}
}

// TestMigrateAutoFallsBack: with --engine auto on an API server that serves
// storagemigration.k8s.io but runs no migrator (no kube-controller-manager
// here), crdforge waits for the migration to be taken up, then deletes it
// and migrates with the client engine.
func TestMigrateAutoFallsBack(t *testing.T) {
	needCluster(t)
	// It waits 30 s for a migrator that never comes, so it runs among the
	// tests that run one at a time, each of which stops its
	// kube-controller-manager before the next starts; the suite's
	// parallel tests, one of which runs a migrator, come after them.
	ctx := context.Background()
	group := "auto.e2e.crdforge.io"
	name := "widgets." + group
	openAPI := map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
	version := func(v string, storage bool) any {
		return map[string]any{"name": v, "served": true, "storage": storage, "schema": openAPI}
	}
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names":    map[string]any{"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": []any{version("v1", true), version("v2", false)},
		},
	}}
	if err := cluster.ApplyCRD(ctx, crd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cluster.Dynamic.Resource(CRDResource).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
			t.Errorf("deleting %s: %v", name, err)
		}
	})
	if err := cluster.WaitEstablished(ctx, name); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": group + "/v1", "kind": "Widget",
			"metadata": map[string]any{"name": fmt.Sprintf("w-%d", i), "namespace": "default"}}}
		if _, err := cluster.Dynamic.Resource(schemaGVR(group, "v1", "widgets")).Namespace("default").Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cluster.UpdateCRD(ctx, name, func(u *unstructured.Unstructured) error {
		return SetVersionFields(u, "v2", map[string]any{"storage": true})
	}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCrdforge(t, "migrate", name, "--kubeconfig", cluster.Kubeconfig)
	t.Logf("crdforge migrate (auto, no migrator): exit %d\n%s%s", code, stdout, stderr)
	if code != 0 || !strings.Contains(stdout, "engine: client (no storage version migrator took the migration up within 30s") ||
		!strings.Contains(stdout, "rewrote 5 of 5 objects at v2") {
		t.Errorf("want exit 0, the fallback said, and the client engine's report")
	}
	svms, err := migrationsOf(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range svms {
		t.Errorf("StorageVersionMigration %s left behind: it would run whenever a migrator comes up", it.GetName())
	}
}
