package review

import (
	"bytes"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/crdforge/crdforge/webhook/internal/convert"
	"github.com/crdforge/crdforge/webhook/internal/jsonscan"
)

// state is the memory one request uses, from its body to its response,
// kept for the next: under load the server answers one review after
// another of much the same size, and allocating (and collecting) a body, a
// response and every object's buffers each time costs more than converting
// some of the objects.
type state struct {
	body    bytes.Buffer
	review  jsonscan.Review
	out     []byte
	scratch convert.Scratch
}

// maxPooledBytes bounds the buffers a kept state holds: a rare outsized
// review's memory goes back to the heap rather than staying with the
// handler.
const maxPooledBytes = 2 * DefaultMaxRequestBytes

// statePool keeps the states of answered requests for the next ones, in two
// tiers.
//
// The first is one state kept across garbage collections. A sync.Pool alone
// does not keep it: every collection moves what it holds aside and the next
// drops it, and a state put back on one processor (P) is not found by a
// request that runs on another before then. A review of a thousand objects
// (2 MB in, 2 MB out) allocates some 4 MB in its objects, close to a
// collection per request, so a server answering such reviews one after
// another lost its state about one request in twenty, and then read the next body into new
// memory and grew the next response from nothing: some 13 MB, much of it
// fresh from the OS, whose page faults and copies were most of what such a
// review cost per object beyond a review of a hundred. This state, at most
// 2 × maxPooledBytes and most often the size of the last large review, is
// what an idle handler keeps.
//
// The second is a sync.Pool, for the states of concurrent requests, which
// the collector takes back when they sit unused.
type statePool struct {
	warm atomic.Pointer[state]
	more sync.Pool
}

// get returns a state to answer a request with: the kept one, a pooled one,
// or a new one.
func (p *statePool) get() *state {
	if s := p.warm.Swap(nil); s != nil {
		return s
	}
	if s, ok := p.more.Get().(*state); ok {
		return s
	}
	return new(state)
}

// put takes back s once its request is answered: nothing of it (the body
// the review points into, the response written) is used after. A state
// with a buffer larger than maxPooledBytes (the body, the response, or the
// review's tapes, which a body of short tokens makes several times its
// size) is left to the collector.
func (p *statePool) put(s *state) {
	if s.body.Cap() > maxPooledBytes || cap(s.out) > maxPooledBytes || s.review.TapeBytes() > maxPooledBytes {
		return
	}
	s.body.Reset()
	s.out = s.out[:0]
	if p.warm.CompareAndSwap(nil, s) {
		return
	}
	p.more.Put(s)
}

// responseRoom makes room in out for the response to a review whose body is
// bodyLen bytes long: the body's length and an eighth. A converted object
// is about as long as the one received (the same metadata, managedFields
// included, and the same values under other names, with a stash annotation
// at most), so the response rarely outgrows it; made at once, it spares a
// new state's response the growth by appending, which allocates five times
// its final size and copies four, 10 MB for a review of a thousand objects.
// A kept state's buffer most often has the room already.
func responseRoom(out []byte, bodyLen int) []byte {
	return slices.Grow(out[:0], bodyLen+bodyLen/8)
}
