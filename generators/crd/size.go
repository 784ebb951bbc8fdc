package crd

import (
	"bytes"
	"encoding/json"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/settings"
)

// The limits a CRD's size runs into. Both measure JSON, the CRD as kubectl
// sends it, not the YAML file, which for a CRD's deeply indented schemas
// takes two to three times as many bytes: measured in YAML, a CRD of two
// pod templates would seem beyond any trimming, and one that applies fine
// would be warned about.
const (
	// ClientSideApplyLimit is the most bytes the API server takes in an
	// object's annotations together (apimachinery's
	// TotalAnnotationSizeLimitB); kubectl apply, client-side, stores the
	// whole object, as JSON, in one: LastAppliedAnnotation.
	ClientSideApplyLimit = apivalidation.TotalAnnotationSizeLimitB
	// EtcdRequestLimit is etcd's default --max-request-bytes, 1.5 MiB: the
	// API server of a cluster with etcd's defaults cannot store a larger
	// object, however it is applied.
	EtcdRequestLimit = 1572864
	// LastAppliedAnnotation is where client-side kubectl apply keeps what
	// it applied.
	LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
)

// sizes is what a CRD measures where the limits measure it.
type sizes struct {
	// stored is the CRD's JSON as kubectl sends it: what a create or a
	// server-side apply stores.
	stored int
	// applied is what a client-side kubectl apply puts in the CRD's
	// annotations: that JSON under LastAppliedAnnotation, and the CRD's own
	// annotations.
	applied int
}

// measure measures c as kubectl writes it: the JSON of the object read
// from the file crdforge prints, by encoding/json's Encoder, which escapes
// <, > and & and ends with a newline, as kubectl's unstructured encoder.
func measure(c *apiextensionsv1.CustomResourceDefinition) (sizes, error) {
	obj, _, err := generic(c)
	if err != nil {
		return sizes{}, err
	}
	return measureGeneric(c, obj)
}

// measureGeneric is measure of c, whose generic value obj is.
func measureGeneric(c *apiextensionsv1.CustomResourceDefinition, obj map[string]any) (sizes, error) {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(obj); err != nil {
		return sizes{}, err
	}
	s := sizes{stored: b.Len(), applied: len(LastAppliedAnnotation) + b.Len()}
	for k, v := range c.Annotations {
		s.applied += len(k) + len(v)
	}
	if len(c.Annotations) == 0 {
		// kubectl (GetModifiedConfiguration) sets the object's annotations
		// to those it has, none, before it encodes it: an empty map.
		s.applied += len(`"annotations":{},`)
	}
	return s, nil
}

// appliedSize is measure's applied alone, what --fit-crd-bytes fits.
func appliedSize(c *apiextensionsv1.CustomResourceDefinition) (int, error) {
	s, err := measure(c)
	return s.applied, err
}

// print prints k's CRD c, its omit markers applied, as Marshal does; with
// FitBytes, it first leaves out descriptions until the CRD fits (changing c
// to match). It reports a CRD too large to apply: a warning, or an error
// when no description is to blame. ok is false when nothing was printed.
func (g Generator) print(k *model.Kind, c *apiextensionsv1.CustomResourceDefinition, diags *diag.List) (printed []byte, info *output.CRDInfo, ok bool) {
	fail := func(err error) ([]byte, *output.CRDInfo, bool) {
		diags.Errorf(k.Pos(), "marshaling the CRD for %s: %v", k.Name, err)
		return nil, nil, false
	}
	printed, size, err := marshalMeasured(c)
	if err != nil {
		return fail(err)
	}
	info = &output.CRDInfo{Name: c.Name, Size: size.applied}
	res := fitResult{size: size.applied, fits: true}
	if g.FitBytes > 0 && size.applied > g.FitBytes {
		if res, err = fit(c, g.FitBytes, appliedSize); err != nil {
			return fail(err)
		}
		if printed, size, err = marshalMeasured(c); err != nil {
			return fail(err)
		}
		info.Size, info.Trimmed, info.Untrimmed = size.applied, res.trimmed, res.untrimmed
	}
	bare := size
	if size.stored > EtcdRequestLimit && res.fits { // else c has no description left
		if bare, err = bareSize(c); err != nil {
			return fail(err)
		}
	}
	switch {
	case bare.stored > EtcdRequestLimit:
		tooLargeForEtcd(k, c.Name, bare.stored, diags)
	case !res.fits:
		doesNotFit(k, c.Name, size.applied, g.FitBytes, diags)
	case size.applied > ClientSideApplyLimit:
		tooLargeToApply(k, c.Name, size, diags)
	}
	return printed, info, true
}

// marshalMeasured is Marshal and measure at once.
func marshalMeasured(c *apiextensionsv1.CustomResourceDefinition) ([]byte, sizes, error) {
	obj, raw, err := generic(c)
	if err != nil {
		return nil, sizes{}, err
	}
	s, err := measureGeneric(c, obj)
	if err != nil {
		return nil, sizes{}, err
	}
	printed, err := marshalGeneric(obj, len(raw))
	return printed, s, err
}

// bareSize is what c measures without any description.
func bareSize(c *apiextensionsv1.CustomResourceDefinition) (sizes, error) {
	bare := c.DeepCopy()
	for i := range bare.Spec.Versions {
		if s := bare.Spec.Versions[i].Schema; s != nil && s.OpenAPIV3Schema != nil {
			clearAll(s.OpenAPIV3Schema)
		}
	}
	return measure(bare)
}

// fixes says the ways to a CRD that client-side apply can store.
func fixes() string {
	return "generate with " + settings.FitCRDBytes.FlagIs(ClientSideApplyLimit) +
		", mark large fields +crdforge:description:omit, or apply with kubectl apply --server-side"
}

func tooLargeToApply(k *model.Kind, name string, size sizes, diags *diag.List) {
	d := diags.Warnf(k.Pos(), "CRD %s is %d bytes applied, over client-side apply's limit of %d", name, size.applied, ClientSideApplyLimit).
		Note("kubectl apply (client-side) keeps the whole CRD, as JSON, in its %s annotation, and the API server refuses annotations over %d bytes: \"metadata.annotations: Too long\"", LastAppliedAnnotation, ClientSideApplyLimit)
	if size.stored > EtcdRequestLimit {
		d.Note("at %d bytes it is also over etcd's default request limit, %d: a cluster with etcd's defaults cannot store it at all", size.stored, EtcdRequestLimit)
	}
	d.Help("%s", fixes())
}

func doesNotFit(k *model.Kind, name string, size, limit int, diags *diag.List) {
	d := diags.Warnf(k.Pos(), "CRD %s is %d bytes applied without any description, over %s", name, size, settings.FitCRDBytes.FlagIs(limit)).
		Note("%s leaves out descriptions only; the rest is the schemas themselves, one per version", settings.FitCRDBytes.Flag())
	if size > ClientSideApplyLimit {
		d.Note("kubectl apply (client-side) cannot store a CRD over %d bytes in its %s annotation", ClientSideApplyLimit, LastAppliedAnnotation)
		d.Help("apply it with kubectl apply --server-side, or serve fewer versions")
	}
}

func tooLargeForEtcd(k *model.Kind, name string, bare int, diags *diag.List) {
	diags.Errorf(k.Pos(), "CRD %s is %d bytes even without descriptions, over etcd's %d-byte limit", name, bare, EtcdRequestLimit).
		Note("etcd refuses a request over %d bytes (its --max-request-bytes default): the API server cannot store this CRD, however it is applied", EtcdRequestLimit).
		Help("serve fewer versions (each carries a whole schema), or make the largest embedded fields +kubebuilder:validation:Schemaless with +kubebuilder:pruning:PreserveUnknownFields")
}
