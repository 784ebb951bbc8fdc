package certwatch_test

import (
	"context"
	"crypto/x509"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crdforge/crdforge/webhook/internal/certwatch"
	"github.com/crdforge/crdforge/webhook/internal/testkit"
)

func servedSerial(w *certwatch.KeyPair) *big.Int {
	c, _ := w.GetCertificate(nil)
	return c.Leaf.SerialNumber
}

func TestKeyPairLoadsAValidPairOnly(t *testing.T) {
	pki := testkit.NewPKI(t)
	dir := t.TempDir()
	testkit.WritePair(t, dir, pki.Serving1)
	crt, key := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	log, _ := testkit.NewLogger()

	w, err := certwatch.NewKeyPair(crt, key, log)
	if err != nil {
		t.Fatal(err)
	}
	if got := servedSerial(w); got.Cmp(pki.Serving1.Serial) != 0 {
		t.Errorf("serial %v, want %v", got, pki.Serving1.Serial)
	}

	// An expired pair loads, with a warning.
	expired := testkit.NewLeafValidity(t, pki.CA, pki.CAKey, 1003, "webhook", x509.ExtKeyUsageServerAuth, time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour))
	expiredDir := t.TempDir()
	testkit.WritePair(t, expiredDir, expired)
	log2, logs := testkit.NewLogger()
	if _, err := certwatch.NewKeyPair(filepath.Join(expiredDir, "tls.crt"), filepath.Join(expiredDir, "tls.key"), log2); err != nil {
		t.Errorf("an expired pair: %v", err)
	}
	if !logs.Contains(`"level":"WARN","msg":"loaded serving certificate, which is not valid now"`) {
		t.Errorf("an expired certificate was not warned about:\n%s", logs)
	}

	mismatched := filepath.Join(dir, "other.key")
	if err := os.WriteFile(mismatched, pki.Serving2.Key, 0o600); err != nil {
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
		if _, err := certwatch.NewKeyPair(files[0], files[1], log); err == nil {
			t.Errorf("%s: NewKeyPair succeeded", name)
		}
	}
}

func TestKeyPairFollowsSecretVolumeUpdates(t *testing.T) {
	pki := testkit.NewPKI(t)
	dir := t.TempDir()
	testkit.WriteSecretVolume(t, dir, pki.Serving1)
	log, logs := testkit.NewLogger()
	w, err := certwatch.NewKeyPair(filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key"), log)
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

	// The kubelet's atomic ..data symlink swap.
	testkit.WriteSecretVolume(t, dir, pki.Serving2)
	testkit.WaitUntil(t, "the rotated certificate is served", 5*time.Second, func() bool {
		return servedSerial(w).Cmp(pki.Serving2.Serial) == 0
	})
	if !logs.Contains("reloaded serving certificate") || !logs.Contains(`"serial":"1002"`) {
		t.Errorf("no reload logged:\n%s", logs)
	}

	// A broken pair, here the new certificate with the old key, is
	// reported and the current certificate stays.
	broken := testkit.Pair{Cert: pki.Serving1.Cert, Key: pki.Serving2.Key}
	testkit.WriteSecretVolume(t, dir, broken)
	testkit.WaitUntil(t, "the broken pair is reported", 5*time.Second, func() bool {
		return logs.Contains("keeping the previous one")
	})
	if got := servedSerial(w); got.Cmp(pki.Serving2.Serial) != 0 {
		t.Errorf("after a broken update, serial %v is served, want %v", got, pki.Serving2.Serial)
	}

	// An in-place rewrite is noticed too.
	testkit.WritePair(t, filepath.Join(dir, "..data"), pki.Serving1)
	testkit.WaitUntil(t, "the rewritten certificate is served", 5*time.Second, func() bool {
		return servedSerial(w).Cmp(pki.Serving1.Serial) == 0
	})

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("Start did not return after cancellation")
	}
}
