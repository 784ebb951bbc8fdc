// Package convert is the conversion webhook's static table: the versions of
// every kind it serves, and the conversion of one serialized object between
// them through the kind's hub.
package convert

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	"github.com/crdforge/crdforge/webhook/typedjson"
)

// Kind registers the versions of one kind with the table. Generated webhook
// mains build one per kind, so that no scheme is scanned per object.
//
// It has the fields of the public webhook.Kind, which converts to it.
type Kind struct {
	Group, Kind string
	// Hub is the version every conversion goes through.
	Hub string
	// Versions returns an empty object of each version. The hub's object
	// implements controller-runtime's conversion.Hub, every other version's
	// conversion.Convertible.
	Versions map[string]func() runtime.Object
	// Codecs are the generated codecs of some versions, by version name;
	// a version without one is decoded and encoded by reflection.
	Codecs map[string]Codec
}

// Codec is a codec generated for one version's Go type (package
// typedjson): faster than the reflection codec, and strict where that one
// is lenient, so that on its error the reflection codec decodes the object
// again, for the API server's result or error.
type Codec struct {
	// Decode decodes the object d reads into obj, a new object of the
	// version (from Versions). typedjson.Decode calls it.
	Decode func(d *typedjson.Decoder, obj runtime.Object) error
	// DecodeData, when set, decodes as Decode does but reads of the
	// object's metadata only the annotations that hold a conversion's stash
	// (typedjson.MetadataStash). It is set only on the hub and on the
	// spokes whose conversions to and from the hub are all generated ones:
	// they copy metadata as it is and change at most the stash, so the rest
	// of the metadata, which the webhook writes back as it came in (see
	// jsonscan.MapEdit), need not be decoded. A conversion between two
	// versions that both have one uses it.
	DecodeData func(d *typedjson.Decoder, obj runtime.Object) error
	// Encode appends obj, an object of the version, encoded, to b.
	Encode func(b []byte, obj runtime.Object) ([]byte, error)
	// Transcode, when set, are the transcoders of the members of the
	// object that DecodeData passes (typedjson.Pass), by the number it
	// gives each: members every version with a DecodeData holds in one
	// JSON form and every conversion copies, which the webhook writes as
	// they came in, transcoded, rather than decode, copy and encode them.
	// EncodeData is Encode, writing member i from raw[i] where that is not
	// nil, and the metadata with meta where that is not nil: the
	// webhook's writer of the metadata the object came in with, which
	// DecodeData decoded only the stash of. Every version of a kind with a
	// DecodeData passes the same members.
	Transcode  []func(d *typedjson.Decoder, b []byte) ([]byte, error)
	EncodeData func(b []byte, obj runtime.Object, raw [][]byte, meta func([]byte) ([]byte, error)) ([]byte, error)
}

// Table converts objects between the versions of the kinds it knows: spoke
// to hub with ConvertTo, hub to spoke with ConvertFrom, and spoke to spoke
// through the hub. It is read-only once built, so safe for concurrent use.
type Table struct {
	kinds map[schema.GroupKind]*Kind
	// versions are the kinds' versions, with what decodes each.
	versions map[schema.GroupVersionKind]version
}

// version is one version of a kind in the table.
type version struct {
	kind *Kind
	new  func() runtime.Object
	// gen, when set, decodes and encodes objects of the version's Go
	// type before the reflection codec.
	gen Codec
}

// NewTable checks the kinds and builds the table.
func NewTable(kinds ...Kind) (*Table, error) {
	c := &Table{kinds: map[schema.GroupKind]*Kind{}, versions: map[schema.GroupVersionKind]version{}}
	var errs []error
	for i := range kinds {
		k := &kinds[i]
		gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}
		if _, dup := c.kinds[gk]; dup {
			errs = append(errs, fmt.Errorf("%s registered twice", gk))
			continue
		}
		newHub, ok := k.Versions[k.Hub]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: hub version %q is not among its versions", gk, k.Hub))
			continue
		}
		if _, ok := newHub().(conversion.Hub); !ok {
			errs = append(errs, fmt.Errorf("%s: the %s object does not implement conversion.Hub", gk, k.Hub))
		}
		for v, newObj := range k.Versions {
			obj := newObj()
			if _, ok := obj.(conversion.Convertible); v != k.Hub && !ok {
				errs = append(errs, fmt.Errorf("%s: the %s object does not implement conversion.Convertible", gk, v))
			}
			c.versions[gk.WithVersion(v)] = version{kind: k, new: newObj, gen: k.Codecs[v]}
		}
		for v := range k.Codecs {
			if _, ok := k.Versions[v]; !ok {
				errs = append(errs, fmt.Errorf("%s: a codec for version %q, which is not among its versions", gk, v))
			}
		}
		c.kinds[gk] = k
	}
	return c, errors.Join(errs...)
}

// Kinds lists the registered kinds, sorted, for logs.
func (c *Table) Kinds() []string {
	var out []string
	for gk, k := range c.kinds {
		vs := make([]string, 0, len(k.Versions))
		for v := range k.Versions {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		out = append(out, fmt.Sprintf("%s (%s; hub %s)", gk, strings.Join(vs, ", "), k.Hub))
	}
	sort.Strings(out)
	return out
}
