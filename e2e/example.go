package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Example is one of examples/<name> set up on a cluster: its generated CRD
// installed and pointing at its generated webhook, which runs as a process.
type Example struct {
	Name    string
	Dir     string                     // examples/<name>, absolute
	CRDFile string                     // the generated CRD file installed
	CRD     *unstructured.Unstructured // as installed
	Group   string
	Plural  string
	Kind    string
	Webhook *Webhook
	URL     string // the conversion webhook's URL
	CA      []byte // PEM, the caBundle
}

// Resource is the example's resource at version.
func (e *Example) Resource(version string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: e.Group, Version: version, Resource: e.Plural}
}

// KubectlResource is <plural>.<version>.<group>, kubectl's name for the
// resource at one version.
func (e *Example) KubectlResource(version string) string {
	return e.Plural + "." + version + "." + e.Group
}

// Served lists the versions the installed CRD serves, in order.
func (e *Example) Served() []string {
	var out []string
	for _, v := range Versions(e.CRD) {
		if v["served"] == true {
			out = append(out, v["name"].(string))
		}
	}
	return out
}

// Storage is the installed CRD's storage version.
func (e *Example) Storage() string {
	for _, v := range Versions(e.CRD) {
		if v["storage"] == true {
			return v["name"].(string)
		}
	}
	return ""
}

// Stop stops the webhook (the CRD stays installed), and reports what
// Webhook.Stop reports.
func (e *Example) Stop() error {
	if e == nil {
		return nil
	}
	return e.Webhook.Stop()
}

// Progress receives the harness's progress lines; it may be nil.
type Progress func(format string, args ...any)

func (p Progress) say(format string, args ...any) {
	if p != nil {
		p(format, args...)
	}
}

// BuildCrdforge builds cmd/crdforge into dir and returns the binary's path.
func BuildCrdforge(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "crdforge")
	return bin, GoBuild(ctx, root, bin, "./cmd/crdforge")
}

// SetUpExample writes certificates for examples/<name> with `crdforge
// certs`, builds and starts its generated webhook (logs to logw), and
// installs the generated CRD from config/crd/bases, its conversion stanza
// pointed at the webhook; it waits until the CRD is established. workDir
// receives the certificates and the binary. On error nothing is left
// running.
func SetUpExample(ctx context.Context, c *Cluster, root, crdforge, name, workDir string, logw io.Writer, say Progress) (*Example, error) {
	return SetUpProject(ctx, c, crdforge, filepath.Join(root, "examples", name), name, workDir, logw, say)
}

// SetUpProject is SetUpExample for the project in dir (any generated tree
// with one CRD in config/crd/bases and the generated cmd/webhook), named
// name in messages.
func SetUpProject(ctx context.Context, c *Cluster, crdforge, dir, name, workDir string, logw io.Writer, say Progress) (*Example, error) {
	e := &Example{Name: name, Dir: dir}
	files, err := filepath.Glob(filepath.Join(e.Dir, "config", "crd", "bases", "*.yaml"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if filepath.Base(f) != "kustomization.yaml" {
			if e.CRDFile != "" {
				return nil, fmt.Errorf("%s has more than one CRD: %s and %s", name, e.CRDFile, f)
			}
			e.CRDFile = f
		}
	}
	if e.CRDFile == "" {
		return nil, fmt.Errorf("%s/config/crd/bases holds no CRD", dir)
	}
	crd, err := LoadCRD(e.CRDFile)
	if err != nil {
		return nil, err
	}
	e.Group, _, _ = unstructured.NestedString(crd.Object, "spec", "group")
	e.Plural, _, _ = unstructured.NestedString(crd.Object, "spec", "names", "plural")
	e.Kind, _, _ = unstructured.NestedString(crd.Object, "spec", "names", "kind")

	certDir := filepath.Join(workDir, "certs")
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		return nil, err
	}
	say.say("%s: crdforge certs --host 127.0.0.1 --out %s ./...", name, certDir)
	if e.CA, err = Certs(ctx, crdforge, e.Dir, certDir); err != nil {
		return nil, err
	}
	bin := filepath.Join(workDir, name+"-webhook")
	say.say("%s: go build -o %s ./cmd/webhook", name, bin)
	if err := GoBuild(ctx, e.Dir, bin, "./cmd/webhook"); err != nil {
		return nil, err
	}
	if e.Webhook, err = StartWebhook(bin, certDir, logw); err != nil {
		return nil, err
	}
	if e.URL, err = PointAtWebhook(crd, e.Webhook.Addr, e.CA); err != nil {
		return nil, errors.Join(err, e.Stop())
	}
	say.say("%s: webhook serving at %s; installing %s with that URL and caBundle", name, e.URL, filepath.Base(e.CRDFile))
	e.CRD = crd
	if err := c.ApplyCRD(ctx, crd); err != nil {
		return nil, errors.Join(fmt.Errorf("installing %s: %w", crd.GetName(), err), e.Stop())
	}
	if err := c.WaitEstablished(ctx, crd.GetName()); err != nil {
		return nil, errors.Join(fmt.Errorf("CRD %s not established: %w", crd.GetName(), err), e.Stop())
	}
	return e, nil
}

// WaitConversion creates probe (an object at the storage version) and waits
// until it reads through every served version, which takes a working
// webhook and an API server that knows the CRD; then deletes it.
func (e *Example) WaitConversion(ctx context.Context, c *Cluster, probe *unstructured.Unstructured) error {
	gv, err := schema.ParseGroupVersion(probe.GetAPIVersion())
	if err != nil {
		return err
	}
	ns := probe.GetNamespace()
	created := false
	if err := PollFor(ctx, time.Minute, func() error {
		if created {
			return nil
		}
		_, err := c.Dynamic.Resource(e.Resource(gv.Version)).Namespace(ns).Create(ctx, probe.DeepCopy(), metav1.CreateOptions{})
		created = err == nil
		return err
	}); err != nil {
		return fmt.Errorf("creating the probe %s: %w", probe.GetName(), err)
	}
	for _, v := range e.Served() {
		if err := PollFor(ctx, time.Minute, func() error {
			_, err := c.Dynamic.Resource(e.Resource(v)).Namespace(ns).Get(ctx, probe.GetName(), metav1.GetOptions{})
			return err
		}); err != nil {
			return fmt.Errorf("reading the probe through %s: %w", v, err)
		}
	}
	return c.Dynamic.Resource(e.Resource(gv.Version)).Namespace(ns).Delete(ctx, probe.GetName(), metav1.DeleteOptions{})
}

// Obj builds an object of the example's kind at version from YAML-ish JSON
// content (everything but apiVersion, kind and metadata.name/namespace).
func (e *Example) Obj(version, ns, name string, content map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	for k, v := range content {
		u.Object[k] = v
	}
	u.SetAPIVersion(e.Group + "/" + version)
	u.SetKind(e.Kind)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// String names the example for messages.
func (e *Example) String() string {
	return strings.TrimSuffix(filepath.Base(e.CRDFile), ".yaml")
}
