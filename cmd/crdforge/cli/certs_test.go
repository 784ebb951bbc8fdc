package cli

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v2"
)

// runCerts runs crdforge certs in dir, as Main would once the command is
// registered, and returns its exit code and stderr.
func runCerts(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	t.Setenv("PWD", "")
	var errOut bytes.Buffer
	cmd := newCerts(&errOut)
	cmd.SetArgs(args)
	cmd.SetOut(&errOut)
	cmd.SetErr(&errOut)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	var ee exitError
	switch {
	case err == nil:
		return ExitOK, errOut.String()
	case errors.As(err, &ee):
		return ee.code, errOut.String()
	default:
		return ExitErrors, errOut.String() + "crdforge: " + err.Error() + "\n"
	}
}

func readCert(t *testing.T, p string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s holds no PEM", p)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// yamlGet walks a yaml.v2 document by keys.
func yamlGet(v any, keys ...string) any {
	for _, k := range keys {
		m, _ := v.(map[any]any)
		v = m[k]
	}
	return v
}

func TestCerts(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join(testdataDir, "webhook"))
	out := t.TempDir()
	before := snapshot(t, dir)

	code, stderr := runCerts(t, dir, "--out", out, "--host", "127.0.0.1", "--host", "widgets.example.test")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if after := snapshot(t, dir); !sameFiles(before, after) {
		t.Errorf("crdforge certs changed the source tree")
	}
	for _, name := range []string{"ca.crt", "ca.key", "tls.crt", "tls.key", "secret.yaml", "example.com_widgets.yaml", ".gitignore"} {
		if !strings.Contains(stderr, "wrote "+filepath.Join(out, name)+"\n") {
			t.Errorf("stderr does not say it wrote %s:\n%s", name, stderr)
		}
	}
	for name, mode := range map[string]os.FileMode{"ca.key": 0o600, "tls.key": 0o600, "secret.yaml": 0o600, "ca.crt": 0o644, "tls.crt": 0o644} {
		if fi, err := os.Stat(filepath.Join(out, name)); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, err %v; want %v", name, fi.Mode().Perm(), err, mode)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".*.crdforge-*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}

	ca := readCert(t, filepath.Join(out, "ca.crt"))
	verify := func(t *testing.T, ca *x509.Certificate) *x509.Certificate {
		t.Helper()
		leaf := readCert(t, filepath.Join(out, "tls.crt"))
		roots := x509.NewCertPool()
		roots.AddCert(ca)
		for _, name := range []string{
			"widget-conversion", "widget-conversion.widgets", "widget-conversion.widgets.svc",
			"widget-conversion.widgets.svc.cluster.local", "widgets.example.test", "127.0.0.1",
		} {
			if _, err := leaf.Verify(x509.VerifyOptions{DNSName: name, Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
				t.Errorf("tls.crt does not verify for %s against ca.crt: %v", name, err)
			}
		}
		if !slices.ContainsFunc(leaf.IPAddresses, func(ip net.IP) bool { return ip.Equal(net.ParseIP("127.0.0.1")) }) || slices.Contains(leaf.DNSNames, "127.0.0.1") {
			t.Errorf("127.0.0.1 is not an IP SAN: IPs %v, DNS %v", leaf.IPAddresses, leaf.DNSNames)
		}
		if d := time.Until(leaf.NotAfter); d < 364*24*time.Hour || d > 366*24*time.Hour {
			t.Errorf("serving certificate valid for %v, want a year", d)
		}
		if _, err := tls.LoadX509KeyPair(filepath.Join(out, "tls.crt"), filepath.Join(out, "tls.key")); err != nil {
			t.Errorf("tls.crt and tls.key do not make a key pair: %v", err)
		}
		return leaf
	}
	leaf1 := verify(t, ca)

	// The CRD copy: caBundle is ca.crt, and cert-manager's annotation is gone.
	var c any
	if err := yaml.Unmarshal(read(t, filepath.Join(out, "example.com_widgets.yaml")), &c); err != nil {
		t.Fatal(err)
	}
	bundle, err := base64.StdEncoding.DecodeString(yamlGet(c, "spec", "conversion", "webhook", "clientConfig", "caBundle").(string))
	if err != nil || !bytes.Equal(bundle, read(t, filepath.Join(out, "ca.crt"))) {
		t.Errorf("the CRD's caBundle is not ca.crt (err %v)", err)
	}
	if a := yamlGet(c, "metadata", "annotations"); a != nil {
		t.Errorf("the CRD still has annotations %v", a)
	}
	if s := yamlGet(c, "spec", "conversion", "webhook", "clientConfig", "service", "name"); s != "widget-conversion" {
		t.Errorf("the CRD's webhook Service is %v", s)
	}

	// The Secret.
	var s any
	if err := yaml.Unmarshal(read(t, filepath.Join(out, "secret.yaml")), &s); err != nil {
		t.Fatal(err)
	}
	if yamlGet(s, "kind") != "Secret" || yamlGet(s, "type") != "kubernetes.io/tls" ||
		yamlGet(s, "metadata", "name") != "widget-conversion-cert" || yamlGet(s, "metadata", "namespace") != "widgets" {
		t.Errorf("secret.yaml: %v", s)
	}
	for key, file := range map[string]string{"tls.crt": "tls.crt", "tls.key": "tls.key", "ca.crt": "ca.crt"} {
		v, _ := yamlGet(s, "data", key).(string)
		if b, err := base64.StdEncoding.DecodeString(v); err != nil || !bytes.Equal(b, read(t, filepath.Join(out, file))) {
			t.Errorf("secret.yaml's %s is not %s", key, file)
		}
	}

	// A second run reuses the CA and issues a new serving certificate.
	caKey := read(t, filepath.Join(out, "ca.key"))
	code, stderr = runCerts(t, dir, "--out", out, "--host", "127.0.0.1", "--host", "widgets.example.test")
	if code != ExitOK {
		t.Fatalf("second run: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "reused the CA in "+filepath.Join(out, "ca.crt")) || strings.Contains(stderr, "wrote "+filepath.Join(out, "ca.key")) {
		t.Errorf("second run does not say it reused the CA:\n%s", stderr)
	}
	if !readCert(t, filepath.Join(out, "ca.crt")).Equal(ca) || !bytes.Equal(read(t, filepath.Join(out, "ca.key")), caKey) {
		t.Errorf("second run replaced the CA")
	}
	if leaf2 := verify(t, ca); leaf2.Equal(leaf1) {
		t.Errorf("second run did not issue a new serving certificate")
	}

	// --force-ca makes a new one.
	if code, stderr = runCerts(t, dir, "--out", out, "--force-ca"); code != ExitOK {
		t.Fatalf("--force-ca: exit %d\n%s", code, stderr)
	}
	ca3 := readCert(t, filepath.Join(out, "ca.crt"))
	if ca3.Equal(ca) {
		t.Errorf("--force-ca kept the CA")
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca3)
	if _, err := readCert(t, filepath.Join(out, "tls.crt")).Verify(x509.VerifyOptions{DNSName: "widget-conversion.widgets.svc", Roots: roots}); err != nil {
		t.Errorf("after --force-ca, tls.crt does not chain to the new CA: %v", err)
	}
}

func TestCertsDefaultsAndErrors(t *testing.T) {
	// Absolute paths first: runCerts changes the working directory.
	crontab, _ := filepath.Abs("../../../examples/crontab")
	identical, _ := filepath.Abs(filepath.Join(testdataDir, "identical"))
	out := t.TempDir()
	if code, stderr := runCerts(t, crontab, "--out", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	leaf := readCert(t, filepath.Join(out, "tls.crt"))
	want := []string{"crontab-webhook-service", "crontab-webhook-service.crontab-system", "crontab-webhook-service.crontab-system.svc", "crontab-webhook-service.crontab-system.svc.cluster.local"}
	if !slices.Equal(leaf.DNSNames, want) || len(leaf.IPAddresses) != 0 {
		t.Errorf("DNS names %v, IPs %v; want %v and none", leaf.DNSNames, leaf.IPAddresses, want)
	}
	if _, err := os.Stat(filepath.Join(out, "example.com_crontabs.yaml")); err != nil {
		t.Error(err)
	}

	// A CA whose key does not match.
	other := t.TempDir()
	if code, stderr := runCerts(t, crontab, "--out", other); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "ca.key"), read(t, filepath.Join(other, "ca.key")), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stderr := runCerts(t, crontab, "--out", out)
	if code != ExitErrors || !strings.Contains(stderr, "the CA key does not belong to the CA certificate") || !strings.Contains(stderr, "--force-ca") {
		t.Errorf("mismatched CA key: exit %d, stderr %q", code, stderr)
	}
	if err := os.Remove(filepath.Join(out, "ca.key")); err != nil {
		t.Fatal(err)
	}
	code, stderr = runCerts(t, crontab, "--out", out)
	if code != ExitErrors || !strings.Contains(stderr, "holds only one of ca.crt and ca.key") {
		t.Errorf("missing CA key: exit %d, stderr %q", code, stderr)
	}
	if code, stderr = runCerts(t, crontab, "--out", out, "--force-ca"); code != ExitOK {
		t.Errorf("--force-ca with a broken CA: exit %d\n%s", code, stderr)
	}

	// No webhook at all.
	empty := t.TempDir()
	code, stderr = runCerts(t, identical, "--out", empty)
	if code != ExitErrors || !strings.Contains(stderr, "no kind converts through a webhook") {
		t.Errorf("no webhook: exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("wrote files although there is no webhook")
	}
}

// crdforge certs writes no private key into a Docker build context that
// has no ignore file, where `COPY . .` would take it into the image's
// build stage; once crdforge generate has written the Dockerfile's own
// ignore file, it does.
func TestCertsRefusesKeysInABuildContext(t *testing.T) {
	dir := scratchCase(t, "webhook")
	code, _, stderr := run(t, dir, "certs", "./...")
	if code != ExitErrors || !strings.Contains(stderr, "has no .dockerignore") || !strings.Contains(stderr, filepath.Join("cmd", "webhook", "Dockerfile.dockerignore")) {
		t.Errorf("certs in a build context without .dockerignore: exit %d, want %d\n%s", code, ExitErrors, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, DefaultCertsDir)); err == nil {
		t.Errorf("certs refused, yet wrote %s", DefaultCertsDir)
	}
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
		t.Fatalf("generate: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := run(t, dir, "certs", "./..."); code != ExitOK {
		t.Errorf("certs after generate wrote the Dockerfile's ignore file: exit %d\n%s", code, stderr)
	}
}

// --renew issues the serving certificate and its Secret alone, from the CA
// --out holds: the CA and the CRDs, whose caBundle is that CA, stay as they
// are, so that the API server trusts both the old serving certificate and
// the new one while the kubelet updates the mounted Secret. Without a CA it
// makes none, which would change every caBundle, and writes nothing.
func TestCertsRenew(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join(testdataDir, "webhook"))
	out := t.TempDir()
	if code, stderr := runCerts(t, dir, "--out", out); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	kept := map[string][]byte{}
	for _, name := range []string{"ca.crt", "ca.key", "example.com_widgets.yaml", "kustomization.yaml", ".gitignore"} {
		kept[name] = read(t, filepath.Join(out, name))
	}
	leaf := read(t, filepath.Join(out, "tls.crt"))

	code, stderr := runCerts(t, dir, "--out", out, "--renew")
	if code != ExitOK {
		t.Fatalf("--renew: exit %d\n%s", code, stderr)
	}
	var wrote []string
	for _, l := range strings.Split(stderr, "\n") {
		if name, ok := strings.CutPrefix(l, "wrote "+out+string(filepath.Separator)); ok {
			wrote = append(wrote, name)
		}
	}
	if !slices.Equal(wrote, []string{"tls.crt", "tls.key", "secret.yaml"}) {
		t.Errorf("--renew wrote %v, want tls.crt, tls.key and secret.yaml alone:\n%s", wrote, stderr)
	}
	for name, before := range kept {
		if !bytes.Equal(read(t, filepath.Join(out, name)), before) {
			t.Errorf("--renew changed %s", name)
		}
	}
	renewed := read(t, filepath.Join(out, "tls.crt"))
	if bytes.Equal(renewed, leaf) {
		t.Errorf("--renew issued no new serving certificate")
	}
	roots := x509.NewCertPool()
	roots.AddCert(readCert(t, filepath.Join(out, "ca.crt")))
	if _, err := readCert(t, filepath.Join(out, "tls.crt")).Verify(x509.VerifyOptions{DNSName: "widget-conversion.widgets.svc", Roots: roots}); err != nil {
		t.Errorf("the renewed tls.crt does not chain to the kept CA: %v", err)
	}

	empty := t.TempDir()
	code, stderr = runCerts(t, dir, "--out", empty, "--renew")
	if code != ExitErrors || !strings.Contains(stderr, "holds no CA") || !strings.Contains(stderr, "without --renew") {
		t.Errorf("--renew without a CA: exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(empty); len(entries) != 0 {
		t.Errorf("--renew without a CA wrote files")
	}
	if code, stderr = runCerts(t, dir, "--out", out, "--renew", "--force-ca"); code != ExitErrors || !strings.Contains(stderr, "give one of them") {
		t.Errorf("--renew --force-ca: exit %d, stderr %q", code, stderr)
	}
}
