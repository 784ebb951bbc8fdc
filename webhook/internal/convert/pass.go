package convert

import (
	"errors"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
	"github.com/crdforge/crdforge/webhook/typedjson"
)

// errPassing says an object could not be converted passing members (an
// encoder declined): it converts again without.
var errPassing = errors.New("convert: the members passed could not be written")

// passes reports whether a route from a version with codec from to one
// with codec to passes members: both DecodeData pass the same ones, and
// to writes them.
func passes(from, to Codec) bool {
	return len(from.Transcode) > 0 && len(from.Transcode) == len(to.Transcode) && to.EncodeData != nil
}

// passing holds the members of one object that its route passes: where
// DecodeData found them and, transcoded, what EncodeData writes (raw[i]
// nil for a member the object lacks, which the encoder writes from the
// zero value as the typed path would).
type passing struct {
	marks typedjson.Marks
	raw   [][]byte
	bufs  [][]byte
}

// transcode decodes obj into out with codec's DecodeData, and transcodes
// the members it passes; it reports false when the object is to be decoded
// whole instead: the decoder declined, a transcoder failed where decoding
// would (the typed path then gives the answer or the error), or out holds
// a stash of one of the versions restorable, which converting restores
// into any field, a passed one included, and only the typed path restores.
func (p *passing) transcode(obj *jsonscan.Object, tape *jsonscan.Tape, out runtime.Object, codec Codec, restorable [2]string) bool {
	if typedjson.DecodePassing(obj.Raw, tape, out, codec.DecodeData, &p.marks) != nil {
		return false
	}
	if m := objectMeta(out); m == nil || holdsStash(m.Annotations, restorable) {
		return false
	}
	n := len(codec.Transcode)
	for len(p.bufs) < n {
		p.bufs = append(p.bufs, nil)
	}
	p.raw = p.raw[:0]
	for i, transcode := range codec.Transcode {
		if p.marks[i] == 0 {
			p.raw = append(p.raw, nil)
			continue
		}
		b, err := typedjson.Transcode(obj.Raw, tape, p.marks[i], p.bufs[i][:0], transcode)
		if err != nil {
			return false
		}
		p.bufs[i] = b
		p.raw = append(p.raw, b)
	}
	return true
}

// holdsStash reports whether annotations, the stash's only (DecodeData
// decodes no other), hold the stash of one of versions: its key ends in
// "/" and the version (lossless.Annotation).
func holdsStash(annotations map[string]string, versions [2]string) bool {
	for k := range annotations {
		if v := k[strings.LastIndexByte(k, '/')+1:]; v == versions[0] || v == versions[1] {
			return true
		}
	}
	return false
}
