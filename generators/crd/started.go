package crd

import (
	"sync"
	"sync/atomic"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Started is the CRD generator started before the model is complete. The
// model builds one kind at a time, in one goroutine (controller-tools'
// schema parser is not safe for concurrent use), which leaves the other
// cores mostly idle, while printing and validating the CRDs afterwards is
// the larger part of a CRD-only run and keeps every core busy. Started
// prints and validates each kind's CRD as soon as the model hands the kind
// over (model.Builder.Kinds), on the idle cores, while the model builds the
// next one.
//
// What a CRD is made of is final once the model hands its kind over, but
// for the conversion strategy, which the model's last steps turn from
// Webhook to None for a kind whose conversion needs functions nobody has
// written, or whose packages' conversions are conversion-gen's
// (model.Builder.Kinds). Each CRD is printed with the conversion as it was then; Generate
// keeps it when the kind's conversion is still that, and prints and
// validates the CRD again when it is not. Its files and diagnostics are
// Generator.Generate's.
type Started struct {
	Generator

	mu      sync.Mutex
	wake    *sync.Cond
	queue   []*early // handed over, not yet taken by a worker
	byKind  map[*model.Kind]*early
	v       *validator
	omit    *omissions
	stopped bool
	inline  bool
	workers sync.WaitGroup
	kept    atomic.Int32
}

// early is one kind's CRD printed and validated ahead.
type early struct {
	k     *model.Kind
	conv  model.Conversion // the kind's conversion when handed over
	done  bool
	file  output.File
	ok    bool
	diags *diag.List
}

// Start starts the generator with workers goroutines, which take the kinds
// Kind hands over. With no workers, Kind prints and validates each CRD
// itself, in the model's goroutine (tests use it to have every CRD made
// ahead).
func (g Generator) Start(workers int) *Started {
	s := &Started{Generator: g, byKind: map[*model.Kind]*early{}, inline: workers < 1}
	s.wake = sync.NewCond(&s.mu)
	for range workers {
		s.workers.Add(1)
		go s.work()
	}
	return s
}

// Kind hands k over, as model.Builder.Kinds's each: k's CRD is printed and
// validated with k's conversion as it is now.
func (s *Started) Kind(m *model.Model, k *model.Kind) {
	e := &early{k: k, conv: k.Conversion}
	s.mu.Lock()
	if s.v == nil {
		s.v, s.omit = newValidator(m, s.ValidationRecord), newOmissions(m)
	}
	s.byKind[k] = e
	if !s.inline {
		s.queue = append(s.queue, e)
	}
	s.mu.Unlock()
	if s.inline {
		s.make(e)
		return
	}
	s.wake.Signal()
}

func (s *Started) work() {
	defer s.workers.Done()
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.stopped {
			s.wake.Wait()
		}
		if s.stopped {
			s.mu.Unlock()
			return
		}
		e := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.make(e)
	}
}

func (s *Started) make(e *early) {
	e.diags = diag.New(s.v.m.Fset)
	e.file, e.ok = s.generate(s.v, s.omit, e.k, e.conv, e.diags)
	e.done = true
}

// Stop takes no more kinds, and returns once the workers have finished the
// ones in hand. Generate stops first; a caller that drops the model without
// running Generate stops the generator itself.
func (s *Started) Stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	s.wake.Broadcast()
	s.workers.Wait()
}

// Generate is Generator.Generate, for the model whose kinds were handed
// over: it keeps what was made ahead and makes the rest, on every core.
func (s *Started) Generate(m *model.Model, diags *diag.List) []output.File {
	s.Stop() // after Wait, every early one is done or was never taken
	v, omit := s.v, s.omit
	if v == nil {
		v, omit = newValidator(m, s.ValidationRecord), newOmissions(m)
	}
	return eachKind(m, diags, func(k *model.Kind, diags *diag.List) (output.File, bool) {
		if e := s.byKind[k]; e != nil && e.done && e.conv == k.Conversion {
			s.kept.Add(1)
			diags.Append(e.diags)
			return e.file, e.ok
		}
		return s.generate(v, omit, k, k.Conversion, diags)
	})
}

// Kept is how many of Generate's CRDs are those made before the model was
// complete.
func (s *Started) Kept() int { return int(s.kept.Load()) }
