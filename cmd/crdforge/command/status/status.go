// Package status reports where a CustomResourceDefinition is in the life of
// its versions (add a version, serve it, make it storage, migrate, drop the
// old one from status.storedVersions, stop serving it, remove it) and the
// command that takes it to the next step. It only reads the cluster.
package status

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate"
	"github.com/crdforge/crdforge/webhook/storagemigrate"
)

// ErrNotFound marks a CRD name the cluster does not know.
var ErrNotFound = errors.New("no such CustomResourceDefinition")

// Report is what crdforge status prints; its JSON form is --output json.
type Report struct {
	CRD            string    `json:"crd"`
	Group          string    `json:"group"`
	Kind           string    `json:"kind"`
	Versions       []Version `json:"versions"`
	StoredVersions []string  `json:"storedVersions"`
	Conversion     string    `json:"conversion"` // None or Webhook
	// Webhook is what the conversion check found (Webhook strategy only):
	// whether the API server could convert through it.
	Webhook *WebhookCheck `json:"webhook,omitempty"`
	// Migration is what the webhook's --migrate-storage last recorded on
	// the CRD (annotation crdforge.io/storage-migration); nil without one.
	Migration *storagemigrate.Status `json:"migration,omitempty"`
	Step      Step                   `json:"step"`
}

// Version is one entry of spec.versions, in the CRD's order.
type Version struct {
	Name               string `json:"name"`
	Served             bool   `json:"served"`
	Storage            bool   `json:"storage"`
	Deprecated         bool   `json:"deprecated"`
	DeprecationWarning string `json:"deprecationWarning,omitempty"`
	// Stored: in status.storedVersions, so objects may be stored at it.
	Stored bool `json:"stored"`
}

// WebhookCheck is the result of reading an object at the served versions.
type WebhookCheck struct {
	Answers bool   `json:"answers"`
	Detail  string `json:"detail"`
}

// Read reads the CRD name from the cluster of cfg and reports on it; with
// a conversion webhook it reads one object, if any, at every served version
// to see whether the webhook answers.
func Read(ctx context.Context, cfg *rest.Config, name string) (*Report, error) {
	ext, err := apiext.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	crd, err := ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("%w %q (want <plural>.<group>, as in kubectl get crd)", ErrNotFound, name)
	}
	if err != nil {
		return nil, fmt.Errorf("reading CustomResourceDefinition %s: %w", name, err)
	}
	r := FromCRD(crd)
	if r.Conversion == string(apiextv1.WebhookConverter) {
		detail, err := migrate.CheckWebhook(ctx, dyn, crd)
		r.Webhook = &WebhookCheck{Answers: err == nil, Detail: detail}
		if err != nil {
			r.Webhook.Detail = err.Error()
		}
	}
	r.Step = stepOf(r)
	return r, nil
}

// FromCRD is the report on crd without the webhook check.
func FromCRD(crd *apiextv1.CustomResourceDefinition) *Report {
	r := &Report{
		CRD:            crd.Name,
		Group:          crd.Spec.Group,
		Kind:           crd.Spec.Names.Kind,
		StoredVersions: slices.Clone(crd.Status.StoredVersions),
		Conversion:     string(apiextv1.NoneConverter),
	}
	if crd.Spec.Conversion != nil && crd.Spec.Conversion.Strategy != "" {
		r.Conversion = string(crd.Spec.Conversion.Strategy)
	}
	for _, v := range crd.Spec.Versions {
		ver := Version{Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated,
			Stored: slices.Contains(crd.Status.StoredVersions, v.Name)}
		if v.DeprecationWarning != nil {
			ver.DeprecationWarning = *v.DeprecationWarning
		} else if v.Deprecated {
			ver.DeprecationWarning = defaultWarning(crd, v.Name)
		}
		r.Versions = append(r.Versions, ver)
	}
	if m, ok := storagemigrate.ReadStatus(crd.Annotations); ok {
		r.Migration = &m
	}
	r.Step = stepOf(r)
	return r
}

// defaultWarning is the warning the API server sends for a deprecated
// version that sets no deprecationWarning: it names the newest served,
// not deprecated version newer than it, if any.
func defaultWarning(crd *apiextv1.CustomResourceDefinition, deprecated string) string {
	msg := fmt.Sprintf("%s/%s %s is deprecated", crd.Spec.Group, deprecated, crd.Spec.Names.Kind)
	var newer []string
	for _, v := range crd.Spec.Versions {
		if v.Served && !v.Deprecated && version.CompareKubeAwareVersionStrings(deprecated, v.Name) < 0 {
			newer = append(newer, v.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	sort.Slice(newer, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(newer[i], newer[j]) > 0 })
	return msg + fmt.Sprintf("; use %s/%s %s", crd.Spec.Group, newer[0], crd.Spec.Names.Kind)
}
