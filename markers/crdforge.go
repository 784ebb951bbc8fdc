package markers

import (
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// Prefix starts every marker that crdforge defines itself. A comment that
// starts with it must name a marker defined here, or generation fails.
const Prefix = "+crdforge:"

// Marker names, as written after the '+'.
const (
	HubName           = "crdforge:hub"
	ConversionName    = "crdforge:conversion"
	WebhookName       = "crdforge:webhook"
	CertManagerName   = "crdforge:certmanager"
	HubFieldName      = "crdforge:hubfield"
	NoCounterpartName = "crdforge:nocounterpart"
	DescOmitName      = "crdforge:description:omit"
	DeprecatedName    = "crdforge:deprecated"
	DroppedZeroName   = "crdforge:droppedzero"
)

// Conversion strategies, as the CRD's spec.conversion.strategy spells them.
const (
	StrategyNone    = "None"
	StrategyWebhook = "Webhook"
)

// The doc comments below are the markers' help (helpgen copies them into
// zz_generated.markerhelp.go): the first line is the summary, so it holds a
// whole sentence, and helpgen drops comment lines that start with '+' as
// markers, so none does.

// +controllertools:marker:generateHelp:category=crdforge

// Hub makes this version the hub of its kind's hub-and-spoke conversions.
//
// Every other version of the kind converts to and from the hub. Without this
// marker the hub is the storage version. Put it on the kind's root type, or on
// the package to make it the hub of every kind the package defines.
type Hub struct{}

// +controllertools:marker:generateHelp:category=crdforge

// Conversion sets how the API server converts this kind between versions.
//
// Without this marker the strategy is None when every version's schema is
// identical, descriptions aside, and Webhook otherwise, unless the kind has
// never converted and needs hand-written functions nobody wrote (see
// docs/conversions.md). With None the API server only rewrites apiVersion,
// and crdforge writes no ConvertTo, ConvertFrom, Hub() or round-trip test for
// the kind. Put it on the kind's root type in any version; every version that
// sets it must agree.
type Conversion struct {
	// Strategy is None (the API server only rewrites apiVersion) or Webhook (the API server calls the conversion webhook).
	Strategy string `marker:"strategy"`
}

// +controllertools:marker:generateHelp:category=crdforge

// Webhook configures the Service that serves this kind's conversion webhook.
//
// Unset arguments keep their defaults. The service name and namespace are,
// by default:
//   - derived from the directory crdforge runs in: <name>-webhook-service in
//     <name>-system, where <name> is the last element of that directory's
//     import path;
//   - in a kubebuilder project (a PROJECT file), the manager's Service as
//     kubebuilder scaffolds it (webhook-service in system, renamed by
//     kustomize);
//   - in a project that deploys its webhook itself (a service.yaml of its
//     own where crdforge would write its deployment), that Service's.
//
// The path is /convert and the port is 443, or that Service's. Put it on the kind's root type, or on the package for every
// kind it defines.
type Webhook struct {
	// ServiceName is the name of the webhook's Service.
	ServiceName string `marker:"serviceName,optional"`
	// Namespace is the namespace of the webhook's Service.
	Namespace string `marker:"namespace,optional"`
	// Path is the URL path the API server posts ConversionReviews to.
	Path string `marker:"path,optional"`
	// Port is the Service port the API server connects to.
	Port int `marker:"port,optional"`
}

// +controllertools:marker:generateHelp:category=crdforge

// CertManager turns cert-manager CA injection for the conversion webhook on or off.
//
// When on (the default, except in a kubebuilder project, where kubebuilder's
// kustomization adds the annotation), the CRD carries the
// cert-manager.io/inject-ca-from annotation naming the webhook's serving
// Certificate, and cert-manager's CA injector fills in
// spec.conversion.webhook.clientConfig.caBundle. Put it on the kind's root
// type, or on the package for every kind it defines.
type CertManager struct {
	// InjectCA turns the cert-manager.io/inject-ca-from annotation on or off.
	InjectCA bool `marker:"injectCA"`
	// Certificate names the serving Certificate, as <namespace>/<name>.
	Certificate string `marker:"certificate,optional"`
}

// +controllertools:marker:generateHelp:category=crdforge

// HubField names the hub field this spoke field converts to and from.
//
// It is for fields the hub calls something else or keeps elsewhere. The path
// is a dot-separated list of Go field names, relative to the hub type that the
// field's struct converts to: "Color" for a renamed field, "Network.Host" for
// a field the hub moved into a nested struct. "." converts the fields of this
// struct-typed field to and from the enclosing hub struct itself, for fields
// the hub moved out of a nested struct. Without the marker a field converts to
// the hub field with the same Go name. Put it on fields of spoke versions (the
// hub's fields need none).
type HubField string

// +controllertools:marker:generateHelp:category=crdforge

// NoCounterpart says this field lives in this version only, so converting to a version without it leaves it out on purpose.
//
// crdforge warns, at every field that has no counterpart in the version it
// converts to, that the conversion leaves the field out (the lossless stash
// still restores it when the object converts back), and suggests the marker
// that would pair it, a +crdforge:hubfield, when another field has the same
// words. This marker acknowledges the field instead: no warning, and
// crdforge generate --strict does not fail on it. Put it on the field, in the
// spoke or in the hub, that the other version lacks. On a field that does
// convert to a counterpart it is an error.
type NoCounterpart struct{}

// +controllertools:marker:generateHelp:category=crdforge

// DescriptionOmit leaves descriptions out of the CRD's schema, to keep a large CRD within what kubectl apply can store.
//
// On a field, the field's description and every description in its schema
// (an embedded corev1.PodTemplateSpec's thousands) are left out. On a type,
// every description in the type's schema wherever it is used: its fields',
// what they hold, and the type's own doc comment where a field that has
// none of its own takes it. On a package, the same for every type the
// package declares. Other descriptions stay. Use it where the Go doc says
// what the schema need not: a CRD over 262,144 bytes cannot be applied
// client-side (kubectl apply stores the whole object in its
// last-applied-configuration annotation); crdforge generate
// --fit-crd-bytes trims descriptions by size instead.
type DescriptionOmit struct{}

// +controllertools:marker:generateHelp:category=crdforge

// DeprecatedField deprecates this field: the API server warns the clients that set it, without a webhook.
//
// crdforge appends "Deprecated: " and the warning to the field's description
// in the CRD (where crdforge check finds it when the field is later
// removed), and writes, beside the CRD, a ValidatingAdmissionPolicy and its
// binding (<group>_<plural>.deprecation.yaml) with validationActions Warn
// and Audit: a create that sets the field, or an update that sets or
// changes it, gets the warning, in every version where the field is marked,
// and the request's audit event an annotation. Nothing is ever refused.
// The field must be in the schema (a JSON name, not inlined) and not inside
// a list or a map. See docs/deprecation.md.
type DeprecatedField struct {
	// Warning is the text the warning and the description carry: what to use instead, and when the field goes.
	Warning string `marker:"warning"`
}

// +controllertools:marker:generateHelp:category=crdforge

// DroppedZero accepts that this field's zero value, which omitempty or omitzero leaves out of its JSON, reads back as its default.
//
// A field with a default other than its Go zero value (false, 0, "", an
// empty list) whose tag drops that zero loses a client's explicit zero
// whenever Go code writes the object: the JSON goes without the field, and
// the API server applies the default. In a kind that converts through the
// webhook every conversion writes the object so, and crdforge generate
// fails at the field; in other kinds of more than one version it warns.
// A zero that the field's schema refuses (an enum without it, a minimum, a
// pattern) is never written, and nothing is reported. Make the field a
// pointer, or drop omitempty, to keep the zero; mark it with this marker
// when the zero is meant to read as the default. Put it on the field.
type DroppedZero struct{}

// crdforgeDefinitions lists every +crdforge: marker with the targets it may
// describe. The order is the order `crdforge markers` prints them in.
func crdforgeDefinitions() []*ctmarkers.Definition {
	var defs []*ctmarkers.Definition
	add := func(name string, output any, targets ...ctmarkers.TargetType) {
		for _, t := range targets {
			defs = append(defs, ctmarkers.Must(ctmarkers.MakeDefinition(name, t, output)))
		}
	}
	add(HubName, Hub{}, ctmarkers.DescribesType, ctmarkers.DescribesPackage)
	add(ConversionName, Conversion{}, ctmarkers.DescribesType)
	add(WebhookName, Webhook{}, ctmarkers.DescribesType, ctmarkers.DescribesPackage)
	add(CertManagerName, CertManager{}, ctmarkers.DescribesType, ctmarkers.DescribesPackage)
	add(HubFieldName, HubField(""), ctmarkers.DescribesField)
	add(NoCounterpartName, NoCounterpart{}, ctmarkers.DescribesField)
	add(DescOmitName, DescriptionOmit{}, ctmarkers.DescribesField, ctmarkers.DescribesType, ctmarkers.DescribesPackage)
	add(DeprecatedName, DeprecatedField{}, ctmarkers.DescribesField)
	add(DroppedZeroName, DroppedZero{}, ctmarkers.DescribesField)
	return defs
}
