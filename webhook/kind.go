package webhook

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/convert"
)

// Kind is one entry of the static conversion table: the versions of one
// kind and its hub. A generated main builds one per kind whose CRD converts
// through the webhook, so that no scheme is consulted per object:
//
//	webhook.Kind{
//		Group: "example.com", Kind: "CronTab", Hub: "v1",
//		Versions: map[string]func() runtime.Object{
//			"v1":      func() runtime.Object { return new(v1.CronTab) },
//			"v1beta1": func() runtime.Object { return new(v1beta1.CronTab) },
//		},
//	}
type Kind struct {
	// Group and Kind name the kind, as in its objects' apiVersion and kind.
	Group, Kind string
	// Hub is the version every conversion goes through.
	Hub string
	// Versions returns an empty object of each version, by version name.
	// The hub's object implements controller-runtime's conversion.Hub,
	// every other version's conversion.Convertible.
	Versions map[string]func() runtime.Object
	// Codecs are JSON codecs generated for some versions' Go types (the
	// generated webhook main's, package typedjson), by version name: a
	// version without one is decoded by reflection. Optional.
	Codecs map[string]Codec
}

// Codec is the JSON codec crdforge generates for one version's Go type: it
// decodes as the reflection codec does, faster, and declines (with an
// error) whatever it is not sure of, which the reflection codec then
// decodes.
type Codec = convert.Codec
