package convert

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	kjson "sigs.k8s.io/json"
)

// typeMeta is all the table reads of an object before knowing its type.
type typeMeta struct{ APIVersion, Kind string }

// UnknownError reports an object of a kind or version the table does not
// know, or a request for a version it does not know: the request's fault,
// not the conversion code's.
type UnknownError struct{ What string }

func (e *UnknownError) Error() string { return e.What }

// Convert converts one serialized object to desiredAPIVersion and returns it
// serialized. Decoding is case-sensitive and keeps int64 precision, as the
// API server's own JSON handling does.
func (c *Table) Convert(raw []byte, desiredAPIVersion string) ([]byte, error) {
	var tm typeMeta
	var err error
	if tm.APIVersion, tm.Kind, err = jsonscan.PeekTypeMeta(raw); err != nil {
		return nil, fmt.Errorf("reading apiVersion and kind: %w", err)
	}
	from, err := schema.ParseGroupVersion(tm.APIVersion)
	if err != nil {
		return nil, &UnknownError{fmt.Sprintf("invalid apiVersion %q", tm.APIVersion)}
	}
	to, err := schema.ParseGroupVersion(desiredAPIVersion)
	if err != nil {
		return nil, &UnknownError{fmt.Sprintf("invalid desiredAPIVersion %q", desiredAPIVersion)}
	}
	gk := schema.GroupKind{Group: from.Group, Kind: tm.Kind}
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
	if err := kjson.UnmarshalCaseSensitivePreserveInts(raw, src); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", tm.APIVersion, err)
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
	dst.GetObjectKind().SetGroupVersionKind(to.WithKind(tm.Kind))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(dst); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", desiredAPIVersion, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
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
