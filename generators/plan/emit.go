package plan

import "github.com/crdforge/crdforge/generators/model"

// settleEmit decides which directions are Needed by a generated entry
// point, and which are emitted: the needed ones, and those whose functions
// compile without anything hand-written that is missing.
func settleEmit(spokes []*model.Spoke, pairs []*model.TypePair) {
	var queue []*model.Direction
	need := func(d *model.Direction) {
		if !d.Needed {
			d.Needed = true
			queue = append(queue, d)
		}
	}
	for _, s := range spokes {
		root := s.Pairs[0]
		if s.Generates(root.ToHub) || s.Generates(root.ToSpoke) {
			// lossless.Convert takes both directions of the root.
			need(root.ToHub)
			need(root.ToSpoke)
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if d.Manual != nil || d.Pair.OptOut {
			continue // hand-written: what it calls is its author's business
		}
		for _, e := range calls(d) {
			need(e)
		}
	}
	// The rest: emitted unless they call something missing. Start from
	// "everything compiles" and take back until nothing changes, so that
	// structs referring to each other in a cycle still compile.
	for _, tp := range pairs {
		for _, d := range tp.Directions() {
			d.Emit = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if d.Emit && !d.Needed && !compiles(d) {
					d.Emit, changed = false, true
				}
			}
		}
	}
}

// calls lists the pair directions whose Convert_ d's autoConvert_ calls,
// its pairer's and the generated ones of other pairers.
func calls(d *model.Direction) []*model.Direction {
	var out []*model.Direction
	for _, f := range d.Fields {
		if f.Mapping.OptOut {
			continue
		}
		if manual, _ := f.Conv.Manual(); manual {
			continue // printed as a warning comment, not a call
		}
		out = append(out, funcDirs(f.Conv)...)
	}
	return out
}

// compiles reports whether d's autoConvert_ only calls Convert_ functions
// that exist: hand-written, or generated because complete and emitted.
func compiles(d *model.Direction) bool {
	for _, e := range calls(d) {
		if !available(e) {
			return false
		}
	}
	return true
}

// available reports whether e's Convert_ function exists.
func available(e *model.Direction) bool {
	if e.Manual != nil {
		return true
	}
	fields, _ := e.NeedsManual()
	return !e.Pair.OptOut && len(fields) == 0 && e.Emit
}
