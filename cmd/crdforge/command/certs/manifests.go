// Package certs writes what `crdforge certs` makes for clusters without
// cert-manager, besides the certificates themselves (package pki of the
// webhook module, shared with the webhook's --manage-certs): the Secret that
// carries them, and CRDs whose conversion caBundle holds the CA.
package certs

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/templates"
)

// Secret is what the webhook's kubernetes.io/tls Secret holds.
type Secret struct {
	Name, Namespace string
	// App and Project label the Secret as the webhook's other objects are.
	App, Project string
	// CACert, Cert and Key are PEM: ca.crt, tls.crt and tls.key.
	CACert, Cert, Key []byte
}

// Manifest renders the Secret as YAML.
func (s Secret) Manifest() ([]byte, error) {
	body, err := templates.Render("certs/secret.yaml", s)
	if err != nil {
		return nil, err
	}
	return append([]byte(output.YAMLHeader+"\n"), body...), nil
}

// CRDWithCABundle renders the kind's CRD as the crd generator does, but
// with caPEM as its conversion webhook's caBundle and without cert-manager's
// inject-ca-from annotation, which would replace it.
func CRDWithCABundle(k *model.Kind, caPEM []byte) ([]byte, error) {
	c := crd.Build(k)
	conv := c.Spec.Conversion
	if conv == nil || conv.Strategy != apiextensionsv1.WebhookConverter || conv.Webhook == nil || conv.Webhook.ClientConfig == nil {
		return nil, fmt.Errorf("%s.%s does not convert through a webhook", k.Name, k.Group)
	}
	conv.Webhook.ClientConfig.CABundle = append([]byte(nil), caPEM...)
	delete(c.Annotations, crd.InjectCAAnnotation)
	if len(c.Annotations) == 0 {
		c.Annotations = nil
	}
	return crd.Marshal(c)
}
