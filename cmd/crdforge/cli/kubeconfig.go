package cli

import (
	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
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
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules,
		&clientcmd.ConfigOverrides{CurrentContext: k.context}).ClientConfig()
}
