package crd

import (
	"runtime"
	"sync"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/output"
	"github.com/crdforge/crdforge/internal/diag"
)

// Started is a run of the generator that prints and validates each kind's
// CRD as soon as it is handed the kind (Kind), while the model builds the
// next: the model's schema parsing runs on one goroutine, and the API
// server's validation, most of a CRD's cost, can use the other cores
// meanwhile. Generate then returns what Generator.Generate returns: the
// files and diagnostics of every kind of the model, in the model's order.
//
// GOMAXPROCS-1 workers take kinds while the model builds (the model keeps
// one core); Generate adds one once the model is complete. Close stops the
// workers when Generate will not run.
type Started struct {
	Generator

	mu     sync.Mutex
	wake   *sync.Cond
	queue  []*kindRun
	byKind map[*model.Kind]*kindRun
	closed bool
	v      *validator
}

// kindRun is one kind's file and diagnostics, once done is closed.
type kindRun struct {
	k     *model.Kind
	file  output.File
	ok    bool
	diags *diag.List
	done  chan struct{}
}

// Start starts a run that takes kinds as the model builds them.
func (g Generator) Start() *Started {
	s := &Started{Generator: g, byKind: map[*model.Kind]*kindRun{}}
	s.wake = sync.NewCond(&s.mu)
	for range runtime.GOMAXPROCS(0) - 1 {
		go s.work()
	}
	return s
}

// Kind starts k's CRD, unless it has started already. The model hands over
// each kind once the kind is final (model.BuildEach); m is the model being
// built, whose file set and markers are complete by then.
func (s *Started) Kind(m *model.Model, k *model.Kind) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKind[k] != nil {
		return
	}
	if s.v == nil {
		s.v = newValidator(m, s.Passed)
	}
	r := &kindRun{k: k, diags: diag.New(m.Fset), done: make(chan struct{})}
	s.byKind[k] = r
	s.queue = append(s.queue, r)
	s.wake.Signal()
}

// work generates the kinds queued, until the queue is empty and closed.
func (s *Started) work() {
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.closed {
			s.wake.Wait()
		}
		if len(s.queue) == 0 {
			s.mu.Unlock()
			return
		}
		r := s.queue[0]
		s.queue = s.queue[1:]
		v := s.v
		s.mu.Unlock()
		r.file, r.ok = s.generate(v, r.k, r.diags)
		close(r.done)
	}
}

// Close ends the run: the workers finish the kinds queued and stop.
func (s *Started) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.wake.Broadcast()
}

// Generate returns one file per kind of m, as Generator.Generate does. It
// starts the kinds not handed over yet, and ends the run.
func (s *Started) Generate(m *model.Model, diags *diag.List) []output.File {
	var kinds []*model.Kind
	for _, grp := range m.Groups {
		kinds = append(kinds, grp.Kinds...)
	}
	for _, k := range kinds {
		s.Kind(m, k)
	}
	go s.work() // the model's core, free now
	s.Close()
	var out []output.File
	for _, k := range kinds {
		s.mu.Lock()
		r := s.byKind[k]
		s.mu.Unlock()
		<-r.done
		diags.Append(r.diags)
		if r.ok {
			out = append(out, r.file)
		}
	}
	return out
}
