package pki

import (
	"crypto/x509"
	"net"
	"strings"
	"testing"
	"time"
)

func TestIssue(t *testing.T) {
	now := time.Now()
	ca, err := NewCA("test-ca", now, 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !ca.Cert.IsCA || len(ca.Cert.SubjectKeyId) == 0 || ca.Cert.PublicKeyAlgorithm != x509.ECDSA {
		t.Errorf("CA: IsCA %v, SKID %x, algorithm %v", ca.Cert.IsCA, ca.Cert.SubjectKeyId, ca.Cert.PublicKeyAlgorithm)
	}

	s, err := ca.Issue([]string{"svc.ns.svc", "127.0.0.1", "::1", "localhost"}, now, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Cert.DNSNames, " "); got != "svc.ns.svc localhost" {
		t.Errorf("DNS names %q", got)
	}
	if len(s.Cert.IPAddresses) != 2 || !s.Cert.IPAddresses[0].Equal(net.IPv4(127, 0, 0, 1)) || !s.Cert.IPAddresses[1].Equal(net.IPv6loopback) {
		t.Errorf("IP addresses %v", s.Cert.IPAddresses)
	}
	if s.Cert.IsCA || s.Cert.Subject.CommonName != "svc.ns.svc" {
		t.Errorf("serving certificate: IsCA %v, CN %q", s.Cert.IsCA, s.Cert.Subject.CommonName)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	if _, err := s.Cert.Verify(x509.VerifyOptions{DNSName: "svc.ns.svc", Roots: roots}); err != nil {
		t.Error(err)
	}

	// Never valid past the CA.
	s, err = ca.Issue([]string{"x"}, now, 365*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Cert.NotAfter.Equal(ca.Cert.NotAfter) {
		t.Errorf("serving certificate valid until %v, past its CA's %v", s.Cert.NotAfter, ca.Cert.NotAfter)
	}
	if _, err := ca.Issue([]string{"x"}, now.Add(72*time.Hour), time.Hour); err == nil || !strings.Contains(err.Error(), "the CA expired") {
		t.Errorf("issuing from an expired CA: %v", err)
	}
}

func TestLoadCA(t *testing.T) {
	now := time.Now()
	a, _ := NewCA("a", now, time.Hour)
	b, _ := NewCA("b", now, time.Hour)
	if ca, err := LoadCA(a.CertPEM, a.KeyPEM); err != nil || !ca.Cert.Equal(a.Cert) {
		t.Errorf("LoadCA of a CA's own files: %v", err)
	}
	if _, err := LoadCA(a.CertPEM, b.KeyPEM); err == nil || !strings.Contains(err.Error(), "does not belong") {
		t.Errorf("mismatched key: %v", err)
	}
	leaf, _ := a.Issue([]string{"x"}, now, time.Hour)
	if _, err := LoadCA(leaf.CertPEM, leaf.KeyPEM); err == nil || !strings.Contains(err.Error(), "not a CA") {
		t.Errorf("a serving certificate as CA: %v", err)
	}
	if _, err := LoadCA([]byte("junk"), a.KeyPEM); err == nil {
		t.Errorf("junk certificate accepted")
	}
}

func TestServiceDNSNames(t *testing.T) {
	got := strings.Join(ServiceDNSNames("svc", "ns"), " ")
	if got != "svc svc.ns svc.ns.svc svc.ns.svc.cluster.local" {
		t.Errorf("got %q", got)
	}
}
