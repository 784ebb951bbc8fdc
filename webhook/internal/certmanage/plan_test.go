package certmanage

import (
	"bytes"
	"crypto/x509"
	"strings"
	"testing"
	"time"
)

var testPolicy = Policy{
	Hosts:      []string{"svc.ns.svc", "127.0.0.1"},
	CAValidity: 30 * time.Hour, LeafValidity: 3 * time.Hour,
	Overlap:    time.Hour,
	CommonName: "test-ca",
}

// step runs Next at now and fails t unless the reasons are want ("" for
// no change).
func step(t *testing.T, s State, now time.Time, want string) State {
	t.Helper()
	next, why, err := Next(s, testPolicy, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(why, ", "); got != want {
		t.Fatalf("at %s: changes %q, want %q", now.Format(time.Kitchen), got, want)
	}
	return next
}

// trusted fails t unless leaf verifies against bundle at now.
func trusted(t *testing.T, bundle []byte, leaf *x509.Certificate, now time.Time) {
	t.Helper()
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(bundle) {
		t.Fatal("the bundle holds no certificate")
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: "svc.ns.svc", CurrentTime: now}); err != nil {
		t.Fatalf("at %s: %v", now.Format(time.Kitchen), err)
	}
}

// TestNextLifecycle walks a Secret through its life on a fake clock: first
// issuance, a quiet period, leaf renewals, a CA rotation with its overlap,
// and the overlap's end; at every step a leaf of the state before is
// trusted by the bundle of the union and the new leaf by the new bundle.
func TestNextLifecycle(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := step(t, State{}, t0, "no CA, no serving certificate")
	trusted(t, s.Bundle(), s.Leaf.Cert, t0)
	s = step(t, s, t0.Add(time.Hour), "")

	// A third of the leaf's 3h is left at 2h.
	before := s
	s = step(t, s, t0.Add(2*time.Hour), "serving certificate renewal")
	if !s.CA.Cert.Equal(before.CA.Cert) || s.Leaf.Cert.Equal(before.Leaf.Cert) {
		t.Fatal("a leaf renewal must keep the CA and change the leaf")
	}

	// A third of the CA's 30h is left at 20h.
	at := t0.Add(20 * time.Hour)
	before = step(t, s, at.Add(-time.Minute), "serving certificate renewal")
	s = step(t, before, at, "CA rotation, serving certificate of another CA")
	if s.Previous == nil || !s.Previous.Equal(before.CA.Cert) || !s.RotatedAt.Equal(at) {
		t.Fatalf("the rotation kept no previous CA: %+v", s)
	}
	// Replicas serve either leaf until they sync: both are trusted by the
	// bundle written before the Secret, and by the one after.
	for _, b := range [][]byte{union(before.Bundle(), s.Bundle()), s.Bundle()} {
		trusted(t, b, before.Leaf.Cert, at)
		trusted(t, b, s.Leaf.Cert, at)
	}
	s = step(t, s, at.Add(testPolicy.Overlap-time.Second), "")
	s = step(t, s, at.Add(testPolicy.Overlap), "the previous CA's overlap ended")
	if got := len(splitPEM(s.Bundle())); got != 1 {
		t.Fatalf("after the overlap the bundle holds %d CAs", got)
	}
	trusted(t, s.Bundle(), s.Leaf.Cert, at.Add(testPolicy.Overlap))
}

func TestNextReplacesWhatIsWrong(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := step(t, State{}, t0, "no CA, no serving certificate")
	other := step(t, State{}, t0, "no CA, no serving certificate")

	mixed := s
	mixed.Leaf = other.Leaf
	step(t, mixed, t0, "serving certificate of another CA")

	p := testPolicy
	p.Hosts = []string{"other.ns.svc"}
	if _, why, _ := Next(s, p, t0); strings.Join(why, ",") != "serving certificate for other hosts" {
		t.Errorf("new hosts: %q", why)
	}
}

func TestSecretRoundTrip(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	s := step(t, State{}, t0, "no CA, no serving certificate")
	s = step(t, s, t0.Add(20*time.Hour), "CA rotation, serving certificate of another CA")
	data, ann := map[string][]byte{"other": []byte("kept")}, map[string]string{}
	encode(s, data, ann)
	got := decode(data, ann)
	if !bytes.Equal(got.Bundle(), s.Bundle()) || !got.Leaf.Cert.Equal(s.Leaf.Cert) || !got.RotatedAt.Equal(s.RotatedAt) {
		t.Errorf("decode(encode(s)) differs from s")
	}
	if string(data["other"]) != "kept" {
		t.Error("encode dropped a key it does not own")
	}
	// No change once decoded: the Secret is not rewritten on every check.
	step(t, got, t0.Add(20*time.Hour+time.Minute), "")

	// A broken Secret starts again rather than stopping the webhook.
	data[keyCAKey] = []byte("junk")
	if got := decode(data, ann); got.CA != nil || got.Leaf != nil {
		t.Errorf("a CA whose key does not load was kept")
	}
}

func TestUnion(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	a := step(t, State{}, t0, "no CA, no serving certificate").Bundle()
	b := step(t, State{}, t0, "no CA, no serving certificate").Bundle()
	if got := len(splitPEM(union(a, b))); got != 2 {
		t.Errorf("union of two CAs holds %d", got)
	}
	if !bytes.Equal(union(a, a), a) {
		t.Error("union of a bundle with itself changed it")
	}
}
