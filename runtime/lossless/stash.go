package lossless

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"sync"
)

// AnnotationPrefix starts the annotations in which conversions keep the data
// the destination version cannot hold: conversion.crdforge.io/<version>.
//
// Converting an object from version X to version Y can lose data: a field
// that only X has, or a nil pointer that Y holds as a plain value. Before the
// API server prunes it, the conversion writes the fields of X's object that
// converting the Y object back would not give again, as JSON, into the
// annotation conversion.crdforge.io/X on the Y object:
//
//	conversion.crdforge.io/v1: sparse:{"spec":{"warranty":{"years":2}}}
//
// (the format is described at sparsePrefix). Converting the Y object back to
// X restores those fields, each unless it was changed through Y, and removes
// the annotation. Every other field of metadata is copied untouched, so a
// round trip X → Y → X is exact, whichever way it goes through the hub.
//
// crdforge before the sparse stash wrote X's whole object, without its
// metadata: a JSON object ("{...}"), or "gzip:" followed by the base64 of the
// gzipped JSON. Such stashes, still found in clusters, are restored as they
// always were, by a three-way merge of the stashed object, its round trip
// and the object now.
//
// Stashes larger than compressAbove bytes are gzipped and base64-encoded, the
// sparse ones after "sparse+gzip:": annotations of an object share a 256 KiB
// budget, and a pod template compresses several times over.
const AnnotationPrefix = "conversion.crdforge.io/"

// Annotation is the annotation that holds the stashed data of version. It is
// the one place a stash key is built; it inlines, so a key only looked up
// stays on the stack.
func Annotation(version string) string { return AnnotationPrefix + version }

// compressAbove is the JSON size from which stashes are gzipped.
const compressAbove = 2048

// gzipPrefix marks a compressed stash.
const gzipPrefix = "gzip:"

// errUnknownFormat marks a stash this crdforge cannot read: neither a JSON
// object nor gzip, full or sparse (see sparsePrefix). A later crdforge may add encodings; an older webhook
// serving during a rollback must leave such a stash for the newer one to
// read rather than fail the conversion or drop the data.
var errUnknownFormat = errors.New("stash in an unknown format")

// annotated is what the stash needs of an object's metadata.
type annotated interface {
	GetAnnotations() map[string]string
	SetAnnotations(map[string]string)
}

// stashKeys interns the annotation keys stash stores, one per version: a
// key put into a map escapes, and building it per stash would cost an
// allocation every time. Versions come from generated code, so the table
// stays as small as an API's list of versions. A sync.Map, read without a
// lock: every lossy conversion looks its key up, from every goroutine
// converting, and a read lock's shared counter is contended.
var stashKeys sync.Map // version → Annotation(version)

func stashKey(version string) string {
	if key, ok := stashKeys.Load(version); ok {
		return key.(string)
	}
	key, _ := stashKeys.LoadOrStore(version, Annotation(version))
	return key.(string)
}

// stash stores v, as JSON, in obj's stash annotation of version.
func stash(obj annotated, version string, v any) error {
	key := stashKey(version)
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("stashing data in annotation %s: %w", key, err)
	}
	raw = dropEmptyMeta(raw)
	value := string(raw)
	if len(raw) > compressAbove {
		z, err := compress(raw)
		if err != nil {
			return fmt.Errorf("compressing the stash for annotation %s: %w", key, err)
		}
		value = gzipPrefix + z
	}
	setAnnotation(obj, key, value)
	return nil
}

// compress returns the base64 of raw gzipped.
func compress(raw []byte) (string, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// setAnnotation sets obj's annotation key to value.
func setAnnotation(obj annotated, key, value string) {
	// A copy: conversion-gen style conversions assign ObjectMeta, so the
	// map may be the source object's too, which must not change.
	a := maps.Clone(obj.GetAnnotations())
	if a == nil {
		a = map[string]string{}
	}
	a[key] = value
	obj.SetAnnotations(a)
}

func knownFormat(value string) bool {
	return strings.HasPrefix(value, "{") || strings.HasPrefix(value, gzipPrefix) || isSparse(value)
}

// unstash removes obj's stash annotation of version and, when into is not
// nil, decodes the stashed data into it. It reports whether the annotation
// was there. An annotation map left empty becomes nil, as it was before
// stash. A stash in an unknown format is left in place (errUnknownFormat).
func unstash(obj annotated, version string, into any) (bool, error) {
	a := obj.GetAnnotations()
	raw, ok := a[Annotation(version)]
	if !ok {
		return false, nil
	}
	if !knownFormat(raw) {
		return true, errUnknownFormat
	}
	a = maps.Clone(a) // may be shared with another object; see stash
	delete(a, Annotation(version))
	if len(a) == 0 {
		a = nil
	}
	obj.SetAnnotations(a)
	if into == nil {
		return true, nil
	}
	data, err := decode(raw)
	if err == nil {
		err = json.Unmarshal(data, into)
	}
	if err != nil {
		return true, fmt.Errorf("restoring data from annotation %s: %w", Annotation(version), err)
	}
	return true, nil
}

// decode returns a stash's JSON, uncompressed, full or sparse.
func decode(value string) ([]byte, error) {
	value = strings.TrimPrefix(value, sparsePrefix)
	rest, zipped := strings.CutPrefix(value, gzipPrefix)
	if !zipped {
		rest, zipped = strings.CutPrefix(value, sparseGzipPrefix)
	}
	if !zipped {
		return []byte(value), nil
	}
	b, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
