// Package e2e is crdforge's end-to-end suite: for every example it starts a
// real control plane (controller-runtime's envtest, with the kube-apiserver
// and etcd that tools/envtest/envtest.mk builds into bin/k8s), installs the
// generated CRD, runs the generated conversion webhook as a process with
// certificates from `crdforge certs`, and talks to the API server with a
// dynamic client, kubectl and etcd directly.
//
// The suite shares one control plane between the examples (their CRDs are in
// different groups). Where the examples lack a case, a sub-test changes the
// installed CRD object, never the generated files, and puts it back:
//   - widgets "unserved version 404" sets served: false on v1alpha1 (no
//     example has an unserved version);
//   - crontab "deprecation default warning" sets deprecated: true, without a
//     deprecationWarning, on v1beta1 (only widgets has a deprecated version,
//     with a custom text);
//   - each example's "storage version change" moves storage to another
//     version, and back in a cleanup.
//
// Run it with `go test ./e2e/ -count=1 -v` after `make envtest-assets`
// (KUBEBUILDER_ASSETS overrides bin/k8s); it skips with -short or without
// the assets. kubectl comes from the assets (make envtest-assets builds it)
// or from PATH.
//
// This file is the harness, shared by the tests and by cmd/demo (make demo).
// It returns errors instead of failing a testing.T so that both can use it.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Module is the main module's path; RepoRoot looks for its go.mod.
const Module = "github.com/crdforge/crdforge"

// ErrNoAssets says that bin/k8s (or KUBEBUILDER_ASSETS) lacks kube-apiserver
// or etcd.
var ErrNoAssets = errors.New("envtest assets missing")

// CRDResource is the CustomResourceDefinition resource.
var CRDResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// RepoRoot walks up from the working directory to the main module's root.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module "+Module+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod of %s above the working directory", Module)
		}
		dir = parent
	}
}

// GoFlags returns GOFLAGS for a go command that a test runs with flags of
// its own: those, and the build configuration this process's GOFLAGS set,
// as make's do (buildConfigFlag). A project built in a temporary directory
// then gets its packages from the build cache the other builds share:
// without -trimpath the cache keys a package on its directory, and
// compiles it again in every new one, and with other -gcflags it compiles
// them again too. -toolexec wraps every tool the build runs, as
// hack/toolexec-log.sh does to profile a gate.
func GoFlags(flags ...string) string {
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		if buildConfigFlag(f) {
			flags = append(flags, f)
		}
	}
	return "GOFLAGS=" + strings.Join(flags, " ")
}

// buildConfigFlag says whether a GOFLAGS entry configures how packages are
// compiled and linked (-trimpath, -gcflags, -ldflags, -toolexec): the
// settings a test's go command must share with make's for the build cache
// to serve both.
func buildConfigFlag(f string) bool {
	if f == "-trimpath" {
		return true
	}
	for _, prefix := range []string{"-gcflags=", "-ldflags=", "-toolexec="} {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

// AssetsDir is KUBEBUILDER_ASSETS when set, else root/bin/k8s, as an
// absolute path; it wraps ErrNoAssets when a binary is missing.
func AssetsDir(root string) (string, error) {
	dir := os.Getenv("KUBEBUILDER_ASSETS")
	if dir == "" {
		dir = filepath.Join(root, "bin", "k8s")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(abs, name)); err != nil {
			return "", fmt.Errorf("%w: %s not in %s (run `make envtest-assets` at the repository root)", ErrNoAssets, name, abs)
		}
	}
	return abs, nil
}

// Cluster is a running envtest control plane, with a kubeconfig for kubectl.
type Cluster struct {
	Env        *envtest.Environment
	Config     *rest.Config
	Dynamic    dynamic.Interface
	Kubeconfig string
	CacheDir   string // kubectl's discovery cache, private to this cluster
	EtcdURL    string
	// KubectlPath is the kubectl built with the assets when there is one
	// (make envtest-assets builds it), else the one on PATH.
	KubectlPath string
	// Release is the server's, from its /version.
	Release Release
	// StorageMigration is the StorageVersionMigration resource the server
	// serves, the version it prefers; empty when it serves none.
	StorageMigration schema.GroupVersionResource
}

// kubectlIn returns the kubectl among the assets, or "kubectl" (from PATH).
func kubectlIn(assets string) string {
	if p := filepath.Join(assets, "kubectl"); fileExists(p) {
		return p
	}
	return "kubectl"
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// StartCluster starts etcd and kube-apiserver from assets, and writes a
// kubeconfig (an admin user) into dir.
func StartCluster(assets, dir string) (*Cluster, error) {
	rel, err := BinaryRelease(filepath.Join(assets, "kube-apiserver"))
	if err != nil {
		return nil, err
	}
	env := &envtest.Environment{BinaryAssetsDirectory: assets}
	for flag, value := range apiServerArgs(rel) {
		env.ControlPlane.GetAPIServer().Configure().Set(flag, value)
	}
	cfg, err := env.Start()
	if err != nil {
		if serr := env.Stop(); serr != nil {
			err = errors.Join(err, fmt.Errorf("stopping what did start: %w", serr))
		}
		return nil, fmt.Errorf("starting the envtest control plane: %w", err)
	}
	// Tests look at warnings through DynamicWithWarnings; the others need
	// not be logged.
	cfg.WarningHandler = rest.NoWarnings{}
	c := &Cluster{Env: env, Config: cfg, EtcdURL: env.ControlPlane.Etcd.URL.String(), KubectlPath: kubectlIn(assets)}
	fail := func(err error) (*Cluster, error) {
		if serr := c.Stop(); serr != nil {
			err = errors.Join(err, fmt.Errorf("stopping the control plane: %w", serr))
		}
		return nil, err
	}
	user, err := env.AddUser(envtest.User{Name: "e2e-admin", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		return fail(fmt.Errorf("adding a kubectl user: %w", err))
	}
	kc, err := user.KubeConfig()
	if err != nil {
		return fail(err)
	}
	c.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(c.Kubeconfig, kc, 0o600); err != nil {
		return fail(err)
	}
	c.CacheDir = filepath.Join(dir, "kubectl-cache")
	if c.Dynamic, err = dynamic.NewForConfig(cfg); err != nil {
		return fail(err)
	}
	if err := c.learnServer(); err != nil {
		return fail(err)
	}
	return c, nil
}

// Stop stops the control plane (kube-apiserver and etcd).
func (c *Cluster) Stop() error {
	if c == nil || c.Env == nil {
		return nil
	}
	return c.Env.Stop()
}

// DynamicWithWarnings is a dynamic client whose requests' warning headers
// go to rec.
func (c *Cluster) DynamicWithWarnings(rec *Warnings) (dynamic.Interface, error) {
	cfg := rest.CopyConfig(c.Config)
	cfg.WarningHandler = rec
	return dynamic.NewForConfig(cfg)
}

// Warnings records the warning headers of API responses.
type Warnings struct {
	mu   sync.Mutex
	list []string
}

// HandleWarningHeader implements rest.WarningHandler.
func (w *Warnings) HandleWarningHeader(_ int, _, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, text)
}

// Take returns the warnings recorded so far and forgets them.
func (w *Warnings) Take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.list
	w.list = nil
	return l
}

// Kubectl runs kubectl against the cluster; stdin may be nil.
func (c *Cluster) Kubectl(ctx context.Context, stdin []byte, args ...string) (stdout, stderr string, err error) {
	full := append([]string{"--kubeconfig", c.Kubeconfig, "--cache-dir", c.CacheDir}, args...)
	cmd := exec.CommandContext(ctx, c.KubectlPath, full...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if err != nil {
		err = fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), errb.String(), err
}

// GoBuild runs `go build -o out pkg` in dir, with output to log.
func GoBuild(ctx context.Context, dir, out, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build -o %s %s (in %s): %w\n%s", out, pkg, dir, err, b)
	}
	return nil
}

// Certs runs `crdforge certs --host 127.0.0.1 --out outDir ./...` in the
// example's directory and returns the CA it wrote (ca.crt, PEM).
func Certs(ctx context.Context, crdforge, exampleDir, outDir string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, crdforge, "certs", "--host", "127.0.0.1", "--out", outDir, "./...")
	cmd.Dir = exampleDir
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("crdforge certs in %s: %w\n%s", exampleDir, err, b)
	}
	for _, name := range []string{"tls.crt", "tls.key"} {
		if _, err := os.Stat(filepath.Join(outDir, name)); err != nil {
			return nil, fmt.Errorf("crdforge certs wrote no %s: %w", name, err)
		}
	}
	return os.ReadFile(filepath.Join(outDir, "ca.crt"))
}

// Webhook is a running generated conversion webhook.
type Webhook struct {
	cmd  *exec.Cmd
	Addr string // host:port it serves on
	done chan struct{}
	err  error // how the process ended; set before done is closed
	// logErr is what went wrong copying its stderr to the log writer; set
	// before done is closed.
	logErr error
}

// StartWebhook runs the webhook binary with the certificates in certDir on
// 127.0.0.1 and a free port, and more flags, and waits (up to a minute)
// until its logs say where it serves. Its logs, JSON lines, are copied to
// logw.
func StartWebhook(bin, certDir string, logw io.Writer, more ...string) (*Webhook, error) {
	cmd := exec.Command(bin, append([]string{"--cert-dir", certDir, "--bind-address", "127.0.0.1", "--port", "0",
		"--metrics-bind-address", "0", "--health-probe-bind-address", "0"}, more...)...)
	// The webhook dies with the process that started it, even on SIGKILL.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = logw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	w := &Webhook{cmd: cmd, done: make(chan struct{})}
	found := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		var writeErr error
		for sc.Scan() {
			// After a failed write the log is incomplete anyway: stop
			// writing, but keep scanning for the address.
			if writeErr == nil {
				_, writeErr = fmt.Fprintf(logw, "%s\n", sc.Bytes())
			}
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "serving the conversion webhook" && line.Addr != "" {
				select {
				case found <- line.Addr:
				default:
				}
			}
		}
		// The scan stops early on a line longer than its buffer: drain the
		// rest so that the webhook never blocks writing to a full pipe.
		_, drainErr := io.Copy(io.Discard, stderr)
		if err := errors.Join(writeErr, sc.Err(), drainErr); err != nil {
			w.logErr = fmt.Errorf("copying the webhook's log: %w", err)
		}
	}()
	go func() {
		<-scanned
		w.err = cmd.Wait()
		close(w.done)
	}()
	select {
	case w.Addr = <-found:
		return w, nil
	case <-w.done:
		return nil, fmt.Errorf("the webhook exited before serving: %v", w.err)
	case <-time.After(time.Minute):
		err := errors.New("the webhook did not say where it serves within a minute")
		return nil, errors.Join(err, w.Stop())
	}
}

// Stop interrupts the webhook, kills it if it has not exited within ten
// seconds, and waits for it. It reports a webhook it could not kill (then
// it does not wait), and a failure to copy the webhook's log; not how the
// process ended, since an interrupted webhook may well exit non-zero.
func (w *Webhook) Stop() error {
	if w == nil {
		return nil
	}
	select {
	case <-w.done:
		return w.logErr
	default:
	}
	// An interrupt lets the webhook shut down cleanly. When it cannot be
	// sent (the process has just exited: os.ErrProcessDone), there is no
	// point in waiting ten seconds for it.
	grace := 10 * time.Second
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		grace = 0
	}
	select {
	case <-w.done:
	case <-time.After(grace):
		// os.ErrProcessDone: it exited meanwhile, and done closes.
		if err := w.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
			return fmt.Errorf("killing the webhook (pid %d): %w", w.cmd.Process.Pid, err)
		}
		<-w.done
	}
	return w.logErr
}

// LoadCRD reads the one CustomResourceDefinition in a generated YAML file.
func LoadCRD(path string) (*unstructured.Unstructured, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			if err == io.EOF {
				return nil, fmt.Errorf("%s holds no CustomResourceDefinition", path)
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if obj["kind"] == "CustomResourceDefinition" {
			return &unstructured.Unstructured{Object: obj}, nil
		}
	}
}

// PointAtWebhook rewrites the generated conversion stanza of crd for a
// webhook that runs outside the cluster: the clientConfig keeps its path,
// but instead of the Service it gets url https://<addr><path>, and caBundle
// is the CA. It returns the URL.
func PointAtWebhook(crd *unstructured.Unstructured, addr string, caPEM []byte) (string, error) {
	cc, found, err := unstructured.NestedMap(crd.Object, "spec", "conversion", "webhook", "clientConfig")
	if err != nil || !found {
		return "", fmt.Errorf("CRD %s has no conversion webhook clientConfig (%v)", crd.GetName(), err)
	}
	svc, ok := cc["service"].(map[string]any)
	if !ok {
		return "", fmt.Errorf("CRD %s: the conversion webhook's clientConfig names no service", crd.GetName())
	}
	path, _ := svc["path"].(string)
	url := "https://" + addr + path
	cc = map[string]any{"url": url, "caBundle": base64.StdEncoding.EncodeToString(caPEM)}
	if err := unstructured.SetNestedMap(crd.Object, cc, "spec", "conversion", "webhook", "clientConfig"); err != nil {
		return "", err
	}
	// cert-manager is not there to inject a CA.
	ann := crd.GetAnnotations()
	delete(ann, "cert-manager.io/inject-ca-from")
	crd.SetAnnotations(ann)
	return url, nil
}

// Versions are a CRD's versions (spec.versions) by name, in order.
func Versions(crd *unstructured.Unstructured) []map[string]any {
	list, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// SetVersionFields sets fields (served, storage, ...) of the named version
// of crd; set storage makes the other versions non-storage.
func SetVersionFields(crd *unstructured.Unstructured, version string, fields map[string]any) error {
	list, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	found := false
	for _, v := range list {
		m := v.(map[string]any)
		if m["name"] == version {
			found = true
			for k, val := range fields {
				m[k] = val
			}
		} else if s, ok := fields["storage"]; ok && s == true {
			m["storage"] = false
		}
	}
	if !found {
		return fmt.Errorf("CRD %s has no version %s", crd.GetName(), version)
	}
	return unstructured.SetNestedSlice(crd.Object, list, "spec", "versions")
}

// ApplyCRD creates crd, or replaces the spec of the one installed.
func (c *Cluster) ApplyCRD(ctx context.Context, crd *unstructured.Unstructured) error {
	crds := c.Dynamic.Resource(CRDResource)
	obj := crd.DeepCopy()
	_, err := crds.Create(ctx, obj, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		return err
	}
	return Poll(ctx, 30*time.Second, func() (bool, error) {
		cur, err := crds.Get(ctx, crd.GetName(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		cur.Object["spec"] = crd.DeepCopy().Object["spec"]
		_, err = crds.Update(ctx, cur, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
}

// UpdateCRD changes the installed CRD with mutate, retrying on conflicts.
func (c *Cluster) UpdateCRD(ctx context.Context, name string, mutate func(*unstructured.Unstructured) error) (*unstructured.Unstructured, error) {
	crds := c.Dynamic.Resource(CRDResource)
	var out *unstructured.Unstructured
	err := Poll(ctx, 30*time.Second, func() (bool, error) {
		cur, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if err := mutate(cur); err != nil {
			return false, err
		}
		out, err = crds.Update(ctx, cur, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return false, nil
		}
		return err == nil, err
	})
	return out, err
}

// WaitEstablished waits until the CRD's Established and NamesAccepted
// conditions are True.
func (c *Cluster) WaitEstablished(ctx context.Context, name string) error {
	crds := c.Dynamic.Resource(CRDResource)
	return Poll(ctx, time.Minute, func() (bool, error) {
		cur, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		conds, _, _ := unstructured.NestedSlice(cur.Object, "status", "conditions")
		ok := map[string]bool{}
		for _, cond := range conds {
			m, _ := cond.(map[string]any)
			if m["status"] == "True" {
				ok[fmt.Sprint(m["type"])] = true
			}
		}
		return ok["Established"] && ok["NamesAccepted"], nil
	})
}

// Poll calls cond every 100ms (backing off to 1s) until it returns true, or
// an error, or timeout passes; the error then says what cond last said.
func Poll(ctx context.Context, timeout time.Duration, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	wait := 100 * time.Millisecond
	for {
		done, err := cond()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("condition not met within %s: %w", timeout, ctx.Err())
		case <-time.After(wait):
		}
		if wait < time.Second {
			wait *= 2
		}
	}
}

// PollFor is Poll for conditions that fail with an error until they hold:
// it retries while cond returns an error, and reports the last one.
func PollFor(ctx context.Context, timeout time.Duration, cond func() error) error {
	var last error
	err := Poll(ctx, timeout, func() (bool, error) {
		last = cond()
		return last == nil, nil
	})
	if err != nil && last != nil {
		return fmt.Errorf("%w; last error: %v", err, last)
	}
	return err
}
