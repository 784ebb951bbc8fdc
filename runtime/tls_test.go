package runtime_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdforge/crdforge/runtime"
)

// testPKI is a CA with the certificates the tests need, all generated on the
// fly.
type testPKI struct {
	ca       *x509.Certificate
	caKey    *ecdsa.PrivateKey
	caPool   *x509.CertPool
	caFile   string   // the CA certificate, PEM
	serving1 certPair // for 127.0.0.1, ::1 and localhost
	serving2 certPair // the same names, another key: the rotated certificate
	client   tls.Certificate
	stranger tls.Certificate // a client certificate from another CA
}

// certPair is a PEM certificate and key.
type certPair struct {
	cert, key []byte
	serial    *big.Int
}

func newTestPKI(t testing.TB) *testPKI {
	t.Helper()
	ca, caKey := newCA(t, "crdforge test CA")
	other, otherKey := newCA(t, "some other CA")
	p := &testPKI{ca: ca, caKey: caKey, caPool: x509.NewCertPool(), caFile: filepath.Join(t.TempDir(), "ca.crt")}
	p.caPool.AddCert(ca)
	if err := os.WriteFile(p.caFile, pemBlock("CERTIFICATE", ca.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	p.serving1 = newLeaf(t, ca, caKey, 1001, "webhook", x509.ExtKeyUsageServerAuth)
	p.serving2 = newLeaf(t, ca, caKey, 1002, "webhook", x509.ExtKeyUsageServerAuth)
	p.client = mustKeyPair(t, newLeaf(t, ca, caKey, 2001, "kube-apiserver", x509.ExtKeyUsageClientAuth))
	p.stranger = mustKeyPair(t, newLeaf(t, other, otherKey, 3001, "kube-apiserver", x509.ExtKeyUsageClientAuth))
	return p
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func newCA(t testing.TB, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return ca, key
}

func newLeaf(t testing.TB, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64, cn string, usage x509.ExtKeyUsage) certPair {
	t.Helper()
	return newLeafValidity(t, ca, caKey, serial, cn, usage, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
}

func newLeafValidity(t testing.TB, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64, cn string, usage x509.ExtKeyUsage, notBefore, notAfter time.Time) certPair {
	t.Helper()
	key := newKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
	}
	if usage == x509.ExtKeyUsageServerAuth {
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return certPair{cert: pemBlock("CERTIFICATE", der), key: pemBlock("PRIVATE KEY", keyDER), serial: big.NewInt(serial)}
}

func pemBlock(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func mustKeyPair(t testing.TB, p certPair) tls.Certificate {
	t.Helper()
	c, err := tls.X509KeyPair(p.cert, p.key)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// writePair writes a pair in place as dir/tls.crt and dir/tls.key.
func writePair(t testing.TB, dir string, p certPair) {
	t.Helper()
	for name, data := range map[string][]byte{"tls.crt": p.cert, "tls.key": p.key} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// writeSecretVolume updates dir the way the kubelet updates a Secret
// volume: the files go to a fresh hidden directory, the ..data symlink is
// swapped to it atomically, and tls.crt and tls.key are symlinks through
// ..data.
func writeSecretVolume(t testing.TB, dir string, p certPair) {
	t.Helper()
	old, _ := os.Readlink(filepath.Join(dir, "..data"))
	ts, err := os.MkdirTemp(dir, "..ts_")
	if err != nil {
		t.Fatal(err)
	}
	writePair(t, ts, p)
	tmp := filepath.Join(dir, "..data_tmp")
	if err := os.Symlink(filepath.Base(ts), tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"tls.crt", "tls.key"} {
		link := filepath.Join(dir, name)
		if _, err := os.Lstat(link); os.IsNotExist(err) {
			if err := os.Symlink(filepath.Join("..data", name), link); err != nil {
				t.Fatal(err)
			}
		}
	}
	if old != "" {
		if err := os.RemoveAll(filepath.Join(dir, old)); err != nil {
			t.Fatal(err)
		}
	}
}

// logBuffer collects log output for assertions; it outlives the test,
// unlike t.Log.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) contains(s string) bool { return strings.Contains(b.String(), s) }

func newTestLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

// waitUntil polls cond until it holds, failing the test after timeout.
func waitUntil(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting until %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func servedSerial(w *runtime.CertWatcher) *big.Int {
	c, _ := w.GetCertificate(nil)
	return c.Leaf.SerialNumber
}

func TestTLSCertWatcherLoadsAValidPairOnly(t *testing.T) {
	pki := newTestPKI(t)
	dir := t.TempDir()
	writePair(t, dir, pki.serving1)
	crt, key := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	log, _ := newTestLogger()

	w, err := runtime.NewCertWatcher(crt, key, log)
	if err != nil {
		t.Fatal(err)
	}
	if got := servedSerial(w); got.Cmp(pki.serving1.serial) != 0 {
		t.Errorf("serial %v, want %v", got, pki.serving1.serial)
	}

	// An expired pair loads, with a warning.
	expired := newLeafValidity(t, pki.ca, pki.caKey, 1003, "webhook", x509.ExtKeyUsageServerAuth, time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour))
	expiredDir := t.TempDir()
	writePair(t, expiredDir, expired)
	log2, logs := newTestLogger()
	if _, err := runtime.NewCertWatcher(filepath.Join(expiredDir, "tls.crt"), filepath.Join(expiredDir, "tls.key"), log2); err != nil {
		t.Errorf("an expired pair: %v", err)
	}
	if !logs.contains(`"level":"WARN","msg":"loaded serving certificate, which is not valid now"`) {
		t.Errorf("an expired certificate was not warned about:\n%s", logs)
	}

	mismatched := filepath.Join(dir, "other.key")
	if err := os.WriteFile(mismatched, pki.serving2.key, 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage")
	if err := os.WriteFile(garbage, []byte("not PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, files := range map[string][2]string{
		"missing certificate": {filepath.Join(dir, "nope.crt"), key},
		"missing key":         {crt, filepath.Join(dir, "nope.key")},
		"mismatched key":      {crt, mismatched},
		"garbage certificate": {garbage, key},
		"garbage key":         {crt, garbage},
	} {
		if _, err := runtime.NewCertWatcher(files[0], files[1], log); err == nil {
			t.Errorf("%s: NewCertWatcher succeeded", name)
		}
	}
}

func TestTLSCertWatcherFollowsSecretVolumeUpdates(t *testing.T) {
	pki := newTestPKI(t)
	dir := t.TempDir()
	writeSecretVolume(t, dir, pki.serving1)
	log, logs := newTestLogger()
	w, err := runtime.NewCertWatcher(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"), log)
	if err != nil {
		t.Fatal(err)
	}
	w.PollInterval = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- w.Start(ctx) }()

	// The kubelet's atomic ..data symlink swap.
	writeSecretVolume(t, dir, pki.serving2)
	waitUntil(t, "the rotated certificate is served", 5*time.Second, func() bool {
		return servedSerial(w).Cmp(pki.serving2.serial) == 0
	})
	if !logs.contains("reloaded serving certificate") || !logs.contains(`"serial":"1002"`) {
		t.Errorf("no reload logged:\n%s", logs)
	}

	// A broken pair, here the new certificate with the old key, is
	// reported and the current certificate stays.
	broken := certPair{cert: pki.serving1.cert, key: pki.serving2.key}
	writeSecretVolume(t, dir, broken)
	waitUntil(t, "the broken pair is reported", 5*time.Second, func() bool {
		return logs.contains("keeping the previous one")
	})
	if got := servedSerial(w); got.Cmp(pki.serving2.serial) != 0 {
		t.Errorf("after a broken update, serial %v is served, want %v", got, pki.serving2.serial)
	}

	// An in-place rewrite is noticed too.
	writePair(t, filepath.Join(dir, "..data"), pki.serving1)
	waitUntil(t, "the rewritten certificate is served", 5*time.Second, func() bool {
		return servedSerial(w).Cmp(pki.serving1.serial) == 0
	})

	cancel()
	if err := <-done; err != nil {
		t.Errorf("Start returned %v after cancellation", err)
	}
}

func TestTLSClientCAPool(t *testing.T) {
	pki := newTestPKI(t)
	pool, err := runtime.ClientCAPool(pki.caFile)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(pki.client.Certificate[0])
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the client certificate does not verify against the pool: %v", err)
	}

	dir := t.TempDir()
	for name, content := range map[string]string{"empty": "", "garbage": "not PEM\n", "key only": string(pki.serving1.key)} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := runtime.ClientCAPool(f); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
			t.Errorf("%s: got error %v", name, err)
		}
	}
	if _, err := runtime.ClientCAPool(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was accepted")
	}
}

// TestTLSCAWatcherWithoutALogger polls a CA file with no logger given: a
// broken file and a rotated one are logged to slog.Default(), not a nil
// logger.
func TestTLSCAWatcherWithoutALogger(t *testing.T) {
	pki := newTestPKI(t)
	log, logs := newTestLogger()
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })

	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, pemBlock("CERTIFICATE", pki.ca.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := runtime.NewCAWatcher(caFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.PollInterval = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- w.Start(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	before := w.Pool()

	if err := os.WriteFile(caFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the broken CA file is reported", 5*time.Second, func() bool {
		return logs.contains("cannot load the new client CA file")
	})
	if w.Pool() != before {
		t.Error("a broken CA file replaced the pool")
	}

	other, _ := newCA(t, "rotated client CA")
	if err := os.WriteFile(caFile, pemBlock("CERTIFICATE", other.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the rotated CA file is loaded", 5*time.Second, func() bool {
		return logs.contains("reloaded client CA file")
	})
	if w.Pool() == before {
		t.Error("the rotated CA file left the pool as it was")
	}
}
