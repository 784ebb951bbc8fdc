package certmanage

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdforge/crdforge/webhook/pki"
)

// The keys of the Secret. tls.crt, tls.key and ca.crt are those of a
// kubernetes.io/tls Secret as cert-manager writes it; ca.key is the CA's
// key, which only the elected replica uses, and previous-ca.crt the CA a
// rotation replaced, while it overlaps.
const (
	keyCert       = "tls.crt"
	keyKey        = "tls.key"
	keyCACert     = "ca.crt"
	keyCAKey      = "ca.key"
	keyPreviousCA = "previous-ca.crt"
)

// rotatedAtAnnotation records State.RotatedAt on the Secret, RFC 3339.
const rotatedAtAnnotation = "crdforge.io/ca-rotated-at"

// decode reads a State from a Secret's data and annotations. What does not
// load is left out, and Next replaces it: a Secret a user emptied or broke
// gets new certificates rather than stopping the webhook.
func decode(data map[string][]byte, annotations map[string]string) State {
	var s State
	if ca, err := pki.LoadCA(data[keyCACert], data[keyCAKey]); err == nil {
		s.CA = ca
	}
	if s.CA != nil {
		if leaf, err := pki.LoadServing(data[keyCert], data[keyKey]); err == nil {
			s.Leaf = leaf
		}
	}
	if certs := parseCerts(data[keyPreviousCA]); len(certs) == 1 {
		at, err := time.Parse(time.RFC3339, annotations[rotatedAtAnnotation])
		if err == nil {
			s.Previous, s.RotatedAt = certs[0], at
		}
	}
	return s
}

// encode writes s into a Secret's data and annotations, replacing what
// encode owns and leaving the rest.
func encode(s State, data map[string][]byte, annotations map[string]string) {
	data[keyCACert], data[keyCAKey] = s.CA.CertPEM, s.CA.KeyPEM
	data[keyCert], data[keyKey] = s.Leaf.CertPEM, s.Leaf.KeyPEM
	delete(data, keyPreviousCA)
	delete(annotations, rotatedAtAnnotation)
	if s.Previous != nil {
		data[keyPreviousCA] = pemOf(s.Previous)
		annotations[rotatedAtAnnotation] = s.RotatedAt.UTC().Format(time.RFC3339Nano)
	}
}

func pemOf(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// splitPEM returns each CERTIFICATE block of b, PEM-encoded alone.
func splitPEM(b []byte) [][]byte {
	var out [][]byte
	for {
		var block *pem.Block
		if block, b = pem.Decode(b); block == nil {
			return out
		}
		if block.Type == "CERTIFICATE" {
			out = append(out, pem.EncodeToMemory(block))
		}
	}
}

// parseCerts parses each certificate of a PEM bundle, leaving out what
// does not parse.
func parseCerts(b []byte) []*x509.Certificate {
	var out []*x509.Certificate
	for _, p := range splitPEM(b) {
		block, _ := pem.Decode(p)
		if c, err := x509.ParseCertificate(block.Bytes); err == nil {
			out = append(out, c)
		}
	}
	return out
}

// secret is the Secret as the dynamic client reads it, with its data
// decoded.
type secret struct {
	obj  *unstructured.Unstructured
	data map[string][]byte
}

// newSecret is the Secret check creates where none is: Opaque, since a
// kubernetes.io/tls Secret must hold tls.crt and tls.key from the start.
func newSecret(namespace, name string) secret {
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "type": "Opaque"}}
	obj.SetNamespace(namespace)
	obj.SetName(name)
	return secret{obj: obj, data: map[string][]byte{}}
}

// getSecret reads the Secret and decodes its data; a value that is not
// base64 is left out, as decode leaves out what does not load.
func (m *manager) getSecret(ctx context.Context) (secret, error) {
	obj, err := m.secrets.Get(ctx, m.Secret, metav1.GetOptions{})
	if err != nil {
		return secret{}, err
	}
	raw, _, err := unstructured.NestedStringMap(obj.Object, "data")
	if err != nil {
		return secret{}, fmt.Errorf("secret %s/%s: %w", m.Namespace, m.Secret, err)
	}
	data := map[string][]byte{}
	for k, v := range raw {
		if b, err := base64.StdEncoding.DecodeString(v); err == nil {
			data[k] = b
		}
	}
	return secret{obj: obj, data: data}, nil
}
