package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestFromError(t *testing.T) {
	cause := Fail("cannot load the kubeconfig").Help("give --kubeconfig").Err()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a failure", cause, "cannot load the kubeconfig\n  = help: give --kubeconfig"},
		{"a failure wrapped", fmt.Errorf("--print: %w", cause), "--print\n  = note: cannot load the kubeconfig\n  = help: give --kubeconfig"},
		{"a failure wrapped alone", fmt.Errorf("%w", cause), "cannot load the kubeconfig\n  = help: give --kubeconfig"},
		{"a short error", errors.New("no such CRD"), "no such CRD"},
		{"a long error, cut at its context", errors.New("invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable"),
			"invalid configuration\n  = note: no configuration has been provided, try setting KUBERNETES_MASTER environment variable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := FromError(tc.err).Format(""); got != tc.want {
				t.Errorf("FromError(%q) =\n%s\nwant\n%s", tc.err, got, tc.want)
			}
		})
	}
}
