package runtime

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StashAnnotationPrefix starts the annotations in which conversions keep the
// data the destination version cannot hold.
//
// Converting an object from version X to version Y can lose data: a field
// that only X has, or a nil pointer that Y holds as a plain value. Before the
// API server prunes it, the generated conversion writes X's object, without
// its metadata, as JSON into the annotation conversion.crdforge.io/X on the Y
// object. Converting the Y object back to X restores exactly those fields from
// the annotation and removes it. Every other field of metadata is copied
// untouched, so a round trip X → Y → X is exact, whichever way it goes
// through the hub.
//
// Stashes larger than compressAbove bytes are stored as "gzip:" followed by
// the base64 of the gzipped JSON: annotations of an object share a 256 KiB
// budget, and a spec with a pod template compresses several times over.
const StashAnnotationPrefix = "conversion.crdforge.io/"

// compressAbove is the JSON size from which stashes are gzipped.
const compressAbove = 2048

// gzipPrefix marks a compressed stash.
const gzipPrefix = "gzip:"

// StashAnnotation is the annotation that holds the stashed data of version.
func StashAnnotation(version string) string { return StashAnnotationPrefix + version }

// Stash stores v, as JSON, in meta's annotation key (StashAnnotation of the
// version v belongs to; generated code passes it as a constant).
func Stash(meta *metav1.ObjectMeta, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("stashing data in annotation %s: %w", key, err)
	}
	value := string(raw)
	if len(raw) > compressAbove {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(raw)
		if err := zw.Close(); err != nil {
			return fmt.Errorf("compressing the stash for annotation %s: %w", key, err)
		}
		value = gzipPrefix + base64.StdEncoding.EncodeToString(buf.Bytes())
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[key] = value
	return nil
}

// HasStash reports whether meta carries the stash annotation key.
func HasStash(meta *metav1.ObjectMeta, key string) bool {
	_, ok := meta.Annotations[key]
	return ok
}

// Unstash removes meta's annotation key and, when into is not nil, decodes
// the stashed data into it. It reports whether the annotation was there. An
// annotation map left empty becomes nil, as it was before Stash.
func Unstash(meta *metav1.ObjectMeta, key string, into any) (bool, error) {
	raw, ok := meta.Annotations[key]
	if !ok {
		return false, nil
	}
	delete(meta.Annotations, key)
	if len(meta.Annotations) == 0 {
		meta.Annotations = nil
	}
	if into == nil {
		return true, nil
	}
	data := []byte(raw)
	if rest, ok := strings.CutPrefix(raw, gzipPrefix); ok {
		zipped, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return true, fmt.Errorf("restoring data from annotation %s: %w", key, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped))
		if err != nil {
			return true, fmt.Errorf("restoring data from annotation %s: %w", key, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return true, fmt.Errorf("restoring data from annotation %s: %w", key, err)
		}
	}
	if err := json.Unmarshal(data, into); err != nil {
		return true, fmt.Errorf("restoring data from annotation %s: %w", key, err)
	}
	return true, nil
}
