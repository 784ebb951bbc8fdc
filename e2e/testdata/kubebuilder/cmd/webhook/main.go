// Command webhook stands in for a kubebuilder manager's webhook server in
// the end-to-end test: it serves controller-runtime's own conversion
// handler, which calls the Hub, ConvertTo and ConvertFrom that crdforge
// generated into the project's API packages. It takes the flags and prints
// the log line the suite's harness expects of a webhook.
package main

import (
	"crypto/tls"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"

	batchv1 "example.com/kbproject/api/v1"
	batchv2 "example.com/kbproject/api/v2"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

func main() {
	certDir := flag.String("cert-dir", "", "directory holding tls.crt and tls.key")
	bind := flag.String("bind-address", "127.0.0.1", "address to serve on")
	port := flag.String("port", "9443", "port to serve on (0: any free port)")
	flag.String("metrics-bind-address", "0", "ignored: the manager serves metrics")
	flag.String("health-probe-bind-address", "0", "ignored: the manager serves probes")
	flag.Parse()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, *certDir, net.JoinHostPort(*bind, *port)); err != nil {
		log.Error("webhook failed", "error", err)
		os.Exit(1)
	}
}

func run(log *slog.Logger, certDir, addr string) error {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{batchv1.AddToScheme, batchv2.AddToScheme} {
		if err := add(scheme); err != nil {
			return err
		}
	}
	cert, err := tls.LoadX509KeyPair(filepath.Join(certDir, "tls.crt"), filepath.Join(certDir, "tls.key"))
	if err != nil {
		return err
	}
	ln, err := tls.Listen("tcp", addr, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	// An empty registry: every kind converts through its Hub and
	// Convertible methods, as a kubebuilder manager does.
	mux.Handle("/convert", conversion.NewWebhookHandler(scheme, conversion.NewRegistry()))
	log.Info("serving the conversion webhook", "addr", ln.Addr().String())
	return http.Serve(ln, mux)
}
