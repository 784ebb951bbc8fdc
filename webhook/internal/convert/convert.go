package convert

import (
	"fmt"
	"maps"

	"github.com/crdforge/crdforge/webhook/internal/codec"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// UnknownError reports an object of a kind or version the table does not
// know, or a request for a version it does not know: the request's fault,
// not the conversion code's.
type UnknownError struct{ What string }

func (e *UnknownError) Error() string { return e.What }

// Convert converts one object of a request to desiredAPIVersion and returns
// it serialized, with the API server's JSON semantics (package codec).
//
// The object's metadata goes out as the bytes that came in: the API server
// keeps a converted object's metadata but for labels and annotations, which
// are the only parts a conversion may change (the stash of fields another
// version lacks is an annotation), so only those are re-encoded, and only
// when the conversion changed them. metadata.managedFields, often most of an
// object's bytes, is neither decoded nor encoded.
func (c *Table) Convert(obj *jsonscan.Object, desiredAPIVersion string) ([]byte, error) {
	switch {
	case !obj.HasAPIVersion:
		return nil, &UnknownError{"the object has no apiVersion"}
	case !obj.HasKind:
		return nil, &UnknownError{"the object has no kind"}
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
	k, ok := c.kinds[gk]
	if !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown kind %s", gk)}
	}
	if to.Group != from.Group {
		return nil, &UnknownError{fmt.Sprintf("cannot convert %s to another group (%s)", gk, desiredAPIVersion)}
	}
	newFrom, ok := k.Versions[from.Version]
	if !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown version %s of %s", from.Version, gk)}
	}
	newTo, ok := k.Versions[to.Version]
	if !ok {
		return nil, &UnknownError{fmt.Sprintf("unknown version %s of %s", to.Version, gk)}
	}

	src := newFrom()
	if err := codec.Unmarshal(obj.WithoutManagedFields(), src); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", obj.APIVersion, err)
	}
	var dst runtime.Object
	switch {
	case from.Version == to.Version:
		dst = src
	case from.Version == k.Hub:
		dst = newTo()
		if err := dst.(conversion.Convertible).ConvertFrom(src.(conversion.Hub)); err != nil {
			return nil, err
		}
	case to.Version == k.Hub:
		dst = newTo()
		if err := src.(conversion.Convertible).ConvertTo(dst.(conversion.Hub)); err != nil {
			return nil, err
		}
	default:
		hub := k.Versions[k.Hub]().(conversion.Hub)
		if err := src.(conversion.Convertible).ConvertTo(hub); err != nil {
			return nil, err
		}
		dst = newTo()
		if err := dst.(conversion.Convertible).ConvertFrom(hub); err != nil {
			return nil, err
		}
	}
	if err := sameIdentity(src, dst); err != nil {
		return nil, err
	}
	dst.GetObjectKind().SetGroupVersionKind(to.WithKind(obj.Kind))
	return encode(dst, src, obj.Metadata)
}

// encode serializes dst, the conversion of src, whose metadata came in as
// rawMeta. When both are ObjectMeta, dst's metadata is not encoded: rawMeta
// goes out in its place, with labels and annotations rewritten when the
// conversion changed them.
func encode(dst, src runtime.Object, rawMeta []byte) ([]byte, error) {
	dstMeta, srcMeta := objectMeta(dst), objectMeta(src)
	if dstMeta == nil || srcMeta == nil || rawMeta == nil {
		return marshal(dst)
	}
	meta := rawMeta
	if !maps.Equal(dstMeta.Labels, srcMeta.Labels) || !maps.Equal(dstMeta.Annotations, srcMeta.Annotations) {
		var err error
		if meta, err = jsonscan.ReplaceLabelsAndAnnotations(rawMeta, dstMeta.Labels, dstMeta.Annotations); err != nil {
			return nil, err
		}
	}
	saved := *dstMeta
	*dstMeta = metav1.ObjectMeta{}
	out, err := marshal(dst)
	*dstMeta = saved
	if err != nil {
		return nil, err
	}
	return jsonscan.ReplaceMember(out, "metadata", meta)
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

// marshal encodes obj as the API server would.
func marshal(obj runtime.Object) ([]byte, error) {
	b, err := codec.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", obj.GetObjectKind().GroupVersionKind().GroupVersion(), err)
	}
	return b, nil
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
