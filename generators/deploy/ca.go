package deploy

import (
	"strconv"
	"time"

	"github.com/crdforge/crdforge/generators/model"
)

// CA is the cert-manager CA behind the webhook's serving certificate: the
// self-signed Issuer signs the CA's Certificate (issued into the Secret of
// the same name), and the CA Issuer signs the serving Certificate with it.
//
// The CRDs' inject-ca-from names the serving Certificate, and cainjector
// copies the ca.crt of its Secret, which a CA Issuer fills with the CA's
// certificate: the caBundle is the CA, not the leaf. A leaf renewed
// (rotationPolicy: Always) then leaves every caBundle as it was, while the
// kubelet takes up to a minute or more to update the Secret the pods mount:
// the API server trusts both the old and the new leaf in between. With the
// self-signed Issuer signing the leaf itself, the caBundle was the leaf,
// and each renewal refused the mounted one until the kubelet caught up.
type CA struct {
	// Name names the CA's Certificate and the Secret it is issued into;
	// Issuer the CA Issuer that signs with it.
	Name, Issuer string
	// CommonName is the CA certificate's subject, as crdforge certs names
	// its own CA.
	CommonName string
	// Duration is how long the CA is valid: long beside the leaves
	// (cert-manager's default, 90 days), as crdforge certs' CA is.
	Duration string
}

// CADuration is how long a CA is valid, cert-manager's or crdforge
// certs': ten years.
const CADuration = 10 * 365 * 24 * time.Hour

// CAOf is w's CA, named after its Service and project as the serving
// Certificate's Secret (<service>-cert) and the self-signed Issuer are.
func CAOf(w *model.Webhook) CA {
	return CA{Name: w.Service + "-ca", Issuer: w.Project + "-ca-issuer", CommonName: CACommonName(w),
		Duration: strconv.Itoa(int(CADuration.Hours())) + "h"}
}

// CACommonName is the subject of the webhook's CA, cert-manager's or
// crdforge certs'.
func CACommonName(w *model.Webhook) string { return w.Project + "-webhook-ca" }
