// Package certwatch keeps the conversion webhook's TLS material current: the
// serving certificate and key, and the client CAs of mTLS, each loaded from
// files and reloaded when the files change, with no restart.
package certwatch

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultPollInterval is how often a KeyPair or CAPool reads its files.
const DefaultPollInterval = time.Second

// KeyPair serves a certificate and key loaded from two files and reloads
// them when they change on disk, so a rotated certificate is picked up with
// no restart and no dropped connection: connections already established
// keep the certificate they negotiated, new handshakes get the new one.
//
// It polls rather than using inotify (fsnotify). cert-manager's certificate
// lands in a Secret volume, which the kubelet updates by writing a new
// timestamped directory and atomically swapping the ..data symlink that the
// visible tls.crt and tls.key symlinks point through. Watching that reliably
// with inotify means watching the directory, following remove and create
// events on the symlinks and re-adding watches after every swap, and it does
// not work at all on some volume types. Reading two files of a few KiB once a
// second and comparing a hash of their contents catches every kind of update
// (symlink swap, rename, in-place rewrite), costs nothing measurable, and the
// delay of up to one interval is irrelevant next to the weeks of validity
// left when cert-manager renews.
type KeyPair struct {
	// PollInterval is how often the files are read; zero means
	// DefaultPollInterval. Set it before Start.
	PollInterval time.Duration

	certFile, keyFile string
	log               *slog.Logger

	cert atomic.Pointer[tls.Certificate]

	mu      sync.Mutex // guards the fields below, used by poll
	sum     [sha256.Size]byte
	badSum  [sha256.Size]byte // a broken pair seen once, not yet reported
	warnSum [sha256.Size]byte // a broken pair already reported
}

// NewKeyPair loads the certificate and key from certFile and keyFile,
// PEM files such as the tls.crt and tls.key of a kubernetes.io/tls Secret.
// It fails if they cannot be read or do not form a valid pair. A nil log
// means slog.Default().
func NewKeyPair(certFile, keyFile string, log *slog.Logger) (*KeyPair, error) {
	if log == nil {
		log = slog.Default()
	}
	w := &KeyPair{certFile: certFile, keyFile: keyFile, log: log}
	certPEM, keyPEM, sum, err := w.read()
	if err != nil {
		return nil, err
	}
	cert, err := parsePair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("loading certificate %s and key %s: %w", certFile, keyFile, err)
	}
	w.cert.Store(cert)
	w.sum = sum
	w.logLoaded("loaded serving certificate", cert)
	return w, nil
}

// GetCertificate returns the current certificate. It is meant for
// tls.Config.GetCertificate.
func (w *KeyPair) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return w.cert.Load(), nil
}

// Start polls the files until ctx is done. When both files have changed
// into a valid pair it swaps the certificate in; when they do not form a
// valid pair it keeps serving the previous one and logs a warning, so it
// has no error to return.
func (w *KeyPair) Start(ctx context.Context) { every(ctx, w.PollInterval, w.poll) }

// every calls poll at each interval (DefaultPollInterval when it is not
// positive) until ctx is done.
func every(ctx context.Context, interval time.Duration, poll func()) {
	if interval <= 0 {
		interval = DefaultPollInterval
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			poll()
		}
	}
}

// poll reads the files once and reloads them if their contents changed.
func (w *KeyPair) poll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	certPEM, keyPEM, sum, err := w.read()
	if err == nil && sum == w.sum {
		return
	}
	if err == nil {
		var cert *tls.Certificate
		if cert, err = parsePair(certPEM, keyPEM); err == nil {
			w.sum = sum
			w.badSum, w.warnSum = [sha256.Size]byte{}, [sha256.Size]byte{}
			w.logLoaded("reloaded serving certificate", cert)
			w.cert.Store(cert)
			return
		}
	}
	// The files are unreadable or no valid pair. During a rotation that is
	// not atomic, one may be read before and the other after the update, so
	// a broken state is only reported once it is seen twice in a row.
	if sum != w.badSum {
		w.badSum = sum
		w.log.Debug("serving certificate files changed but do not load yet",
			"cert_file", w.certFile, "key_file", w.keyFile, "error", err)
		return
	}
	if sum != w.warnSum {
		w.warnSum = sum
		w.log.Warn("cannot load the new serving certificate, keeping the previous one",
			"cert_file", w.certFile, "key_file", w.keyFile, "error", err)
	}
}

// read returns the files' contents and a hash of both. When a file cannot
// be read, sum is a hash of the error, so the same failure is only
// reported once.
func (w *KeyPair) read() (certPEM, keyPEM []byte, sum [sha256.Size]byte, err error) {
	certPEM, err = os.ReadFile(w.certFile)
	if err == nil {
		keyPEM, err = os.ReadFile(w.keyFile)
	}
	if err != nil {
		return nil, nil, sha256.Sum256([]byte(err.Error())), err
	}
	h := sha256.New()
	// The length keeps the boundary between the two files in the hash.
	// Writing to a hash.Hash never fails.
	_, _ = fmt.Fprintf(h, "%d\n", len(certPEM))
	h.Write(certPEM)
	h.Write(keyPEM)
	copy(sum[:], h.Sum(nil))
	return certPEM, keyPEM, sum, nil
}

func parsePair(certPEM, keyPEM []byte) (*tls.Certificate, error) {
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, err
	}
	if cert.Leaf == nil {
		if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
			return nil, err
		}
	}
	return &cert, nil
}

// logLoaded logs a certificate just loaded, as a warning when it is not
// valid at this time: clients will refuse it, yet it is all there is.
func (w *KeyPair) logLoaded(msg string, cert *tls.Certificate) {
	leaf := cert.Leaf
	level := slog.LevelInfo
	if now := time.Now(); now.After(leaf.NotAfter) || now.Before(leaf.NotBefore) {
		level, msg = slog.LevelWarn, msg+", which is not valid now"
	}
	w.log.Log(context.Background(), level, msg,
		"cert_file", w.certFile, "key_file", w.keyFile,
		"subject", leaf.Subject.String(), "dns_names", leaf.DNSNames,
		"serial", leaf.SerialNumber.String(),
		"not_before", leaf.NotBefore, "not_after", leaf.NotAfter)
}
