package testkit

import (
	"errors"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// The test kind Box.test.io: v2 (the hub) has host and port, v1 joins them
// into hostPort, v3 calls the port "number". A v1 hostPort of "panic"
// panics in ConvertTo, with PanicText; one without a colon fails to
// convert.
const (
	BoxGroup = "test.io"
	BoxKind  = "Box"
	BoxHub   = "v2"
)

// PanicText is what BoxV1.ConvertTo panics with: it looks like a secret,
// as a panic's text may hold one (a value of the object, a token in an
// error), which the webhook must log and never answer.
const PanicText = "boom: token=s3cr3t-t0ken"

// BoxVersions returns the constructors of Box's versions, by version.
func BoxVersions() map[string]func() runtime.Object {
	return map[string]func() runtime.Object{
		"v1": func() runtime.Object { return new(BoxV1) },
		"v2": func() runtime.Object { return new(BoxV2) },
		"v3": func() runtime.Object { return new(BoxV3) },
	}
}

// BoxV2 is Box's hub.
type BoxV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Host              string `json:"host,omitempty"`
	Port              string `json:"port,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (b *BoxV2) DeepCopyObject() runtime.Object {
	c := *b
	b.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// Hub marks the hub.
func (*BoxV2) Hub() {}

// BoxV1 joins host and port into hostPort.
type BoxV1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	HostPort          string `json:"hostPort,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (b *BoxV1) DeepCopyObject() runtime.Object {
	c := *b
	b.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// ConvertTo splits hostPort.
func (b *BoxV1) ConvertTo(dst conversion.Hub) error {
	h := dst.(*BoxV2)
	b.ObjectMeta.DeepCopyInto(&h.ObjectMeta)
	if b.HostPort == "panic" {
		panic(PanicText)
	}
	host, port, ok := strings.Cut(b.HostPort, ":")
	if !ok {
		return errors.New("hostPort could not be parsed into a separate host and port")
	}
	h.Host, h.Port = host, port
	return nil
}

// ConvertFrom joins host and port.
func (b *BoxV1) ConvertFrom(src conversion.Hub) error {
	h := src.(*BoxV2)
	h.ObjectMeta.DeepCopyInto(&b.ObjectMeta)
	b.HostPort = h.Host + ":" + h.Port
	return nil
}

// BoxV3 calls the port number.
type BoxV3 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Host              string `json:"host,omitempty"`
	Number            string `json:"number,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (b *BoxV3) DeepCopyObject() runtime.Object {
	c := *b
	b.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// ConvertTo renames number to port.
func (b *BoxV3) ConvertTo(dst conversion.Hub) error {
	h := dst.(*BoxV2)
	b.ObjectMeta.DeepCopyInto(&h.ObjectMeta)
	h.Host, h.Port = b.Host, b.Number
	return nil
}

// ConvertFrom renames port to number.
func (b *BoxV3) ConvertFrom(src conversion.Hub) error {
	h := src.(*BoxV2)
	h.ObjectMeta.DeepCopyInto(&b.ObjectMeta)
	b.Host, b.Number = h.Host, h.Port
	return nil
}

// BoxJSON is a serialized Box of version in namespace ns, named name, with
// its uid "u-"+name and the JSON fields given, such as `"host":"h"`.
func BoxJSON(version, name, fields string) string {
	return `{"apiVersion":"test.io/` + version + `","kind":"Box","metadata":{"name":"` + name + `","namespace":"ns","uid":"u-` + name + `"},` + fields + `}`
}

// ReviewJSON is a ConversionReview request of apiVersion for objects.
func ReviewJSON(apiVersion, uid, desired string, objects ...string) string {
	return `{"apiVersion":"` + apiVersion + `","kind":"ConversionReview","request":{"uid":"` + uid +
		`","desiredAPIVersion":"` + desired + `","objects":[` + strings.Join(objects, ",") + `]}}`
}
