package convert

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// UnknownError reports an object of a kind or version the table does not
// know, or a request for a version it does not know: the request's fault,
// not the conversion code's.
type UnknownError struct{ What string }

func (e *UnknownError) Error() string { return e.What }

// Scratch is what converting one object after another reuses: the buffers
// an object passes through, and what the last object's versions resolved
// to. The zero value is ready to use; a Scratch serves one conversion at a
// time.
type Scratch struct {
	// in is an object's JSON without its managedFields, to decode.
	in []byte
	// enc is the converted object as encoded, before its metadata goes in.
	enc bytes.Buffer
	// last is the last object's conversion, which the next one of a
	// review most likely repeats.
	last route
	// passing holds the members of the object a route passes.
	passing passing
	// meta is the metadata metaWriter, Scratch.appendMeta, writes.
	meta       metaEdit
	metaWriter func([]byte) ([]byte, error)
}

// route is how objects of one apiVersion and kind convert to one
// desiredAPIVersion.
type route struct {
	apiVersion, kind, desired string
	from, to                  version
	// fromVersion and toVersion are the versions' names; toAPIVersion
	// is the converted object's apiVersion.
	fromVersion, toVersion, toAPIVersion string
	// dataOnly says the conversion keeps the object's metadata but for its
	// stash: both versions' codecs have DecodeData.
	dataOnly bool
	// pass says it passes members too: both versions' DecodeData pass
	// them (Codec.Transcode).
	pass bool
	// objects are what the route's last conversion decoded into, went
	// through (the hub) and converted to, reused for the next object
	// when dataOnly: generated conversions keep no reference to them.
	objects [3]runtime.Object
}

// Where route.objects keeps each object.
const (
	srcObject = iota
	hubObject
	dstObject
)

// object returns a new (zero) object from newObject for the conversion's
// role i: the last one's, zeroed, when the route reuses them. Two or three
// new objects of the kind for each object converted are, on objects as the
// API server stores them, a third of what a conversion would allocate
// beyond the answer itself.
func (r *route) object(i int, newObject func() runtime.Object) runtime.Object {
	if !r.dataOnly {
		return newObject()
	}
	if o := r.objects[i]; o != nil {
		reflect.ValueOf(o).Elem().SetZero()
		return o
	}
	r.objects[i] = newObject()
	return r.objects[i]
}

// Convert converts one object of a request to desiredAPIVersion and returns
// it serialized; see Append.
func (c *Table) Convert(obj *jsonscan.Object, desiredAPIVersion string) ([]byte, error) {
	var s Scratch
	return c.Append(nil, obj, desiredAPIVersion, &s)
}

// Append converts one object of a request to desiredAPIVersion and appends
// it, serialized with the API server's JSON semantics (package codec), to
// out. On an error out is returned as it came, with what was appended.
//
// The object's metadata goes out as the bytes that came in: the API server
// keeps a converted object's metadata but for labels and annotations, which
// are the only parts a conversion may change (the stash of fields another
// version lacks is an annotation), so only the entries of those the
// conversion changed are encoded again. metadata.managedFields, often most
// of an object's bytes, is neither decoded nor encoded.
func (c *Table) Append(out []byte, obj *jsonscan.Object, desiredAPIVersion string, s *Scratch) ([]byte, error) {
	r, err := c.route(obj, desiredAPIVersion, s)
	if err != nil {
		return out, err
	}
	res, err := c.convert(out, obj, r, r.pass, s)
	if errors.Is(err, errPassing) {
		return c.convert(out, obj, r, false, s)
	}
	return res, err
}

// convert converts obj along r and appends it to out, passing members when
// pass says so (see Codec.Transcode).
func (c *Table) convert(out []byte, obj *jsonscan.Object, r *route, pass bool, s *Scratch) ([]byte, error) {
	src, how, err := r.from.decode(obj, r, pass, s)
	if err != nil {
		return out, fmt.Errorf("decoding %s: %w", obj.APIVersion, err)
	}
	hub := r.from.kind.Hub
	var dst runtime.Object
	switch {
	case r.fromVersion == r.toVersion:
		dst = src
	case r.fromVersion == hub:
		dst = r.object(dstObject, r.to.new)
		if err := dst.(conversion.Convertible).ConvertFrom(src.(conversion.Hub)); err != nil {
			return out, err
		}
	case r.toVersion == hub:
		dst = r.object(dstObject, r.to.new)
		if err := src.(conversion.Convertible).ConvertTo(dst.(conversion.Hub)); err != nil {
			return out, err
		}
	default:
		hub := r.object(hubObject, r.from.kind.Versions[hub]).(conversion.Hub)
		if err := src.(conversion.Convertible).ConvertTo(hub); err != nil {
			return out, err
		}
		dst = r.object(dstObject, r.to.new)
		if err := dst.(conversion.Convertible).ConvertFrom(hub); err != nil {
			return out, err
		}
	}
	if err := sameIdentity(src, dst); err != nil {
		return out, err
	}
	if tm, ok := dst.GetObjectKind().(*metav1.TypeMeta); ok {
		tm.APIVersion, tm.Kind = r.toAPIVersion, obj.Kind // what SetGroupVersionKind sets, without joining the strings again
	} else {
		dst.GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(r.toAPIVersion, obj.Kind))
	}
	return encode(out, dst, src, obj, &r.to, how, s)
}

// decoded says how much of an object decode read.
type decoded int

const (
	// decodedAll: all of it, but the metadata's managedFields.
	decodedAll decoded = iota
	// decodedData: of its metadata only the stash (Codec.DecodeData).
	decodedData
	// decodedPassing: as decodedData, but for the members the route
	// passes, transcoded into Scratch.passing.
	decodedPassing
)

// decode decodes a new object of the version from obj without its
// managedFields, for route r: with the generated codec when there is one,
// from the object's tape when it has one (of the metadata only the stash
// when r.dataOnly says so, and, when pass says so, transcoding the members
// it passes rather than decoding them: see passing.transcode), and, where
// the generated codec declines or there is none, with the reflection codec,
// into a new object again.
func (v *version) decode(obj *jsonscan.Object, r *route, pass bool, s *Scratch) (runtime.Object, decoded, error) {
	if dec := v.gen.Decode; dec != nil {
		tape := obj.Tape()
		if pass && tape != nil {
			out := r.object(srcObject, v.new)
			// Converting restores the stash of the hub's version onto
			// the hub object, and the destination's onto the result.
			if s.passing.transcode(obj, tape, out, v.gen, [2]string{r.from.kind.Hub, r.toVersion}) {
				return out, decodedPassing, nil
			}
		}
		// A route's DecodeData passes members whenever the route does.
		how := decodedAll
		if r.dataOnly && !r.pass {
			dec, how = v.gen.DecodeData, decodedData
		}
		out := r.object(srcObject, v.new)
		var err error
		if tape != nil {
			err = typedjson.Decode(obj.Raw, tape, out, dec)
		} else {
			err = typedjson.Decode(s.withoutManagedFields(obj), nil, out, dec)
		}
		if err == nil {
			return out, how, nil
		}
	}
	out := v.new()
	return out, decodedAll, codec.Unmarshal(s.withoutManagedFields(obj), out)
}

// withoutManagedFields returns obj's JSON without its managedFields, in
// s.in when they have to be left out.
func (s *Scratch) withoutManagedFields(obj *jsonscan.Object) []byte {
	if !obj.HasManagedFields() {
		return obj.Raw
	}
	s.in = obj.AppendWithoutManagedFields(s.in[:0])
	return s.in
}

// route resolves the versions an object converts between, from s.last when
// they are the last object's.
func (c *Table) route(obj *jsonscan.Object, desiredAPIVersion string, s *Scratch) (*route, error) {
	switch {
	case obj.NotObject:
		return nil, &UnknownError{fmt.Sprintf("%.40s is not a JSON object", obj.Raw)}
	case !obj.HasAPIVersion:
		return nil, &UnknownError{"the object has no apiVersion"}
	case !obj.HasKind:
		return nil, &UnknownError{"the object has no kind"}
	}
	if r := &s.last; r.apiVersion == obj.APIVersion && r.kind == obj.Kind && r.desired == desiredAPIVersion && r.from.new != nil {
		return r, nil
	}
	from, err := schema.ParseGroupVersion(obj.APIVersion)
	if err != nil {
		return nil, &UnknownError{fmt.Sprintf("invalid apiVersion %q", obj.APIVersion)}
	}
	to, err := schema.ParseGroupVersion(desiredAPIVersion)
	if err != nil {
		return nil, &UnknownError{fmt.Sprintf("invalid desiredAPIVersion %q", desiredAPIVersion)}
	}
	gk := schema.GroupKind{Group: from.Group, Kind: obj.Kind}
	if _, ok := c.kinds[gk]; !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown kind %s", gk)}
	}
	if to.Group != from.Group {
		return nil, &UnknownError{fmt.Sprintf("cannot convert %s to another group (%s)", gk, desiredAPIVersion)}
	}
	fromV, ok := c.versions[gk.WithVersion(from.Version)]
	if !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown version %s of %s", from.Version, gk)}
	}
	toV, ok := c.versions[gk.WithVersion(to.Version)]
	if !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown version %s of %s", to.Version, gk)}
	}
	s.last = route{
		apiVersion: obj.APIVersion, kind: obj.Kind, desired: desiredAPIVersion,
		from: fromV, to: toV, fromVersion: from.Version, toVersion: to.Version, toAPIVersion: to.String(),
		dataOnly: fromV.gen.DecodeData != nil && toV.gen.DecodeData != nil,
	}
	s.last.pass = s.last.dataOnly && passes(fromV.gen, toV.gen)
	return &s.last, nil
}

// encode appends dst, the conversion of src, which came in as obj, to out.
// When both are ObjectMeta, dst's metadata is not encoded: obj's goes out in
// its place, with labels and annotations edited where the conversion changed
// them (jsonscan.MapEdit); how says how much of src was decoded, and what
// of dst is to be written from Scratch.passing.
func encode(out []byte, dst, src runtime.Object, obj *jsonscan.Object, v *version, how decoded, s *Scratch) ([]byte, error) {
	dstMeta, srcMeta := objectMeta(dst), objectMeta(src)
	hasMeta := dstMeta != nil && srcMeta != nil && obj.Metadata != nil
	if how == decodedPassing {
		return s.encodePassing(out, dst, obj, v, hasMeta, srcMeta, dstMeta)
	}
	s.enc.Reset()
	if !hasMeta {
		if err := v.marshal(&s.enc, dst); err != nil {
			return out, err
		}
		return append(out, s.enc.Bytes()...), nil
	}
	saved := *dstMeta
	*dstMeta = metav1.ObjectMeta{}
	err := v.marshal(&s.enc, dst)
	*dstMeta = saved
	if err != nil {
		return out, err
	}
	enc := s.enc.Bytes()
	start, end, err := jsonscan.MemberSpan(enc, "metadata")
	if err != nil {
		return out, err
	}
	mark := len(out)
	out = append(out, enc[:start]...)
	if out, err = appendMetadata(out, obj, srcMeta, dstMeta, how == decodedAll); err != nil {
		return out[:mark], err
	}
	return append(out, enc[end:]...), nil
}

// appendMetadata appends obj's metadata to out, the labels and annotations
// edited where dst's, the converted object's, are not src's; all says that
// src's were decoded in full, not only the stash.
func appendMetadata(out []byte, obj *jsonscan.Object, src, dst *metav1.ObjectMeta, all bool) ([]byte, error) {
	if maps.Equal(dst.Labels, src.Labels) && maps.Equal(dst.Annotations, src.Annotations) {
		return append(out, obj.Metadata...), nil
	}
	return obj.AppendMetadata(out,
		jsonscan.MapEdit{Old: src.Labels, New: dst.Labels, All: all},
		jsonscan.MapEdit{Old: src.Annotations, New: dst.Annotations, All: all},
		typedjson.AppendString[string])
}

// encodePassing appends dst with the generated codec's EncodeData, which
// writes the members passed from Scratch.passing and, when hasMeta says
// both objects are ObjectMeta, obj's metadata where dst's goes (with
// Scratch.appendMeta): straight into out, which the other path writes the
// object's bytes into only after encoding them, to put the metadata in.
func (s *Scratch) encodePassing(out []byte, dst runtime.Object, obj *jsonscan.Object, v *version, hasMeta bool, srcMeta, dstMeta *metav1.ObjectMeta) ([]byte, error) {
	var meta func([]byte) ([]byte, error)
	if hasMeta {
		if s.metaWriter == nil {
			s.metaWriter = s.appendMeta // once: a method value allocates
		}
		s.meta = metaEdit{obj: obj, src: srcMeta, dst: dstMeta}
		meta = s.metaWriter
	}
	b, err := v.gen.EncodeData(out, dst, s.passing.raw, meta)
	metaErr := s.meta.err
	s.meta = metaEdit{} // the request's bytes, not to be kept
	switch {
	case metaErr != nil:
		return out, metaErr
	case err != nil:
		// Only the generated encoder writes the members passed: the
		// object goes again without passing.
		return out, errPassing
	}
	return b, nil
}

// metaEdit is what Scratch.appendMeta writes: the metadata of obj, which
// converted from src's to dst's, and the error it met.
type metaEdit struct {
	obj      *jsonscan.Object
	src, dst *metav1.ObjectMeta
	err      error
}

// appendMeta is the writer of the metadata that encodePassing gives
// EncodeData.
func (s *Scratch) appendMeta(b []byte) ([]byte, error) {
	e := &s.meta
	b, e.err = appendMetadata(b, e.obj, e.src, e.dst, false)
	return b, e.err
}

// objectMeta returns the object's own ObjectMeta, or nil when it has none
// that can be replaced in place.
func objectMeta(obj runtime.Object) *metav1.ObjectMeta {
	acc, ok := obj.(metav1.ObjectMetaAccessor)
	if !ok {
		return nil
	}
	m, _ := acc.GetObjectMeta().(*metav1.ObjectMeta)
	return m
}

// marshal encodes obj, an object of the version, as the API server would,
// into buf: with the generated codec when there is one, and, where it
// fails or there is none, with the reflection codec.
func (v *version) marshal(buf *bytes.Buffer, obj runtime.Object) error {
	if v.gen.Encode != nil {
		if b, err := v.gen.Encode(buf.AvailableBuffer(), obj); err == nil {
			buf.Write(b)
			return nil
		}
	}
	if err := codec.MarshalWrite(buf, obj); err != nil {
		return fmt.Errorf("encoding %s: %w", obj.GetObjectKind().GroupVersionKind().GroupVersion(), err)
	}
	return nil
}

// sameIdentity checks what the API server rejects a conversion for
// changing: name, namespace and uid.
func sameIdentity(src, dst runtime.Object) error {
	a, okA := src.(metav1.Object)
	b, okB := dst.(metav1.Object)
	if !okA || !okB {
		return nil
	}
	switch {
	case a.GetName() != b.GetName():
		return fmt.Errorf("the conversion changed metadata.name from %q to %q", a.GetName(), b.GetName())
	case a.GetNamespace() != b.GetNamespace():
		return fmt.Errorf("the conversion changed metadata.namespace from %q to %q", a.GetNamespace(), b.GetNamespace())
	case a.GetUID() != b.GetUID():
		return fmt.Errorf("the conversion changed metadata.uid from %q to %q", a.GetUID(), b.GetUID())
	}
	return nil
}
