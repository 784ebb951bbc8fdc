package cli

import (
	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/crdforge/crdforge/internal/diag"
)

// kubeFlags are the flags of the commands that talk to a cluster.
type kubeFlags struct{ kubeconfig, context string }

func (k *kubeFlags) register(f *pflag.FlagSet) {
	f.StringVar(&k.kubeconfig, "kubeconfig", "", "kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)")
	f.StringVar(&k.context, "context", "", "kubeconfig context (default: the current one)")
}

// restConfig loads the cluster's configuration as kubectl does: --kubeconfig,
// else $KUBECONFIG, else ~/.kube/config, else the in-cluster service account.
func (k *kubeFlags) restConfig() (*rest.Config, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = k.kubeconfig
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules,
		&clientcmd.ConfigOverrides{CurrentContext: k.context}).ClientConfig()
	if err != nil {
		return nil, kubeconfigFailure(err)
	}
	return cfg, nil
}

// kubeconfigFailure is client-go's error loading the kubeconfig as a
// diagnostic: its text goes in a note, since it runs past a headline.
func kubeconfigFailure(err error) error {
	return diag.Fail("cannot load the kubeconfig").Note("%v", err).
		Help("name the cluster with --kubeconfig (and --context), or $KUBECONFIG").Err()
}
