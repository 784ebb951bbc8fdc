package review

import (
	"bytes"
	"sync"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// state is the memory one request uses, from its body to its response,
// kept in a pool for the next: under load the server answers one review
// after another of much the same size, and allocating (and collecting) a
// body, a response and every object's buffers each time costs more than
// converting some of the objects.
type state struct {
	body    bytes.Buffer
	review  jsonscan.Review
	out     []byte
	scratch convert.Scratch
}

var states = sync.Pool{New: func() any { return new(state) }}

// maxPooledBytes bounds the buffers a pooled state keeps: a rare outsized
// review's memory goes back to the heap rather than staying in the pool.
const maxPooledBytes = 2 * DefaultMaxRequestBytes

func getState() *state { return states.Get().(*state) }

// putState returns s to the pool once its request is answered: nothing of
// it (the body the review points into, the response written) is used after.
func putState(s *state) {
	if s.body.Cap() > maxPooledBytes || cap(s.out) > maxPooledBytes {
		return
	}
	s.body.Reset()
	s.out = s.out[:0]
	states.Put(s)
}
