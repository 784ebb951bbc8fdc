package crd

import (
	"runtime"
	"sync"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/output"
	"github.com/crdforge/crdforge/internal/diag"
)

// Early is the generator started before the model is built: the model hands
// it each kind as soon as the kind is final (model.BuildEach), and it
// prints and validates that kind on the other cores while the model goes on
// building the next one in controller-tools' schema parser, which is
// sequential. The API server's validation is most of this generator's work;
// started this way it no longer waits for the last kind's schema. Generate
// waits for the kinds under way and gathers them in the model's order, so the
// files and diagnostics are those Generator.Generate returns.
type Early struct {
	Generator
	sem  chan struct{}
	wg   sync.WaitGroup
	v    *validator
	mu   sync.Mutex
	done map[*model.Kind]kindResult
}

type kindResult struct {
	file  *output.File
	diags *diag.List
}

// Start returns g started early; pass its KindBuilt to model.BuildEach.
func (g Generator) Start() *Early {
	return &Early{
		Generator: g,
		sem:       make(chan struct{}, runtime.GOMAXPROCS(0)),
		done:      map[*model.Kind]kindResult{},
	}
}

// KindBuilt starts printing and validating k. The model calls it on its own
// goroutine, so it must not block: each kind waits for a free core in its own
// goroutine.
func (e *Early) KindBuilt(m *model.Model, k *model.Kind) {
	if e.v == nil {
		e.v = newValidator(m) // the validator reads the model's markers, complete before any kind
	}
	v := e.v
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		e.sem <- struct{}{}
		defer func() { <-e.sem }()
		d := diag.New(m.Fset)
		f := e.Generator.generate(v, k, d)
		e.mu.Lock()
		e.done[k] = kindResult{f, d}
		e.mu.Unlock()
	}()
}

// Generate waits for the kinds started early, and does any the model did
// not hand out (none when the model was built with KindBuilt).
func (e *Early) Generate(m *model.Model, diags *diag.List) []output.File {
	e.wg.Wait()
	return e.Generator.gather(m, diags, e.done)
}
