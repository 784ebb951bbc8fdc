package deploy_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v2"
	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/manifestcheck"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/webhook"
)

// byDefault is the deploy generator as crdforge generate configures it
// by default.
var byDefault = deploy.Generator{Dir: pipeline.DefaultDeployDir, CRDDir: pipeline.DefaultCRDDir, Main: pipeline.DefaultWebhookMain}

// loaded caches load's results: each case is loaded once per test binary
// (the tests do not run in parallel, and none modifies a model).
var loaded = map[string]*pipeline.Result{}

// load runs the crd generator on a directory of API packages, as
// crdforge generate does, and returns the model, with the module's webhook
// resolved, and the CRD files, written to the default CRD directory.
func load(t *testing.T, dir string) (*model.Model, []output.File) {
	t.Helper()
	res, ok := loaded[dir]
	if !ok {
		var err error
		res, err = pipeline.Generate(pipeline.Config{Dir: dir, Only: []string{"crd"}, Resolve: model.Options{Webhook: true}})
		if err != nil {
			t.Fatal(err)
		}
		loaded[dir] = res
	}
	if res.Diags.HasErrors() {
		for _, d := range res.Diags.Items() {
			t.Error(d.Format(dir))
		}
		t.FailNow()
	}
	return res.Model, res.Files
}

func generate(t *testing.T, g deploy.Generator, m *model.Model) []output.File {
	t.Helper()
	diags := diag.New(m.Fset)
	files := g.Generate(m, diags)
	for _, d := range diags.Items() {
		t.Errorf("unexpected diagnostic: %s", d.Format(m.Dir))
	}
	return files
}

// writeTree writes files below root, where relative paths are relative to.
func writeTree(t *testing.T, root string, files ...[]output.File) {
	t.Helper()
	for _, fs := range files {
		for _, f := range fs {
			p := f.Path
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// kustomize renders dir with the installed kubectl and returns the objects.
func kustomize(t *testing.T, dir string) []obj {
	t.Helper()
	// The kubectl make envtest-assets builds, else the one on PATH.
	kubectl, err := filepath.Abs(filepath.Join("..", "..", "bin", "k8s", "kubectl"))
	if _, statErr := os.Stat(kubectl); err != nil || statErr != nil {
		if kubectl, err = exec.LookPath("kubectl"); err != nil {
			t.Skip("no kubectl (run make envtest-assets, or put one on PATH): cannot check that kubectl kustomize renders the generated kustomization")
		}
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(kubectl, "kustomize", dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("kubectl kustomize %s: %v\n%s", dir, err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("kubectl kustomize %s printed to stderr:\n%s", dir, stderr.String())
	}
	return decodeAll(t, stdout.Bytes())
}

// obj is a decoded manifest; get walks it by map keys and list indexes.
type obj map[string]any

func (o obj) get(path ...any) any {
	var v any = map[string]any(o)
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[p]
		case int:
			l, _ := v.([]any)
			if p >= len(l) {
				return nil
			}
			v = l[p]
		}
	}
	return v
}

func (o obj) str(path ...any) string { s, _ := o.get(path...).(string); return s }

func (o obj) id() string {
	return o.str("kind") + " " + o.str("metadata", "namespace") + "/" + o.str("metadata", "name")
}

func decodeAll(t *testing.T, b []byte) []obj {
	t.Helper()
	var out []obj
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("decoding YAML: %v\n%s", err, b)
		}
		if v != nil {
			out = append(out, obj(stringKeys(v).(map[string]any)))
		}
	}
}

// stringKeys turns yaml.v2's map[any]any into map[string]any.
func stringKeys(v any) any {
	switch v := v.(type) {
	case map[any]any:
		m := map[string]any{}
		for k, e := range v {
			m[k.(string)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = stringKeys(e)
		}
	}
	return v
}

func find(t *testing.T, objs []obj, kind string) []obj {
	t.Helper()
	var out []obj
	for _, o := range objs {
		if o.str("kind") == kind {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		var ids []string
		for _, o := range objs {
			ids = append(ids, o.id())
		}
		t.Fatalf("no %s among the rendered objects: %v", kind, ids)
	}
	return out
}

// named is the object of kind named name.
func named(t *testing.T, objs []obj, kind, name string) obj {
	t.Helper()
	for _, o := range find(t, objs, kind) {
		if o.str("metadata", "name") == name {
			return o
		}
	}
	t.Fatalf("no %s %s", kind, name)
	return nil
}

// rendered prints objs back as a stream of YAML (JSON) documents, for the
// checks of manifestcheck.
func rendered(t *testing.T, objs []obj) []byte {
	t.Helper()
	var docs [][]byte
	for _, o := range objs {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
	}
	return bytes.Join(docs, []byte("\n---\n"))
}

func one(t *testing.T, objs []obj, kind string) obj {
	t.Helper()
	found := find(t, objs, kind)
	if len(found) != 1 {
		t.Fatalf("%d objects of kind %s, want 1", len(found), kind)
	}
	return found[0]
}

// TestKustomizationRenders writes the generated CRDs and webhook manifests
// into a scratch tree laid out as crdforge lays them out, renders
// config/webhook with kubectl kustomize, and checks what a cluster would get.
func TestKustomizationRenders(t *testing.T) {
	for _, tc := range []struct {
		name, dir          string
		project            string
		service, namespace string
		port               int
		certificate        string
		crds               []string
	}{
		{
			name: "markers set everything", dir: "../../testdata/webhook", project: "webhook",
			service: "widget-conversion", namespace: "widgets", port: 8443,
			certificate: "widgets/widget-serving", crds: []string{"widgets.example.com"},
		},
		{
			name: "defaults", dir: "../../examples/crontab", project: "crontab",
			service: "crontab-webhook-service", namespace: "crontab-system", port: 443,
			certificate: "crontab-system/crontab-webhook-service-cert", crds: []string{"crontabs.example.com"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, crds := load(t, tc.dir)
			files := generate(t, byDefault, m)
			root := t.TempDir()
			writeTree(t, root, crds, files)
			objs := kustomize(t, filepath.Join(root, "config/webhook"))

			app := tc.project + "-webhook"
			ns := one(t, objs, "Namespace")
			if ns.str("metadata", "name") != tc.namespace {
				t.Errorf("Namespace %s, want %s", ns.str("metadata", "name"), tc.namespace)
			}

			d := one(t, objs, "Deployment")
			if d.str("metadata", "namespace") != tc.namespace || d.str("metadata", "name") != app {
				t.Errorf("Deployment is %s, want %s/%s", d.id(), tc.namespace, app)
			}
			if r := d.get("spec", "replicas"); r != 2 {
				t.Errorf("replicas = %v, want 2", r)
			}
			c := obj(d.get("spec", "template", "spec", "containers", 0).(map[string]any))
			if img := c.str("image"); img != app+":latest" {
				t.Errorf("image = %q, want %q (from the kustomization's images:)", img, app+":latest")
			}
			if c.str("readinessProbe", "httpGet", "path") != "/readyz" || c.str("livenessProbe", "httpGet", "path") != "/healthz" {
				t.Errorf("probes: readiness %v, liveness %v", c.get("readinessProbe"), c.get("livenessProbe"))
			}
			if c.get("securityContext", "readOnlyRootFilesystem") != true || d.get("spec", "template", "spec", "securityContext", "runAsNonRoot") != true {
				t.Errorf("pod is not non-root with a read-only root filesystem: %v %v", d.get("spec", "template", "spec", "securityContext"), c.get("securityContext"))
			}
			if c.str("resources", "requests", "cpu") != "10m" || c.str("resources", "requests", "memory") != "32Mi" {
				t.Errorf("resource requests = %v", c.get("resources", "requests"))
			}
			checkMemory(t, c)
			checkShutdown(t, d, c)
			secretName := d.str("spec", "template", "spec", "volumes", 0, "secret", "secretName")
			if secretName != tc.service+"-cert" {
				t.Errorf("mounted Secret %q, want %q", secretName, tc.service+"-cert")
			}

			svc := one(t, objs, "Service")
			if svc.str("metadata", "name") != tc.service || svc.str("metadata", "namespace") != tc.namespace {
				t.Errorf("Service is %s, want %s/%s", svc.id(), tc.namespace, tc.service)
			}
			if p, tp := svc.get("spec", "ports", 0, "port"), svc.get("spec", "ports", 0, "targetPort"); p != tc.port || tp != deploy.WebhookPort {
				t.Errorf("Service maps port %v to %v, want %d to %d", p, tp, tc.port, deploy.WebhookPort)
			}
			sel := svc.get("spec", "selector", "app.kubernetes.io/name")
			if sel != d.get("spec", "template", "metadata", "labels", "app.kubernetes.io/name") {
				t.Errorf("Service selects %v, which is not the Deployment's pods", sel)
			}

			pdb := one(t, objs, "PodDisruptionBudget")
			if pdb.str("apiVersion") != "policy/v1" || pdb.get("spec", "minAvailable") != 1 {
				t.Errorf("PodDisruptionBudget: %v %v", pdb.str("apiVersion"), pdb.get("spec"))
			}

			certNS, certName, _ := strings.Cut(tc.certificate, "/")
			if err := manifestcheck.CAChain(rendered(t, objs), certNS, certName); err != nil {
				t.Errorf("the serving Certificate's CA: %v", err)
			}
			cert := named(t, objs, "Certificate", certName)
			if cert.str("spec", "secretName") != secretName {
				t.Errorf("Certificate writes Secret %q, the Deployment mounts %q", cert.str("spec", "secretName"), secretName)
			}
			host := tc.service + "." + tc.namespace + ".svc"
			if dns := cert.get("spec", "dnsNames"); !slices.Equal(dns.([]any), []any{host, host + ".cluster.local"}) {
				t.Errorf("dnsNames = %v", dns)
			}

			var crdNames []string
			for _, crd := range find(t, objs, "CustomResourceDefinition") {
				crdNames = append(crdNames, crd.str("metadata", "name"))
				if a := crd.str("metadata", "annotations", "cert-manager.io/inject-ca-from"); a != tc.certificate {
					t.Errorf("CRD %s: inject-ca-from = %q, want the Certificate %s", crd.str("metadata", "name"), a, tc.certificate)
				}
				ref := crd.get("spec", "conversion", "webhook", "clientConfig", "service")
				want := map[string]any{"name": tc.service, "namespace": tc.namespace, "port": tc.port, "path": ref.(map[string]any)["path"]}
				if !equalMaps(ref.(map[string]any), want) {
					t.Errorf("CRD %s: conversion webhook Service = %v, want %v", crd.str("metadata", "name"), ref, want)
				}
			}
			if !slices.Equal(crdNames, tc.crds) {
				t.Errorf("CRDs %v, want %v", crdNames, tc.crds)
			}
		})
	}
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// yamlDocuments parses every document of a multi-document YAML stream and
// counts the non-empty ones.
func yamlDocuments(content []byte) (int, error) {
	dec := yaml.NewDecoder(bytes.NewReader(content))
	n := 0
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if v != nil {
			n++
		}
	}
}

// checkMemory holds the webhook container c to a memory limit the webhook
// knows and keeps under: the limit, in webhook.ContainerMemoryLimitEnv from
// the downward API, and no GOMEMLIMIT, which the webhook would take as the
// user's and keep the heap right up to.
func checkMemory(t *testing.T, c obj) {
	t.Helper()
	if deploy.ContainerMemoryLimitEnv != webhook.ContainerMemoryLimitEnv {
		t.Errorf("deploy.ContainerMemoryLimitEnv %s, the webhook reads %s", deploy.ContainerMemoryLimitEnv, webhook.ContainerMemoryLimitEnv)
	}
	env := c.get("env").([]any)
	if len(env) != 1 || c.str("env", 0, "name") != webhook.ContainerMemoryLimitEnv ||
		c.str("env", 0, "valueFrom", "resourceFieldRef", "resource") != "limits.memory" || c.str("resources", "limits", "memory") != "128Mi" {
		t.Errorf("env = %v, limits = %v: want only %s from limits.memory", env, c.get("resources", "limits"), webhook.ContainerMemoryLimitEnv)
	}
}

// checkShutdown holds Deployment d, whose webhook container is c, to a
// shutdown the kubelet does not cut: terminationGracePeriodSeconds, counted
// from the start of preStop, covers the preStop sleep, the webhook's
// --shutdown-grace-period and its drain (webhook.DrainTimeout), with
// slack.
func checkShutdown(t *testing.T, d, c obj) {
	t.Helper()
	preStop := time.Duration(c.get("lifecycle", "preStop", "sleep", "seconds").(int)) * time.Second
	grace := webhookDefault(t, "shutdown-grace-period")
	set := false
	for _, a := range c.get("args").([]any) {
		if v, ok := strings.CutPrefix(a.(string), "--shutdown-grace-period="); ok {
			var err error
			if grace, err = time.ParseDuration(v); err != nil {
				t.Fatal(err)
			}
			set = true
		}
	}
	if !set {
		t.Errorf("args %v set no --shutdown-grace-period: the webhook's default would decide it", c.get("args"))
	}
	period := time.Duration(d.get("spec", "template", "spec", "terminationGracePeriodSeconds").(int)) * time.Second
	if need := preStop + grace + webhook.DrainTimeout; period <= need {
		t.Errorf("terminationGracePeriodSeconds %s, want more than preStop %s + grace %s + drain %s", period, preStop, grace, webhook.DrainTimeout)
	}
	if deploy.DrainTimeout != webhook.DrainTimeout {
		t.Errorf("deploy.DrainTimeout %s, the webhook drains for %s", deploy.DrainTimeout, webhook.DrainTimeout)
	}
}

// webhookDefault is the default of the webhook's duration flag name.
func webhookDefault(t *testing.T, name string) time.Duration {
	t.Helper()
	fs := flag.NewFlagSet("webhook", flag.ContinueOnError)
	webhook.BindFlags(fs)
	d, err := time.ParseDuration(fs.Lookup(name).DefValue)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestYAMLDocumentsRejectsABadDocumentAfterASeparator(t *testing.T) {
	if n, err := yamlDocuments([]byte("a: 1\n---\nb: 2\n")); err != nil || n != 2 {
		t.Errorf("two documents: %d, %v", n, err)
	}
	if _, err := yamlDocuments([]byte("a: 1\n---\nb: [\n")); err == nil {
		t.Error("a broken second document passed")
	}
}

func TestFiles(t *testing.T) {
	m, _ := load(t, "../../testdata/webhook")
	files := generate(t, byDefault, m)
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.ToSlash(f.Path))
		if f.Block {
			paths = append(paths[:len(paths)-1], "(block) "+filepath.ToSlash(f.Path))
			continue
		}
		if !bytes.HasPrefix(f.Content, []byte(output.YAMLHeader+"\n")) {
			t.Errorf("%s does not start with the generated-file header", f.Path)
		}
		if !output.IsGenerated(f.Content) {
			t.Errorf("%s is not recognized as generated", f.Path)
		}
		if strings.Contains(filepath.Base(f.Path), "Dockerfile") || f.Block {
			continue // linted in tools/dockerfile; a .gitignore block
		}
		if docs, err := yamlDocuments(f.Content); err != nil || docs == 0 {
			t.Errorf("%s is not YAML (%d documents): %v", f.Path, docs, err)
		}
	}
	want := []string{
		"config/crd/bases/kustomization.yaml",
		"config/webhook/namespace.yaml",
		"config/webhook/certificate.yaml",
		"config/webhook/service.yaml",
		"config/webhook/deployment.yaml",
		"config/webhook/pdb.yaml",
		"config/webhook/migrate-role.yaml",
		"config/webhook/network-policy/networkpolicy.yaml",
		"config/webhook/network-policy/kustomization.yaml",
		"cmd/webhook/Dockerfile",
		"cmd/webhook/Dockerfile.dockerignore",
		"config/webhook-without-cert-manager/kustomization.yaml",
		"config/webhook/kustomization.yaml",
		"(block) .gitignore",
	}
	if !slices.Equal(paths, want) {
		t.Errorf("files\n %v\nwant\n %v", paths, want)
	}

	again := generate(t, byDefault, m)
	for i := range files {
		if !bytes.Equal(files[i].Content, again[i].Content) {
			t.Errorf("%s differs between two runs", files[i].Path)
		}
	}
}

// TestCRDDirInsideDir: CRDs below the webhook's directory are listed file
// by file, with no kustomization of their own.
func TestCRDDirInsideDir(t *testing.T) {
	m, crds := load(t, "../../testdata/webhook")
	crdDir := "deploy/webhook/crds"
	var moved []output.File
	for _, f := range crds {
		moved = append(moved, output.File{Path: filepath.Join(crdDir, filepath.Base(f.Path)), Content: f.Content})
	}
	files := generate(t, deploy.Generator{Dir: "deploy/webhook", CRDDir: crdDir, Main: "cmd/webhook/main.go"}, m)
	kust := string(files[len(files)-2].Content)
	if !strings.Contains(kust, "\n- crds/example.com_widgets.yaml\n") {
		t.Errorf("kustomization does not list the CRD file:\n%s", kust)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.ToSlash(f.Path), crdDir) {
			t.Errorf("wrote %s into the CRD directory, which the kustomization's root already holds", f.Path)
		}
	}
	root := t.TempDir()
	writeTree(t, root, moved, files)
	objs := kustomize(t, filepath.Join(root, "deploy/webhook"))
	one(t, objs, "CustomResourceDefinition")
	one(t, objs, "Deployment")
}

// TestNoCertManager: when no kind asks for CA injection there is no
// cert-manager resource, and the Deployment still mounts <service>-cert.
func TestNoCertManager(t *testing.T) {
	m, crds := load(t, "../../testdata/noinject")
	files := generate(t, byDefault, m)
	if len(files) == 0 {
		t.Fatal("no files for a kind with a conversion webhook")
	}
	for _, f := range files {
		if filepath.Base(f.Path) == "certificate.yaml" {
			t.Errorf("wrote %s although no kind injects a CA", f.Path)
		}
	}
	root := t.TempDir()
	writeTree(t, root, crds, files)
	objs := kustomize(t, filepath.Join(root, "config/webhook"))
	for _, o := range objs {
		if strings.HasPrefix(o.str("apiVersion"), "cert-manager.io/") {
			t.Errorf("rendered %s", o.id())
		}
	}
	if s := one(t, objs, "Deployment").str("spec", "template", "spec", "volumes", 0, "secret", "secretName"); s != "noinject-webhook-service-cert" {
		t.Errorf("mounted Secret %q", s)
	}
}

func TestNoWebhookNoFiles(t *testing.T) {
	m, _ := load(t, "../../testdata/identical")
	if files := generate(t, byDefault, m); len(files) != 0 {
		t.Errorf("files for a module without conversion webhooks: %v", files)
	}
}

// withSecondKind returns a copy of m with a copy of its first webhook kind
// named Gadget, changed by edit, and the webhook resolved anew into diags.
func withSecondKind(t *testing.T, m *model.Model, diags *diag.List, edit func(*model.Kind)) *model.Model {
	t.Helper()
	k := m.Groups[0].Kinds[0]
	k2 := *k
	k2.Name = "Gadget"
	k2.CRD = k.CRD.DeepCopy()
	k2.CRD.Spec.Names.Plural = "gadgets"
	edit(&k2)
	m2 := *m
	g := *m.Groups[0]
	g.Kinds = []*model.Kind{&k2, k}
	m2.Groups = []*model.Group{&g}
	m2.Webhook = m2.ResolveWebhook(diags)
	return &m2
}

func TestKindsMustShareTheService(t *testing.T) {
	m, _ := load(t, "../../testdata/webhook")
	for _, tc := range []struct {
		name string
		edit func(*model.Kind)
		want string
	}{
		{"service name", func(k *model.Kind) { k.Conversion.Service.Name = "gadget-conversion" },
			"api/v1/groupversion_info.go:4:4: Widget.example.com converts through Service widgets/widget-conversion, but Gadget.example.com through widgets/gadget-conversion\n  = note: Gadget.example.com's is set at api/v1/groupversion_info.go:4:4"},
		{"service namespace", func(k *model.Kind) { k.Conversion.Service.Namespace = "gadgets" },
			"Widget.example.com converts through Service widgets/widget-conversion, but Gadget.example.com through gadgets/widget-conversion"},
		{"certificate", func(k *model.Kind) { k.Conversion.Certificate = "widgets/gadget-serving" },
			"Widget.example.com names cert-manager Certificate widgets/widget-serving, but Gadget.example.com names widgets/gadget-serving"},
		{"certificate namespace", func(k *model.Kind) { k.Conversion.Certificate = "cert-manager/gadget-serving" },
			"cert-manager Certificate cert-manager/gadget-serving of Gadget.example.com is not in the webhook's namespace widgets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diags := diag.New(m.Fset)
			m2 := withSecondKind(t, m, diags, tc.edit)
			files := byDefault.Generate(m2, diags)
			if len(files) != 0 {
				t.Errorf("generated %d files despite the conflict", len(files))
			}
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			var msgs []string
			for _, d := range diags.Items() {
				msgs = append(msgs, d.Format(m.Dir))
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tc.want) {
				t.Errorf("diagnostics\n%s\ndo not contain\n%s", strings.Join(msgs, "\n"), tc.want)
			}
		})
	}
}

// TestKindsSharingTheService: two kinds on one Service with different ports
// and paths share one Deployment; the Service gets both ports.
func TestKindsSharingTheService(t *testing.T) {
	m, _ := load(t, "../../testdata/webhook")
	diags := diag.New(m.Fset)
	m2 := withSecondKind(t, m, diags, func(k *model.Kind) {
		k.Conversion.Service.Port = 443
		k.Conversion.Service.Path = "/convert-gadgets"
	})
	for _, d := range diags.Items() {
		t.Errorf("unexpected diagnostic: %s", d.Format(m.Dir))
	}
	files := generate(t, byDefault, m2)
	var svc, crdKust string
	for _, f := range files {
		switch filepath.Base(f.Path) {
		case "service.yaml":
			svc = string(f.Content)
		case "kustomization.yaml":
			if strings.Contains(f.Path, "crd") {
				crdKust = string(f.Content)
			}
		}
	}
	for _, want := range []string{"- name: https-443\n    port: 443\n    targetPort: 9443\n", "- name: https-8443\n    port: 8443\n    targetPort: 9443\n"} {
		if !strings.Contains(svc, want) {
			t.Errorf("service.yaml lacks\n%s\n%s", want, svc)
		}
	}
	if !strings.Contains(crdKust, "- example.com_gadgets.yaml\n- example.com_widgets.yaml\n") {
		t.Errorf("the CRDs' kustomization does not list both CRDs:\n%s", crdKust)
	}
}

// Every manifest of the kustomization decodes strictly into its Kubernetes
// type, and the webhook's pod is admitted at Pod Security "restricted".
func TestManifestsStrictAndRestricted(t *testing.T) {
	m, _ := load(t, "../../testdata/webhook")
	pods := 0
	for _, f := range generate(t, byDefault, m) {
		if f.Block || !strings.HasSuffix(f.Path, ".yaml") || filepath.Base(f.Path) == "kustomization.yaml" {
			continue // the kustomizations are kustomize's, not the API server's
		}
		objs, err := manifestcheck.Decode(f.Content)
		if err != nil {
			t.Errorf("%s: %v", f.Path, err)
		}
		for _, o := range objs {
			if d, ok := o.Typed.(*appsv1.Deployment); ok {
				pods++
				if err := manifestcheck.Restricted(&d.Spec.Template); err != nil {
					t.Errorf("%s: the pod %v", f.Path, err)
				}
			}
		}
	}
	if pods != 1 {
		t.Errorf("%d Deployments, want 1", pods)
	}
}

// TestMigrateRole: the ClusterRole beside the kustomization grants what
// crdforge migrate calls, each CRD by name (e2e's TestMigrateAsServiceAccount
// runs migrate with nothing else).
func TestMigrateRole(t *testing.T) {
	m, _ := load(t, "../../testdata/webhook")
	diags := diag.New(m.Fset)
	m2 := withSecondKind(t, m, diags, func(*model.Kind) {})
	var role *rbacv1.ClusterRole
	for _, f := range generate(t, byDefault, m2) {
		if filepath.ToSlash(f.Path) != "config/webhook/"+deploy.MigrateRoleFile {
			continue
		}
		objs, err := manifestcheck.Decode(f.Content)
		if err != nil || len(objs) != 1 {
			t.Fatalf("%s: %d objects, %v", f.Path, len(objs), err)
		}
		role = objs[0].Typed.(*rbacv1.ClusterRole)
	}
	if role == nil {
		t.Fatal("no " + deploy.MigrateRoleFile)
	}
	crds := []string{"gadgets.example.com", "widgets.example.com"}
	want := []rbacv1.PolicyRule{
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions"}, ResourceNames: crds, Verbs: []string{"get"}},
		{APIGroups: []string{"apiextensions.k8s.io"}, Resources: []string{"customresourcedefinitions/status"}, ResourceNames: crds, Verbs: []string{"update"}},
		{APIGroups: []string{"example.com"}, Resources: []string{"gadgets", "widgets"}, Verbs: []string{"get", "list", "update"}},
		{APIGroups: []string{"storagemigration.k8s.io"}, Resources: []string{"storageversionmigrations"}, Verbs: []string{"create", "delete", "get", "list"}},
	}
	if !reflect.DeepEqual(role.Rules, want) {
		t.Errorf("rules\n %+v\nwant\n %+v", role.Rules, want)
	}
	if role.Name != m.Webhook.Project+"-migrate" || role.Labels["app.kubernetes.io/part-of"] != m.Webhook.Project {
		t.Errorf("name %q, labels %v", role.Name, role.Labels)
	}
}
