package testkit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// PKI is a CA with the certificates the tests need, all generated on the
// fly.
type PKI struct {
	CA       *x509.Certificate
	CAKey    *ecdsa.PrivateKey
	CAPool   *x509.CertPool
	CAFile   string // the CA certificate, PEM
	Serving1 Pair   // for 127.0.0.1, ::1 and localhost
	Serving2 Pair   // the same names, another key: the rotated certificate
	Client   tls.Certificate
	Stranger tls.Certificate // a client certificate from another CA
}

// Pair is a PEM certificate and key.
type Pair struct {
	Cert, Key []byte
	Serial    *big.Int
}

// NewPKI creates a PKI, its CA certificate written to a temporary file.
func NewPKI(t testing.TB) *PKI {
	t.Helper()
	ca, caKey := NewCA(t, "crdforge test CA")
	other, otherKey := NewCA(t, "some other CA")
	p := &PKI{CA: ca, CAKey: caKey, CAPool: x509.NewCertPool(), CAFile: filepath.Join(t.TempDir(), "ca.crt")}
	p.CAPool.AddCert(ca)
	if err := os.WriteFile(p.CAFile, PEM("CERTIFICATE", ca.Raw), 0o600); err != nil {
		t.Fatal(err)
	}
	p.Serving1 = NewLeaf(t, ca, caKey, 1001, "webhook", x509.ExtKeyUsageServerAuth)
	p.Serving2 = NewLeaf(t, ca, caKey, 1002, "webhook", x509.ExtKeyUsageServerAuth)
	p.Client = KeyPair(t, NewLeaf(t, ca, caKey, 2001, "kube-apiserver", x509.ExtKeyUsageClientAuth))
	p.Stranger = KeyPair(t, NewLeaf(t, other, otherKey, 3001, "kube-apiserver", x509.ExtKeyUsageClientAuth))
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

// NewCA creates a self-signed CA valid from an hour ago for a day.
func NewCA(t testing.TB, name string) (*x509.Certificate, *ecdsa.PrivateKey) {
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

// NewLeaf creates a certificate signed by ca, valid from an hour ago for a
// day. A server certificate is for 127.0.0.1, ::1 and localhost.
func NewLeaf(t testing.TB, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64, cn string, usage x509.ExtKeyUsage) Pair {
	t.Helper()
	return NewLeafValidity(t, ca, caKey, serial, cn, usage, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
}

// NewLeafValidity is NewLeaf with the given validity.
func NewLeafValidity(t testing.TB, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64, cn string, usage x509.ExtKeyUsage, notBefore, notAfter time.Time) Pair {
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
	return Pair{Cert: PEM("CERTIFICATE", der), Key: PEM("PRIVATE KEY", keyDER), Serial: big.NewInt(serial)}
}

// PEM encodes one block.
func PEM(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// KeyPair parses p for a tls.Config.
func KeyPair(t testing.TB, p Pair) tls.Certificate {
	t.Helper()
	c, err := tls.X509KeyPair(p.Cert, p.Key)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// WritePair writes a pair in place as dir/tls.crt and dir/tls.key.
func WritePair(t testing.TB, dir string, p Pair) {
	t.Helper()
	for name, data := range map[string][]byte{"tls.crt": p.Cert, "tls.key": p.Key} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// CertDir is a fresh directory holding p as tls.crt and tls.key.
func CertDir(t testing.TB, p Pair) string {
	t.Helper()
	dir := t.TempDir()
	WritePair(t, dir, p)
	return dir
}

// WriteSecretVolume updates dir the way the kubelet updates a Secret
// volume: the files go to a fresh hidden directory, the ..data symlink is
// swapped to it atomically, and tls.crt and tls.key are symlinks through
// ..data.
func WriteSecretVolume(t testing.TB, dir string, p Pair) {
	t.Helper()
	old, _ := os.Readlink(filepath.Join(dir, "..data"))
	ts, err := os.MkdirTemp(dir, "..ts_")
	if err != nil {
		t.Fatal(err)
	}
	WritePair(t, ts, p)
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
