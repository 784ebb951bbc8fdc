// Command certmanager runs the part of cert-manager that crdforge's
// end-to-end suite needs, against any API server a kubeconfig names:
//
//	certmanager controller --kubeconfig <file>   issuers, certificates and
//	                                             certificate requests, for
//	                                             self-signed and CA issuers
//	certmanager cainjector --kubeconfig <file>   the CA injector (CRDs,
//	                                             webhook configurations,
//	                                             APIServices)
//
// --feature-gates sets cert-manager's feature gates as its commands' flag
// does: CAInjectorMerging=false gives the injector of cert-manager before
// v1.19, which replaced a caBundle where later ones merge the new CA in.
//
// It is a test tool, not shipped and not a supported way to run
// cert-manager: cert-manager's own cmd/controller and cmd/cainjector are
// modules the Go module proxy does not serve, so this main wires the same
// library packages those do, and only the controllers a self-signed Issuer,
// a CA Issuer and the CA injector need. ACME, Vault and Venafi, and with them
// the cloud DNS SDKs, stay out of the build (certmanager.mk checks it with
// go list -deps before it builds).
// e2e/certrenewal_test.go runs both modes against envtest's API server.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	utilfeature "github.com/cert-manager/cert-manager/pkg/util/feature"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: certmanager controller|cainjector --kubeconfig <file>")
		os.Exit(2)
	}
	mode := os.Args[1]
	fs := flag.NewFlagSet(mode, flag.ExitOnError)
	kubeconfig := fs.String("kubeconfig", "", "the kubeconfig of the API server to run against")
	gates := fs.String("feature-gates", "", "cert-manager feature gates, as key=value pairs separated by commas")
	_ = fs.Parse(os.Args[2:])
	if err := utilfeature.DefaultMutableFeatureGate.Set(*gates); err != nil {
		fmt.Fprintf(os.Stderr, "certmanager %s: --feature-gates: %v\n", mode, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch mode {
	case "controller":
		err = runController(ctx, *kubeconfig)
	case "cainjector":
		err = runCAInjector(ctx, *kubeconfig)
	default:
		err = fmt.Errorf("unknown mode %q: controller or cainjector", mode)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "certmanager %s: %v\n", mode, err)
		os.Exit(1)
	}
}
