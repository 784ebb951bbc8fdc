// Package lossless makes conversions between the versions of a Kubernetes
// kind exact in both directions: what the destination version cannot hold is
// stashed in an annotation of the converted object (see AnnotationPrefix),
// and restored when the object comes back, unless it was changed in the
// meantime. Only the fields the conversion loses are stashed, as JSON shaped
// like the object, after a "sparse:" prefix:
//
//	conversion.crdforge.io/v1: sparse:{"spec":{"warranty":{"years":2},"replicas":null}}
//
// Structs are walked field by field; any other value (a pointer, list, map,
// string, number, or a type with its own JSON form such as a Quantity) is
// stored whole, null included. Stashes in the older full format (the whole
// object as "{...}" or "gzip:...") are still restored.
//
// crdforge's generated ConvertTo and ConvertFrom methods call Convert once
// each, with the two directions between a spoke version and its hub:
//
//	func (src *Widget) ConvertTo(dstRaw conversion.Hub) error {
//		dst, ok := dstRaw.(*v1.Widget)
//		...
//		return lossless.Convert(src, dst,
//			lossless.Checked("v1alpha1", "v1", Convert_v1alpha1_Widget_To_v1_Widget, lossy_v1alpha1_Widget_To_v1_Widget),
//			lossless.RoundTrip("v1", "v1alpha1", Convert_v1_Widget_To_v1alpha1_Widget))
//	}
//
// The protocol lives here, not in generated code, so that a fix to it ships
// with a new crdforge version and no regeneration.
//
// The package stays lean: it imports apimachinery only, never the
// generator's dependencies; a test enforces it.
package lossless

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Func converts in, an object of one version, into out, of another: the
// conversion-gen style Convert_ function of a kind's root types.
type Func[S, D any] func(in *S, out *D, s conversion.Scope) error

// Direction is one way of converting a kind's root type: from version From,
// whose Go type is S, to version To, whose Go type is D. Build one with
// Lossless, Checked or RoundTrip, which say how the conversion can lose data.
type Direction[S, D any] struct {
	from, to string
	convert  Func[S, D]
	loss     loss
	// lost reports whether convert drops data of in (loss == lossChecked).
	lost func(in *S) bool
	// lostIn, when set, are the only fields where lost finds losses.
	lostIn *Fields[S]
}

// loss says whether a direction can drop data, and how that is found out.
type loss int

const (
	// lossNone: the destination holds everything the source can.
	lossNone loss = iota
	// lossChecked: a generated check over the source's fields tells.
	lossChecked
	// lossRoundTrip: only converting back and comparing tells (a
	// hand-written conversion, a field moved into part of a struct).
	lossRoundTrip
)

// Lossless is a direction that never drops data.
func Lossless[S, D any](from, to string, convert Func[S, D]) Direction[S, D] {
	return Direction[S, D]{from: from, to: to, convert: convert, loss: lossNone}
}

// Checked is a direction that drops data exactly when lost(in) says so.
func Checked[S, D any](from, to string, convert Func[S, D], lost func(in *S) bool) Direction[S, D] {
	return Direction[S, D]{from: from, to: to, convert: convert, loss: lossChecked, lost: lost}
}

// RoundTrip is a direction whose losses only converting back can tell: the
// source is stashed whenever the round trip does not give its data again.
func RoundTrip[S, D any](from, to string, convert Func[S, D]) Direction[S, D] {
	return Direction[S, D]{from: from, to: to, convert: convert, loss: lossRoundTrip}
}

// Object is a pointer to a kind's root type: a Go struct that embeds
// metav1.TypeMeta and metav1.ObjectMeta.
type Object[T any] interface {
	*T
	metav1.Object
}

// errIncomplete marks a direction built without one of the constructors.
var errIncomplete = errors.New("lossless: a Direction must be built with Lossless, Checked or RoundTrip")

// Convert converts src into dst through there, and keeps the round trip
// exact; back is the opposite direction. In order:
//
//  1. convert src into dst;
//  2. drop a stash of src's own version from dst: it is stale;
//  3. when back can drop data, restore what an earlier conversion from dst's
//     version stashed, field by field where dst still holds what that
//     conversion made of it; otherwise drop such a stash as stale;
//  4. when there can drop data and does for src (for a RoundTrip direction:
//     when the restored dst does not convert back to src's data), stash on
//     dst the fields of src's data (all but its TypeMeta and ObjectMeta) that
//     dst converted back does not give again.
//
// Annotations other than the two versions' stashes, and stashes in a format
// a later crdforge may write, are left alone.
func Convert[S, D any, PS Object[S], PD Object[D]](src PS, dst PD, there Direction[S, D], back Direction[D, S]) error {
	if there.convert == nil || back.convert == nil {
		return errIncomplete
	}
	err := there.convert(src, dst, nil)
	if err != nil {
		return err
	}
	if err := dropStale(dst, there.from); err != nil {
		return err
	}
	// Restore before checking for losses: what converting back loses is
	// judged on the object the caller gets. Checked the other way, a pair of
	// conversions that each lose data (a schedule joined and split again)
	// would stash src although the restored dst converts back to it exactly.
	restored := false
	if !back.canLose() {
		if err := dropStale(dst, there.to); err != nil {
			return err
		}
	} else if restored, err = restoreStashed(dst, there, back); err != nil {
		return err
	}
	return stashLost(src, dst, there, back, restored)
}

// dropStale removes the stash of version from obj, unless a later crdforge
// wrote it.
func dropStale(obj annotated, version string) error {
	if _, err := unstash(obj, version, nil); err != nil && !errors.Is(err, errUnknownFormat) {
		return err
	}
	return nil
}

// stashLost stashes on dst what converting src with there lost.
//
// It stashes sparsely (see sparsePrefix): only the fields where src and
// again, dst converted back, differ. For a Checked direction that costs one
// more conversion, but only when the check finds a loss, and a stash of the
// lost fields alone is a fraction of the whole object's JSON to write, to
// store and to read back. A root type the sparse stash cannot walk is
// stashed whole, in the full format. A Checked direction that says
// where it loses data (LostIn) has only those fields compared, unless
// restored says dst got data back from a stash.
//
// A destination type that hides data in JSON (jsonhides.go), or a source
// type that shows zero structs in JSON (zeroshown.go), is judged as JSON
// reads the destination back, whatever the direction's loss check says:
// converted back from there, every field is compared.
func stashLost[S, D any, PS Object[S], PD Object[D]](src PS, dst PD, there Direction[S, D], back Direction[D, S], restored bool) error {
	hides := there.judgedInJSON()
	if !hides && (there.loss == lossNone || there.loss == lossChecked && !there.lost(src)) {
		return nil
	}
	fields, sparse := rootDiff(reflect.TypeOf((*S)(nil)).Elem())
	if there.loss == lossChecked && there.lostIn != nil && !restored && !hides {
		if narrow, ok := there.lostIn.diff(); ok {
			fields = narrow
		}
	}
	roundTrip := there.loss == lossRoundTrip || hides
	again := getScratch[S]()
	defer putScratch(again)
	if roundTrip || sparse {
		if err := back.convert(readBack(dst, hides), again, nil); err != nil {
			return fmt.Errorf("converting %s back to %s to check for lost data: %w", there.to, there.from, err)
		}
	}
	if sparse {
		_, err := stashSparse(dst, there.from, unsafe.Pointer(src), unsafe.Pointer(again), fields)
		return err
	}
	if roundTrip && sameData(src, again) {
		return nil
	}
	data := *src
	clearMeta(&data)
	return stash(dst, there.from, &data)
}

// restoreStashed brings back into dst the data of dst's version that an
// earlier conversion the other way stashed on it: from a sparse stash (see
// restoreSparse), or from a full one, as stashed by crdforge before the
// sparse stash and still found in clusters. It reports whether there was a
// stash to restore from.
func restoreStashed[S, D any, PD Object[D]](dst PD, there Direction[S, D], back Direction[D, S]) (bool, error) {
	value, ok := dst.GetAnnotations()[Annotation(there.to)]
	if !ok || !knownFormat(value) {
		return false, nil
	}
	if isSparse(value) {
		if _, err := unstash(dst, there.to, nil); err != nil {
			return true, err
		}
		data, err := decode(value)
		if err != nil {
			return true, fmt.Errorf("restoring data from annotation %s: %w", Annotation(there.to), err)
		}
		return true, restoreSparse(dst, data, there, back)
	}
	var saved D
	if _, err := unstash(dst, there.to, &saved); err != nil {
		return true, err
	}
	// base is what the mechanical round trip makes of saved: a field of dst
	// that still equals it was not changed in the other version.
	var through S
	var base D
	if err := back.convert(&saved, &through, nil); err != nil {
		return true, fmt.Errorf("converting the %s data stashed in %s: %w", there.to, Annotation(there.to), err)
	}
	if err := there.convert(&through, &base, nil); err != nil {
		return true, fmt.Errorf("converting the %s data stashed in %s: %w", there.to, Annotation(there.to), err)
	}
	restore((*D)(dst), &base, &saved)
	return true, nil
}

// clearMeta zeroes the TypeMeta and ObjectMeta of a root object, which a
// stash leaves out: the converted object carries its own.
func clearMeta(obj any) {
	v := reflect.ValueOf(obj).Elem()
	for i := 0; i < v.NumField(); i++ {
		if isMeta(v.Type().Field(i).Type) {
			v.Field(i).SetZero()
		}
	}
}
