package lossless

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// The sparse stash.
//
// A conversion that loses data stashes only what the round trip loses: the
// fields where the source and the source converted there and back differ.
// The annotation value is
//
//	sparse:{"spec":{"legacyID":"W-0042","replicas":null}}
//
// a JSON object shaped like the stashed version's object, holding only those
// fields, or "sparse+gzip:" followed by the base64 of that JSON gzipped when
// it is longer than compressAbove bytes. The object's structs are walked
// field by field, as encoding/json names them (embedded structs promoted);
// everything else (pointers, slices, maps, scalars, and structs with a JSON
// form of their own such as Quantity, Time, IntOrString, RawExtension) is a
// leaf and stored whole, a nil one as an explicit null, so that a field
// present in the stash always says "restore this", never "absent". Fields
// promoted through an embedded pointer are members like the others, with a
// marker member where the pointer's own nil-ness was lost (embedptr.go).
//
// The prefix is one that crdforge runtimes before the sparse stash do not
// know: they leave the annotation alone (see errUnknownFormat) rather than
// decode it as a whole object. A full stash ("{" or "gzip:"), as written
// before, is still read and restored as before.
const (
	sparsePrefix     = "sparse:"
	sparseGzipPrefix = "sparse+gzip:"
)

func isSparse(value string) bool {
	return strings.HasPrefix(value, sparsePrefix) || strings.HasPrefix(value, sparseGzipPrefix)
}

// rootFields returns the fields of a root type that hold its data, those
// outside its TypeMeta and ObjectMeta, and the embedded pointers they are
// promoted through, and false when the sparse stash cannot walk them.
func rootFields(t reflect.Type) ([]jsonField, []embedPtr, bool) {
	r := rootOf(t)
	return r.fields, r.embeds, r.ok
}

// rootDiff returns the diff of a root type's data fields (see rootFields),
// and false when the sparse stash cannot walk them.
func rootDiff(t reflect.Type) ([]diffField, bool) {
	r := rootOf(t)
	return r.diff, r.ok
}

type rootTable struct {
	fields []jsonField
	embeds []embedPtr
	diff   []diffField
	ok     bool
}

var rootFieldsOf sync.Map // reflect.Type → *rootTable

func rootOf(t reflect.Type) *rootTable {
	if r, ok := rootFieldsOf.Load(t); ok {
		return r.(*rootTable)
	}
	r := &rootTable{ok: true}
	meta := map[int]bool{}
	for _, i := range metaFields(t) {
		meta[i] = true
	}
	for _, f := range fieldsOf(t).fields {
		if meta[f.index[0]] {
			continue
		}
		r.fields = append(r.fields, f)
	}
	r.embeds = pointerEmbeds(t, r.fields)
	r.diff = buildDiff(t, r.fields)
	actual, _ := rootFieldsOf.LoadOrStore(t, r)
	return actual.(*rootTable)
}

func metaFields(t reflect.Type) []int {
	var idx []int
	for i := 0; i < t.NumField(); i++ {
		if isMeta(t.Field(i).Type) {
			idx = append(idx, i)
		}
	}
	return idx
}

// sparseWriter encodes a sparse stash. Pooled: a stash is written for every
// lossy conversion, and the buffer and encoder are the same every time.
type sparseWriter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

var sparseWriters = sync.Pool{New: func() any {
	w := &sparseWriter{}
	w.enc = json.NewEncoder(&w.buf)
	return w
}}

// stashSparse stashes on dst, in the annotation of version, the data fields
// (of the root type whose diff is fields) where src and again, what src
// becomes converted there and back, differ. It reports false, and stashes
// nothing, when they do not differ.
func stashSparse(dst annotated, version string, src, again unsafe.Pointer, fields []diffField) (bool, error) {
	w := sparseWriters.Get().(*sparseWriter)
	defer func() {
		if w.buf.Cap() <= 64<<10 {
			w.buf.Reset()
			sparseWriters.Put(w)
		}
	}()
	w.buf.Reset()
	w.buf.WriteString(sparsePrefix)
	wrote, err := w.diff(src, again, fields)
	if err != nil {
		return false, fmt.Errorf("stashing data in annotation %s: %w", Annotation(version), err)
	}
	if !wrote {
		return false, nil
	}
	raw := w.buf.Bytes()[len(sparsePrefix):]
	value := ""
	if len(raw) > compressAbove {
		z, err := compress(raw)
		if err != nil {
			return false, fmt.Errorf("compressing the stash for annotation %s: %w", Annotation(version), err)
		}
		value = sparseGzipPrefix + z
	} else {
		value = w.buf.String()
	}
	setAnnotation(dst, stashKey(version), value)
	return true, nil
}

// decodeSparse decodes a sparse stash's JSON into into, a struct of its
// own whose fields are fields, promoted through the embedded pointers
// embeds, and returns the index paths (from the root) of the leaves and
// markers it holds.
func decodeSparse(data []byte, into reflect.Value, fields []jsonField, embeds []embedPtr, prefix []int, paths [][]int) ([][]int, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errors.New("not a JSON object")
	}
	fresh := map[unsafe.Pointer]bool{}
	for _, e := range embeds {
		raw, ok := obj[e.name]
		if !ok {
			continue
		}
		v := settable(into, e.index, fresh)
		if string(raw) == "null" {
			v.SetZero()
		} else if v.IsNil() {
			v.Set(reflect.New(e.typ.Elem()))
		}
		paths = append(paths, append(slices.Clip(prefix), e.index...))
	}
	for i := range fields {
		f := &fields[i]
		raw, ok := obj[f.name]
		if !ok {
			continue
		}
		path := append(slices.Clip(prefix), f.index...)
		v := settable(into, f.index, fresh)
		var err error
		switch {
		case f.walk && string(raw) == "null":
			// A zero struct JSON shows (zeroshown.go): restored as Go's zero.
			v.SetZero()
			paths = append(paths, path)
		case f.walk:
			sf := fieldsOf(f.typ)
			paths, err = decodeSparse(raw, v, sf.fields, sf.embeds, path, paths)
		case f.quoted && string(raw) != "null":
			var s string
			if err = json.Unmarshal(raw, &s); err == nil {
				err = json.Unmarshal([]byte(s), v.Addr().Interface())
			}
			paths = append(paths, path)
		default:
			err = json.Unmarshal(raw, v.Addr().Interface())
			paths = append(paths, path)
		}
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.name, err)
		}
	}
	return paths, nil
}

// restoreSparse brings back into dst the fields a sparse stash holds, each
// where the other version did not change it.
//
// saved holds the stashed fields of the object src as it was before
// converting it to the other version, and nothing else. The full stash
// compared dst with base, the round trip of all of src, and took src's value
// wherever they agreed. Here the rest of src is not known, but it need not
// be: where the round trip keeps src's data, dst (unless edited) already
// holds it. candidate is dst with the stashed fields put back, and base its
// round trip. When nothing was changed in the other version, dst is the
// round trip of src, so candidate has src's data (stashed fields from src,
// all others equal to src's, or they would have been stashed), base is the
// round trip of src's data, the full stash's base, and each stashed field of
// dst equals base's: all of them are restored, giving src's data, as the
// full stash gave. A stashed field changed in the other version differs from
// base, and dst's value is kept, as with the full stash; fields not stashed
// are dst's either way. A stashed pointer to a struct changed in part is
// merged field by field (mergeEdited). (Unlike the full stash, a stashed
// list or map whose elements were changed in part keeps dst's value whole:
// the sparse stash does not merge inside them.) A field behind a nil
// embedded pointer is absent, which no value equals (embedptr.go).
//
// dst's stashed fields are set whole, with values decoded for this call:
// dst may share slices, maps and pointees with the object it was converted
// from, which must not change, and nothing here writes into them. The walk
// writes into struct fields held by value, which are dst's own memory, and
// through embedded pointers only after pointing them at copies (settable).
func restoreSparse[S, D any, PD Object[D]](dst PD, data []byte, there Direction[S, D], back Direction[D, S]) error {
	fields, embeds, ok := rootFields(reflect.TypeOf((*D)(nil)).Elem())
	if !ok {
		return fmt.Errorf("restoring data from annotation %s: a sparse stash, but the sparse stash cannot walk %T", Annotation(there.to), dst)
	}
	var saved D
	vs := reflect.ValueOf(&saved).Elem()
	paths, err := decodeSparse(data, vs, fields, embeds, nil, nil)
	if err != nil {
		return fmt.Errorf("restoring data from annotation %s: %w", Annotation(there.to), err)
	}
	if len(paths) == 0 {
		return nil
	}
	stashed := make([]fieldValue, len(paths))
	for i, p := range paths {
		stashed[i] = fieldValue{p, vs.FieldByIndex(p)}
	}
	candidate := *dst
	setAll(reflect.ValueOf(&candidate).Elem(), stashed)
	var through S
	var base D
	if err := back.convert(&candidate, &through, nil); err != nil {
		return fmt.Errorf("converting the %s data stashed in %s: %w", there.to, Annotation(there.to), err)
	}
	if err := there.convert(&through, &base, nil); err != nil {
		return fmt.Errorf("converting the %s data stashed in %s: %w", there.to, Annotation(there.to), err)
	}
	out, vb := reflect.ValueOf(dst).Elem(), reflect.ValueOf(&base).Elem()
	images := imagesOf((*D)(dst), &candidate, there, back)
	var restored []fieldValue
	for _, fv := range stashed {
		if v, ok := restoredValue(out, vb, fv, images); ok {
			restored = append(restored, fieldValue{fv.path, v})
		}
	}
	// Set once every decision is made: setting a field behind an embedded
	// pointer, or a marker, changes what other paths of dst read.
	setAll(out, restored)
	return nil
}

// A fieldValue is a value for the field at path of a root object.
type fieldValue struct {
	path  []int
	value reflect.Value
}

// setAll sets the fields of root object v to values (see settable).
func setAll(v reflect.Value, values []fieldValue) {
	fresh := map[unsafe.Pointer]bool{}
	for _, fv := range values {
		settable(v, fv.path, fresh).Set(fv.value)
	}
}

// restoredValue decides the value of out's (dst's) field that saved holds
// the stashed value of: saved's where out still holds what base (vb) does,
// in Go or else as JSON shows them (images), a merge where a stashed
// pointer to a struct was changed in part, and none, false, where out
// keeps its own.
func restoredValue(out, vb reflect.Value, saved fieldValue, images *jsonImages) (reflect.Value, bool) {
	if sameField(out, vb, saved.path) || images.unchanged(saved.path) {
		return saved.value, true
	}
	o, inOut := lookup(out, saved.path)
	b, inBase := lookup(vb, saved.path)
	if inOut != inBase {
		return reflect.Value{}, false
	}
	return mergeEdited(o, b, saved.value)
}

// mergeEdited merges a stashed pointer to a struct, s, that the other
// version changed in part: o, dst's value, differs from b, base's. The
// result is a new struct: o's fields where they differ from b's (what the
// other version changed, an edit among them), s's everywhere else, struct
// by struct through pointers and values (cluster-api#9375: an edit of one
// field that moved into a struct must not lose that struct's fields only
// this version holds). ok is false where there is nothing to merge into
// (a nil side, a type with a JSON form of its own): o stays.
//
// Nothing is written into o's memory, which dst may share with the object
// it was converted from: fields are replaced whole in the new struct.
func mergeEdited(o, b, s reflect.Value) (reflect.Value, bool) {
	if o.Kind() != reflect.Pointer || o.IsNil() || b.IsNil() || s.IsNil() || !walkable(o.Type().Elem()) {
		return reflect.Value{}, false
	}
	n := reflect.New(o.Type().Elem())
	if !mergeStruct(n.Elem(), o.Elem(), b.Elem(), s.Elem()) {
		return reflect.Value{}, false
	}
	return n, true
}

// mergeStruct sets n, a struct of its own, to o merged with s where o
// equals b (see mergeEdited), nil in the same places where JSON shows it
// (nilsagree.go: an edit from nil to [] is an edit); false for a struct
// with fields behind embedded pointers.
func mergeStruct(n, o, b, s reflect.Value) bool {
	n.Set(o)
	for _, f := range fieldsOf(n.Type()).fields {
		if f.viaPointer {
			return false
		}
		fo, fb, fs := o.FieldByIndex(f.index), b.FieldByIndex(f.index), s.FieldByIndex(f.index)
		switch {
		case semanticEqual(fo, fb) && nilsAgree(fo, fb, f.omitEmpty):
			n.FieldByIndex(f.index).Set(fs)
		case f.walk:
			if !mergeStruct(n.FieldByIndex(f.index), fo, fb, fs) {
				n.FieldByIndex(f.index).Set(fo)
			}
		default:
			if m, ok := mergeEdited(fo, fb, fs); ok {
				n.FieldByIndex(f.index).Set(m)
			}
		}
	}
	return true
}

// scratches pools, per root type, the objects into which stashLost converts
// the destination back: one for every stash, thrown away right after.
var scratches sync.Map // reflect.Type → *sync.Pool

func getScratch[T any]() *T {
	p, ok := scratches.Load(reflect.TypeOf((*T)(nil)).Elem())
	if !ok {
		p, _ = scratches.LoadOrStore(reflect.TypeOf((*T)(nil)).Elem(), &sync.Pool{New: func() any { return new(T) }})
	}
	return p.(*sync.Pool).Get().(*T)
}

// putScratch zeroes v, which may share memory with the objects converted,
// so that the pool keeps none of it alive, and returns it to the pool.
func putScratch[T any](v *T) {
	var zero T
	*v = zero
	p, _ := scratches.Load(reflect.TypeOf((*T)(nil)).Elem())
	p.(*sync.Pool).Put(v)
}
