package main

import (
	"context"

	cmapi "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/cert-manager/cert-manager/pkg/controller/cainjector"
	"github.com/cert-manager/cert-manager/pkg/util"
	corev1 "k8s.io/api/core/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	apireg "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// runCAInjector runs cert-manager's CA injector for every kind it injects
// into until ctx ends, with the manager cmd/cainjector builds: Secrets
// uncached (the injector watches their metadata only), no metrics server,
// no leader election.
func runCAInjector(ctx context.Context, kubeconfig string) error {
	// The injector logs through controller-runtime's logger, which logs
	// nothing until it is set: klog's, as cert-manager's logs are.
	ctrl.SetLogger(klog.NewKlogr())
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	// The injector applies the CA under a field manager named after the
	// user agent, which an empty one leaves blank (the API server refuses
	// that): cert-manager's own, as cmd/cainjector sets it.
	cfg = util.RestConfigWithUserAgent(cfg, "cainjector")
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:  injectorScheme(),
		Metrics: metricsserver.Options{BindAddress: "0"},
		Client:  client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
	})
	if err != nil {
		return err
	}
	opts := cainjector.SetupOptions{
		EnableCertificatesDataSource: true,
		EnabledReconcilersFor: map[string]bool{
			"customresourcedefinition":       true,
			"mutatingwebhookconfiguration":   true,
			"validatingwebhookconfiguration": true,
			"apiservice":                     true,
		},
	}
	if err := cainjector.RegisterAllInjectors(ctx, mgr, opts); err != nil {
		return err
	}
	return mgr.Start(ctx)
}

// injectorScheme holds the kinds the injector reads and writes.
func injectorScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(apiext.AddToScheme(s))
	utilruntime.Must(apireg.AddToScheme(s))
	utilruntime.Must(cmapi.AddToScheme(s))
	return s
}
