package model

import (
	"cmp"
	"fmt"
	"go/token"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// resolveConversion settles a kind's conversion: the strategy, the
// webhook's Service and cert-manager's CA injection, each from the markers
// of every version, which must agree.
func (b *Builder) resolveConversion(k *Kind, diags *diag.List) {
	conv := &k.Conversion
	conv.Pos = k.Pos()
	strategyAt := b.resolveStrategy(k, diags)
	hook, hookAt := b.mergedWebhook(k, diags)
	if hookAt.IsValid() && !strategyAt.IsValid() {
		conv.Pos = hookAt
	}
	conv.Configured = b.anyVersionMarker(k, markers.WebhookName) || b.anyVersionMarker(k, markers.CertManagerName)
	conv.CommittedWebhook = b.load.Committed.Webhook(k.Group, k.Name)
	// Unset arguments default to crdforge's own deployment's Service, or to
	// the one the project deploys itself: the manager's in a kubebuilder
	// project, or the project's own service.yaml's where crdforge would
	// write its deployment. What neither tells is left to a marker.
	name, namespace, port := b.Project+"-webhook-service", b.Project+"-system", int32(443)
	ps := b.ProjectService
	switch {
	case b.Kubebuilder != nil:
		name, namespace = KubebuilderWebhookService, KubebuilderWebhookNamespace
	case ps != nil:
		name, namespace, port = ps.Name, cmp.Or(ps.Namespace, namespace), cmp.Or(ps.Port, port)
	}
	conv.Service = Service{
		Name:      cmp.Or(hook.ServiceName, name),
		Namespace: cmp.Or(hook.Namespace, namespace),
		Path:      cmp.Or(hook.Path, "/convert"),
		Port:      cmp.Or(int32(hook.Port), port),
	}
	if b.Kubebuilder == nil {
		conv.Defaulted = WebhookArgs{
			ServiceName: hook.ServiceName == "" && ps == nil,
			Namespace:   hook.Namespace == "" && (ps == nil || ps.Namespace == ""),
			// crdforge's port, 443, is every webhook Service's but for one
			// whose several ports leave it open.
			Port: hook.Port == 0 && ps != nil && ps.Port == 0,
		}
	}
	b.resolveCertManager(k, diags)
}

// The manager's webhook Service in a kubebuilder project, as kubebuilder
// scaffolds it (config/webhook/service.yaml) and as its conversion patch
// (config/crd/patches/webhook_in_<plural>.yaml) names it. kustomize's
// namePrefix and namespace (config/default) rename both alike, the CRD's
// reference included, when the project is built.
const (
	KubebuilderWebhookService   = "webhook-service"
	KubebuilderWebhookNamespace = "system"
)

// resolveStrategy sets the strategy: explicit, or inferred from the
// schemas. It returns the marker that chose it, if any.
func (b *Builder) resolveStrategy(k *Kind, diags *diag.List) token.Pos {
	conv := &k.Conversion
	var strategyAt token.Pos
	for _, v := range k.Versions {
		val, ok := b.versionMarker(v, markers.ConversionName, false)
		if !ok {
			continue
		}
		s := val.Value.(markers.Conversion).Strategy
		if s != markers.StrategyNone && s != markers.StrategyWebhook {
			diags.Errorf(val.Pos, "invalid marker +%s: strategy must be %s or %s, not %q", markers.ConversionName, markers.StrategyNone, markers.StrategyWebhook, s)
			continue
		}
		if conv.Explicit && s != conv.Strategy {
			diags.Errorf(val.Pos, "+%s:strategy=%s on %s %s conflicts with strategy=%s", markers.ConversionName, s, k.Name, v.Name, conv.Strategy).
				Note("strategy=%s is at %s", conv.Strategy, b.where(strategyAt))
			continue
		}
		conv.Strategy, conv.Explicit, strategyAt, conv.Pos = s, true, val.Pos, val.Pos
	}
	if !conv.Explicit {
		conv.Strategy = markers.StrategyNone
		if !k.schemasIdentical() {
			conv.Strategy = markers.StrategyWebhook
		}
	}
	return strategyAt
}

// mergedWebhook merges the +crdforge:webhook markers of every version, field
// by field, and returns the first one's position.
func (b *Builder) mergedWebhook(k *Kind, diags *diag.List) (markers.Webhook, token.Pos) {
	var hook markers.Webhook
	var hookAt token.Pos
	for _, v := range k.Versions {
		val, ok := b.versionMarker(v, markers.WebhookName, true)
		if !ok {
			continue
		}
		w := val.Value.(markers.Webhook)
		if !b.checkWebhook(w, val.Pos, diags) {
			continue
		}
		if hookAt.IsValid() && !mergeWebhook(&hook, w) {
			diags.Errorf(val.Pos, "+%s on %s %s conflicts with another version's", markers.WebhookName, k.Name, v.Name).
				Note("the other is at %s", b.where(hookAt)).
				Help("every version must configure the same Service")
			continue
		}
		if !hookAt.IsValid() {
			hook, hookAt = w, val.Pos
		}
	}
	return hook, hookAt
}

// resolveCertManager sets cert-manager CA injection: on unless a marker
// turns it off, with the certificate named after the Service by default. In
// a kubebuilder project it is off unless a marker turns it on: kubebuilder's
// config/default kustomization injects the CA into the CRDs itself (its
// cert-manager replacements), from a Certificate whose final name only
// kustomize knows.
func (b *Builder) resolveCertManager(k *Kind, diags *diag.List) {
	conv := &k.Conversion
	conv.InjectCA = b.Kubebuilder == nil
	conv.Certificate = conv.Service.Namespace + "/" + conv.Service.Name + "-cert"
	var cmAt token.Pos
	named := false
	for _, v := range k.Versions {
		val, ok := b.versionMarker(v, markers.CertManagerName, true)
		if !ok {
			continue
		}
		cm := val.Value.(markers.CertManager)
		if cm.Certificate != "" {
			ns, name, found := strings.Cut(cm.Certificate, "/")
			if !found || len(validation.IsDNS1123Label(ns)) > 0 || len(validation.IsDNS1123Subdomain(name)) > 0 {
				diags.Errorf(val.Pos, "invalid marker +%s: certificate must be <namespace>/<name>", markers.CertManagerName).
					Note("it is %q", cm.Certificate)
				continue
			}
		}
		if cmAt.IsValid() {
			if cm.InjectCA != conv.InjectCA || (cm.Certificate != "" && cm.Certificate != conv.Certificate) {
				diags.Errorf(val.Pos, "+%s on %s %s conflicts with another version's", markers.CertManagerName, k.Name, v.Name).
					Note("the other is at %s", b.where(cmAt))
			}
			continue
		}
		cmAt = val.Pos
		conv.InjectCA = cm.InjectCA
		if cm.Certificate != "" {
			conv.Certificate, named = cm.Certificate, true
		}
	}
	conv.DefaultCertificate = conv.InjectCA && !named && b.Kubebuilder == nil
}

// where renders pos for a message, relative to the run's directory.
func (m *Model) where(pos token.Pos) string {
	return strings.TrimSuffix(diag.Diagnostic{Pos: m.Fset.Position(pos)}.Format(m.Dir), ": ")
}

// checkWebhook reports arguments the API server would reject, at the marker.
func (b *Builder) checkWebhook(w markers.Webhook, pos token.Pos, diags *diag.List) bool {
	ok := true
	bad := func(why []string, format string, args ...any) {
		d := diags.Errorf(pos, "invalid marker +%s: %s", markers.WebhookName, fmt.Sprintf(format, args...))
		for _, w := range why {
			d.Note("%s", w)
		}
		ok = false
	}
	if w.ServiceName != "" {
		if errs := validation.IsDNS1035Label(w.ServiceName); len(errs) > 0 {
			bad(errs, "serviceName %q is not a valid Service name", w.ServiceName)
		}
	}
	if w.Namespace != "" {
		if errs := validation.IsDNS1123Label(w.Namespace); len(errs) > 0 {
			bad(errs, "namespace %q is not a valid namespace", w.Namespace)
		}
	}
	switch {
	case w.Path != "" && !strings.HasPrefix(w.Path, "/"):
		bad(nil, "path %q must start with /", w.Path)
	case w.Path == "/":
		// The webhook answers 404 at its root (webhook.Run), so that a
		// prober's 200 does not pass for a conversion path.
		bad([]string{"the webhook answers 404 at its root: name a path such as /convert"}, "path / serves no conversions")
	}
	if w.Port != 0 && (w.Port < 1 || w.Port > 65535) {
		bad(nil, "port %d is not between 1 and 65535", w.Port)
	}
	return ok
}

// mergeWebhook fills dst's unset fields from src and reports whether the two
// agree on every field both set.
func mergeWebhook(dst *markers.Webhook, src markers.Webhook) bool {
	agree := true
	mergeField(&dst.ServiceName, src.ServiceName, &agree)
	mergeField(&dst.Namespace, src.Namespace, &agree)
	mergeField(&dst.Path, src.Path, &agree)
	mergeField(&dst.Port, src.Port, &agree)
	return agree
}

func mergeField[T comparable](dst *T, src T, agree *bool) {
	var zero T
	switch {
	case src == zero:
	case *dst == zero:
		*dst = src
	case *dst != src:
		*agree = false
	}
}

// schemasIdentical reports whether every version has the same schema,
// descriptions aside: then the API server needs no webhook to convert.
func (k *Kind) schemasIdentical() bool {
	var first *apiextensionsv1.JSONSchemaProps
	for i, v := range k.CRD.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			return false
		}
		if i == 0 {
			first = v.Schema.OpenAPIV3Schema
			continue
		}
		if !sameButDescriptions(first, v.Schema.OpenAPIV3Schema) {
			return false
		}
	}
	return true
}

// sameButDescriptions reports whether two schemas are semantically equal
// once every description in them (those controller-tools' TruncateDescription
// clears: the schema's and its sub-schemas') is left out. It compares in
// place, stopping at the first difference, where copying both schemas to
// clear their descriptions cost a copy of every version's schema per kind.
func sameButDescriptions(a, b *apiextensionsv1.JSONSchemaProps) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := *a, *b // shallow: sub-schemas are compared below, then left out
	x.Description, y.Description = "", ""
	if !sameSchemaMaps(x.Properties, y.Properties) || !sameSchemaMaps(x.PatternProperties, y.PatternProperties) ||
		!sameSchemaMaps(x.Definitions, y.Definitions) || !sameSchemaSlices(x.AllOf, y.AllOf) ||
		!sameSchemaSlices(x.OneOf, y.OneOf) || !sameSchemaSlices(x.AnyOf, y.AnyOf) || !sameButDescriptions(x.Not, y.Not) {
		return false
	}
	x.Properties, y.Properties, x.PatternProperties, y.PatternProperties = nil, nil, nil, nil
	x.Definitions, y.Definitions, x.AllOf, y.AllOf, x.OneOf, y.OneOf, x.AnyOf, y.AnyOf = nil, nil, nil, nil, nil, nil, nil, nil
	x.Not, y.Not = nil, nil
	if (x.Items == nil) != (y.Items == nil) {
		return false
	}
	if x.Items != nil && (!sameButDescriptions(x.Items.Schema, y.Items.Schema) || !sameSchemaSlices(x.Items.JSONSchemas, y.Items.JSONSchemas)) {
		return false
	}
	x.Items, y.Items = nil, nil
	for _, p := range [][2]**apiextensionsv1.JSONSchemaPropsOrBool{{&x.AdditionalProperties, &y.AdditionalProperties}, {&x.AdditionalItems, &y.AdditionalItems}} {
		xb, yb := *p[0], *p[1]
		if (xb == nil) != (yb == nil) {
			return false
		}
		if xb != nil && (xb.Allows != yb.Allows || !sameButDescriptions(xb.Schema, yb.Schema)) {
			return false
		}
		*p[0], *p[1] = nil, nil
	}
	if len(x.Dependencies) != len(y.Dependencies) {
		return false
	}
	for name, xd := range x.Dependencies {
		yd, ok := y.Dependencies[name]
		if !ok || !sameButDescriptions(xd.Schema, yd.Schema) || !equality.Semantic.DeepEqual(xd.Property, yd.Property) {
			return false
		}
	}
	x.Dependencies, y.Dependencies = nil, nil
	return equality.Semantic.DeepEqual(x, y)
}

func sameSchemaMaps(a, b map[string]apiextensionsv1.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	for name, as := range a {
		bs, ok := b[name]
		if !ok || !sameButDescriptions(&as, &bs) {
			return false
		}
	}
	return true
}

func sameSchemaSlices(a, b []apiextensionsv1.JSONSchemaProps) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameButDescriptions(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// anyVersionMarker reports whether a version of k carries the +crdforge:
// marker name, on its root type or its package, valid or not.
func (b *Builder) anyVersionMarker(k *Kind, name string) bool {
	for _, v := range k.Versions {
		if _, ok := b.versionMarker(v, name, true); ok {
			return true
		}
	}
	return false
}
