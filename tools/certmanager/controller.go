package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	controllerpkg "github.com/cert-manager/cert-manager/pkg/controller"
	// Each of these registers its controller with controllerpkg (init):
	// controllerpkg.Known() is then exactly this list.
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	_ "github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	_ "github.com/cert-manager/cert-manager/pkg/controller/issuers"
	// The Issuer kinds the issuers controller sets up (init): the two the
	// generated manifests use.
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
	logf "github.com/cert-manager/cert-manager/pkg/logs"
	"golang.org/x/sync/errgroup"
)

// workers per controller, as cert-manager's default.
const workers = 5

// runController runs every registered controller until ctx ends, as
// cert-manager's cmd/controller does: construct them all (each registers
// the informers it needs), then start the shared informers once.
func runController(ctx context.Context, kubeconfig string) error {
	ctx = logf.NewContext(ctx, logf.Log, "certmanager-controller")
	factory, err := controllerpkg.NewContextFactory(ctx, controllerOptions(kubeconfig))
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, name := range knownNames() {
		iface, err := controllerpkg.Known()[name](factory)
		if err != nil {
			return fmt.Errorf("constructing %s: %w", name, err)
		}
		g.Go(func() error { return iface.Run(workers, gctx) })
	}
	shared, err := factory.Build()
	if err != nil {
		return err
	}
	shared.KubeSharedInformerFactory.Start(gctx.Done())
	shared.SharedInformerFactory.Start(gctx.Done())
	return g.Wait()
}

// controllerOptions are cert-manager's defaults for what the controllers
// imported here read.
func controllerOptions(kubeconfig string) controllerpkg.ContextOptions {
	return controllerpkg.ContextOptions{
		Kubeconfig:         kubeconfig,
		KubernetesAPIQPS:   20,
		KubernetesAPIBurst: 50,
		IssuerOptions:      controllerpkg.IssuerOptions{ClusterResourceNamespace: "cert-manager"},
		CertificateOptions: controllerpkg.CertificateOptions{
			CertificateRequestMinimumBackoffDuration: time.Hour,
			CertificateRequestMaximumBackoffDuration: 32 * time.Hour,
		},
	}
}

// knownNames are the registered controllers, sorted so that runs log alike.
func knownNames() []string {
	var names []string
	for name := range controllerpkg.Known() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
