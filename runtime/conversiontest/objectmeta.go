package conversiontest

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/randfill"

	"github.com/crdforge/crdforge/runtime/lossless"
)

// stashAnnotationPrefix starts the annotations in which conversions keep
// what the destination version cannot hold. Random metadata stays out of it:
// an annotation there would be read back as stashed data, and no real object
// carries one that a conversion did not write.
const stashAnnotationPrefix = lossless.AnnotationPrefix

// fillObjectMeta fills metadata the API server could have stored: names are
// DNS labels, label and annotation keys are qualified names, label values are
// valid, UIDs look like UUIDs, times have whole seconds. Purely random
// metadata would work as well for a conversion that copies metadata whole,
// but valid values keep failure diffs readable and avoid tripping
// conversions that parse, say, an owner reference's apiVersion.
//
// managedFields stays empty: it holds the API server's own JSON blobs, and
// conversions copy it untouched along with the rest of metadata.
//
// apimachinery's meta fuzzer (k8s.io/apimachinery/pkg/apis/meta/fuzzer)
// is not reused: it needs a serializer.CodecFactory, fills labels and
// annotations with arbitrary strings, and brings ManagedFields along.
func fillObjectMeta(m *metav1.ObjectMeta, c randfill.Continue) {
	*m = metav1.ObjectMeta{
		Name:              randomDNSLabel(c),
		UID:               randomUID(c),
		ResourceVersion:   strconv.FormatUint(c.Uint64()>>1, 10),
		Generation:        c.Int63n(1 << 31),
		CreationTimestamp: metav1.Unix(c.Int63n(maxUnixSeconds), 0),
	}
	if c.Intn(4) != 0 {
		m.Namespace = randomDNSLabel(c)
	}
	if c.Intn(4) == 0 {
		m.GenerateName = randomDNSLabel(c) + "-"
	}
	if c.Intn(5) == 0 {
		deleted := metav1.Unix(c.Int63n(maxUnixSeconds), 0)
		grace := c.Int63n(600)
		m.DeletionTimestamp, m.DeletionGracePeriodSeconds = &deleted, &grace
	}

	if n := c.Intn(maxElements + 1); n > 0 {
		m.Labels = make(map[string]string, n)
		for i := 0; i < n; i++ {
			m.Labels[randomQualifiedName(c)] = randomLabelValue(c)
		}
	}
	if n := c.Intn(maxElements + 1); n > 0 {
		m.Annotations = make(map[string]string, n)
		for i := 0; i < n; i++ {
			// Values are free text, which JSON (and so the stash) carries
			// whatever the characters.
			m.Annotations[randomAnnotationKey(c)] = c.String(0)
		}
	}
	for i, n := 0, c.Intn(maxElements); i < n; i++ {
		m.Finalizers = append(m.Finalizers, randomDNSLabel(c)+".example.com/"+randomDNSLabel(c))
	}
	hasController := false
	for i, n := 0, c.Intn(maxElements); i < n; i++ {
		ref := metav1.OwnerReference{
			APIVersion:         randomDNSLabel(c) + ".example.com/v1",
			Kind:               "Owner",
			Name:               randomDNSLabel(c),
			UID:                randomUID(c),
			Controller:         randomBoolPointer(c),
			BlockOwnerDeletion: randomBoolPointer(c),
		}
		// At most one owner can be the controller.
		if ref.Controller != nil && *ref.Controller {
			if hasController {
				*ref.Controller = false
			}
			hasController = true
		}
		m.OwnerReferences = append(m.OwnerReferences, ref)
	}
}

const (
	lowerAlpha = "abcdefghijklmnopqrstuvwxyz"
	lowerAlnum = lowerAlpha + "0123456789"
	alnum      = lowerAlnum + "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

// randomName returns minLen to maxLen characters whose first and last come
// from edge and the others from middle: the shape of every Kubernetes name
// syntax.
func randomName(c randfill.Continue, edge, middle string, minLen, maxLen int) string {
	n := minLen + c.Intn(maxLen-minLen+1)
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		chars := middle
		if i == 0 || i == n-1 {
			chars = edge
		}
		b.WriteByte(chars[c.Intn(len(chars))])
	}
	return b.String()
}

// randomDNSLabel returns an RFC 1123 label, short enough for readable diffs.
func randomDNSLabel(c randfill.Continue) string {
	return randomName(c, lowerAlnum, lowerAlnum+"-", 1, 12)
}

// randomQualifiedName returns a label or annotation key: a name, sometimes
// with a DNS subdomain prefix.
func randomQualifiedName(c randfill.Continue) string {
	name := randomName(c, alnum, alnum+"-_.", 1, 16)
	if c.Bool() {
		return name
	}
	return randomDNSLabel(c) + "." + randomDNSLabel(c) + "/" + name
}

// randomAnnotationKey returns a qualified name outside the stash prefix.
// The prefix is practically never drawn; the loop makes it never.
func randomAnnotationKey(c randfill.Continue) string {
	for {
		if k := randomQualifiedName(c); !strings.HasPrefix(k, stashAnnotationPrefix) {
			return k
		}
	}
}

// randomLabelValue returns a valid label value, which may be empty.
func randomLabelValue(c randfill.Continue) string {
	if c.Intn(5) == 0 {
		return ""
	}
	return randomName(c, alnum, alnum+"-_.", 1, 16)
}

// randomUID returns a random UID in the form of a version 4 UUID.
func randomUID(c randfill.Continue) types.UID {
	hi, lo := c.Uint64(), c.Uint64()
	return types.UID(fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x",
		hi>>32, hi>>16&0xffff, hi&0x0fff, 0x8000|lo>>48&0x3fff, lo&0xffffffffffff))
}

func randomBoolPointer(c randfill.Continue) *bool {
	if c.Intn(3) == 0 {
		return nil
	}
	b := c.Bool()
	return &b
}
