package certwatch_test

import (
	"context"
	"crypto/x509"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook/internal/certwatch"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func TestReadCAPool(t *testing.T) {
	pki := testkit.NewPKI(t)
	pool, err := certwatch.ReadCAPool(pki.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(pki.Client.Certificate[0])
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("the client certificate does not verify against the pool: %v", err)
	}

	dir := t.TempDir()
	for name, content := range map[string]string{"empty": "", "garbage": "not PEM\n", "key only": string(pki.Serving1.Key)} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := certwatch.ReadCAPool(f); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
			t.Errorf("%s: got error %v", name, err)
		}
	}
	if _, err := certwatch.ReadCAPool(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing file was accepted")
	}
}

// TestCAPoolWithoutALogger polls a CA file with no logger given: a
// broken file and a rotated one are logged to slog.Default(), not a nil
// logger.
func TestCAPoolWithoutALogger(t *testing.T) {
	pki := testkit.NewPKI(t)
	log, logs := testkit.NewLogger()
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })

	caFile := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(caFile, testkit.PEM("CERTIFICATE", pki.CA.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := certwatch.NewCAPool(caFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.PollInterval = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		w.Start(ctx)
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	before := w.Pool()

	if err := os.WriteFile(caFile, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, "the broken CA file is reported", 5*time.Second, func() bool {
		return logs.Contains("cannot load the new client CA file")
	})
	if w.Pool() != before {
		t.Error("a broken CA file replaced the pool")
	}

	other, _ := testkit.NewCA(t, "rotated client CA")
	if err := os.WriteFile(caFile, testkit.PEM("CERTIFICATE", other.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	testkit.WaitUntil(t, "the rotated CA file is loaded", 5*time.Second, func() bool {
		return logs.Contains("reloaded client CA file")
	})
	if w.Pool() == before {
		t.Error("the rotated CA file left the pool as it was")
	}
}
