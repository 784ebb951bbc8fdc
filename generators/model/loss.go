package model

// settleLoss decides every direction's Loss. Pairs refer to each other, in
// cycles too, so both questions (can it lose data; can the types alone tell)
// are fixpoints over all the pairs of a spoke.
func settleLoss(pairs []*TypePair) {
	lossy := map[*Direction]bool{}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if l := canLose(d); l != lossy[d] {
					lossy[d], changed = l, true
					d.Loss = lossFlag(l) // read by Conv.Lossy of pairs pointing here
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, tp := range pairs {
			for _, d := range tp.Directions() {
				if !lossy[d] || d.Loss == LossRoundTrip || !needsRoundTrip(d) {
					continue
				}
				d.Loss, changed = LossRoundTrip, true
			}
		}
	}
}

func lossFlag(lossy bool) Loss {
	if lossy {
		return LossChecked
	}
	return LossNone
}

// canLose reports whether converting in direction d can drop data.
func canLose(d *Direction) bool {
	tp := d.Pair
	if tp.OptOut || d.Manual != nil || len(d.SourceOnly) > 0 || len(d.NestedSourceOnly) > 0 || len(d.NilThrough) > 0 {
		return true
	}
	for _, f := range d.Fields {
		if f.Mapping.OptOut || f.Conv.Lossy() {
			return true
		}
	}
	return false
}

// needsRoundTrip reports whether only converting back can tell what d lost:
// its code is hand-written or opted out, a struct converts whole into the
// enclosing one (the fields it covers are not tracked one by one), or a
// field goes through such a direction.
func needsRoundTrip(d *Direction) bool {
	if d.Pair.OptOut || d.Manual != nil {
		return true
	}
	for _, f := range d.Fields {
		if f.Mapping.OptOut || f.Mapping.Whole || f.Conv.roundTrip() {
			return true
		}
	}
	return false
}
