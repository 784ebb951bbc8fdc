package certmanage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/crdforge/crdforge/webhook/pki"
)

// pair is a serving certificate and key as the Secret holds them.
type pair struct{ cert, key []byte }

func (p pair) equal(q pair) bool {
	return string(p.cert) == string(q.cert) && string(p.key) == string(q.key)
}

// readPair reads the serving pair from the Secret, checking that it loads:
// a replica keeps serving the pair it has rather than one that breaks TLS.
func (m *manager) readPair(ctx context.Context) (pair, error) {
	sec, err := m.getSecret(ctx)
	if err != nil {
		return pair{}, err
	}
	p := pair{sec.data[keyCert], sec.data[keyKey]}
	if _, err := pki.LoadServing(p.cert, p.key); err != nil {
		return pair{}, err
	}
	return p, nil
}

// writePair writes p into dir as tls.crt and tls.key, each through a
// temporary file and a rename, so that the server's reloading never reads
// half a file; it may read one file new and the other old, which it waits
// out (certwatch.KeyPair).
func writePair(dir string, p pair) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{keyKey, p.key}, {keyCert, p.cert}} {
		tmp := filepath.Join(dir, "."+f.name+".tmp")
		if err := os.WriteFile(tmp, f.data, 0o600); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(dir, f.name)); err != nil {
			return fmt.Errorf("replacing %s: %w", f.name, err)
		}
	}
	return nil
}

// unstructuredString is unstructured.NestedString, with its found.
func unstructuredString(obj map[string]any, fields ...string) (string, bool, error) {
	return unstructured.NestedString(obj, fields...)
}
