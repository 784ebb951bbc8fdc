package certwatch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"
)

// ReadCAPool reads PEM CA certificates from caFile, for verifying client
// certificates (mTLS): with it, the webhook only serves callers, normally the
// API server, that present a certificate signed by one of these CAs. The
// Kubernetes documentation on authenticating API servers to webhooks
// describes how to give the API server a client certificate.
func ReadCAPool(caFile string) (*x509.CertPool, error) {
	data, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("reading client CA file: %w", err)
	}
	return parseCAPool(caFile, data)
}

// parseCAPool parses the PEM certificates of caFile, already read as data.
func parseCAPool(caFile string, data []byte) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	if len(bytes.TrimSpace(data)) == 0 || !pool.AppendCertsFromPEM(data) {
		return nil, errors.New("client CA file " + caFile + " holds no PEM certificate")
	}
	return pool, nil
}

// CAPool keeps the client CA pool of mTLS loaded from a file and reloads
// it when the file changes, as a rotated CA bundle does, with no restart. A
// new file that holds no certificate is ignored, and the previous pool kept.
type CAPool struct {
	// PollInterval is how often the file is checked; zero means
	// DefaultPollInterval. Set it before Start.
	PollInterval time.Duration

	file string
	log  *slog.Logger
	sum  [sha256.Size]byte
	pool atomic.Pointer[x509.CertPool]
}

// NewCAPool loads caFile; it fails when the file holds no certificate.
// A nil log means slog.Default(), as for NewKeyPair: the watcher logs
// from its own goroutine, long after the caller could notice a nil logger.
func NewCAPool(caFile string, log *slog.Logger) (*CAPool, error) {
	if log == nil {
		log = slog.Default()
	}
	data, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("reading client CA file: %w", err)
	}
	pool, err := parseCAPool(caFile, data)
	if err != nil {
		return nil, err
	}
	w := &CAPool{file: caFile, log: log, sum: sha256.Sum256(data)}
	w.pool.Store(pool)
	return w, nil
}

// Pool returns the current pool.
func (w *CAPool) Pool() *x509.CertPool { return w.pool.Load() }

// Start polls the file until ctx is done. It has no error to return: a
// file that cannot be read or parsed leaves the previous pool in place.
func (w *CAPool) Start(ctx context.Context) { every(ctx, w.PollInterval, w.poll) }

func (w *CAPool) poll() {
	data, err := os.ReadFile(w.file)
	if err != nil {
		return // mid-rotation, or gone: keep the pool
	}
	sum := sha256.Sum256(data)
	if sum == w.sum {
		return
	}
	// Parse the bytes just hashed, not a second read: the file may change
	// in between, and the next poll would then see an unchanged hash.
	pool, err := parseCAPool(w.file, data)
	if err != nil {
		w.log.Warn("cannot load the new client CA file, keeping the previous CAs", "file", w.file, "error", err)
		w.sum = sum
		return
	}
	w.sum = sum
	w.pool.Store(pool)
	w.log.Info("reloaded client CA file", "file", w.file)
}
