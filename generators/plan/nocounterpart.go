package plan

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// A field that one version has and the other lacks converts to nothing: the
// generated conversion leaves it out and the lossless stash restores it on
// the way back, so builds, round-trip tests and the webhook all succeed
// while a v1alpha1 object reads through v1 without the field's data. That is
// right for a field meant to live in one version, and a silent bug for one
// the author meant to pair (backupSchedule meant as backup.schedule). So
// every such field is a warning at the field, per direction, with the
// +crdforge:hubfield marker that would pair it when another field has the
// same words; +crdforge:nocounterpart on the field acknowledges it.

// reportConvertingMarkers reports +crdforge:nocounterpart markers on fields
// that do convert. A hub's field meets one pairer per spoke package, and the
// marker is right while any of them leaves the field out (v1's warranty,
// which v1alpha1 lacks, may well pair with a newer v2's): it is wrong only
// where every pairer that sees the field converts it.
func reportConvertingMarkers(pairers []*pairer) {
	seen, used := map[token.Pos]int{}, map[token.Pos]int{}
	marks := map[token.Pos]token.Pos{}
	first := map[token.Pos]*pairer{}
	for _, p := range pairers {
		converted := p.convertedFields()
		for pos, mpos := range p.acknowledgedBoth() {
			marks[pos] = mpos
			seen[pos]++
			if converted[pos] {
				used[pos]++
			}
			if first[pos] == nil {
				first[pos] = p
			}
		}
	}
	for _, pos := range sortedPositions(marks) {
		if used[pos] == seen[pos] {
			p := first[pos]
			p.diags.Errorf(marks[pos], "+%s on a field that converts", markers.NoCounterpartName).
				Note("%s pairs it with a field of the other version", p.fieldName(pos)).
				Help("remove the marker")
		}
	}
}

// convertedFields are the fields of the pairer's two packages that its
// generated conversions carry to a field of the other version.
func (p *pairer) convertedFields() map[token.Pos]bool {
	used := map[token.Pos]bool{}
	for _, tp := range p.order {
		for _, mp := range tp.Mappings {
			used[mp.Spoke.Pos()] = true
			if !mp.Whole {
				used[mp.HubPath[len(mp.HubPath)-1].Pos()] = true
			}
		}
	}
	return used
}

// acknowledgedBoth indexes the +crdforge:nocounterpart markers of both the
// spoke's and the hub's fields.
func (p *pairer) acknowledgedBoth() map[token.Pos]token.Pos {
	acked := p.acknowledged(p.spoke.Package)
	for pos, mpos := range p.acknowledged(p.hub.Package) {
		acked[pos] = mpos
	}
	return acked
}

// reportNoCounterpart warns about every field a generated conversion leaves
// out, unacknowledged. Only directions a generated entry point needs are
// considered: a hand-written Convert_ or entry point converts the fields
// itself.
func (p *pairer) reportNoCounterpart() {
	if p.diags.HasErrors() {
		return // a bad +crdforge:hubfield leaves fields unpaired: no follow-on warnings
	}
	acked := p.acknowledgedBoth()
	for _, tp := range p.order {
		if tp.OptOut {
			continue
		}
		toHub, toSpoke := tp.ToHub, tp.ToSpoke
		if toHub.Needed && toHub.Manual == nil {
			for _, f := range toHub.SourceOnly {
				if _, ok := acked[f.Pos()]; ok {
					continue
				}
				hint := ""
				if path := p.bestHubPath(tp, f); path != "" {
					hint = "did you mean +" + markers.HubFieldName + "=" + path + "?"
				}
				p.warnNoCounterpart(f.Pos(), toHub, tp.Spoke.Obj().Name()+"."+f.Name(), hint)
			}
		}
		if toSpoke.Needed && toSpoke.Manual == nil {
			var missing [][]*types.Var
			for _, f := range toSpoke.SourceOnly {
				missing = append(missing, []*types.Var{f})
			}
			missing = append(missing, toSpoke.NestedSourceOnly...)
			for _, path := range missing {
				f := path[len(path)-1]
				if _, ok := acked[f.Pos()]; ok {
					continue
				}
				if p.movedEverywhere(tp, path, map[*model.TypePair]bool{}) {
					continue
				}
				hint := ""
				if spokeField, hubPath := p.bestSpokeField(tp, path); spokeField != nil {
					hint = "did you mean +" + markers.HubFieldName + "=" + hubPath + " on " +
						tp.SpokeVersion.Name + " " + tp.Spoke.Obj().Name() + "." + spokeField.Name() + "?"
				}
				p.warnNoCounterpart(f.Pos(), toSpoke, tp.Hub.Obj().Name()+"."+pathName(path), hint)
			}
		}
	}
}

// warnNoCounterpart warns that field, a field of d's source, has no
// counterpart in d's destination; hint, when not empty, is the
// +crdforge:hubfield that would pair it.
func (p *pairer) warnNoCounterpart(pos token.Pos, d *model.Direction, field, hint string) {
	w := p.diags.WarnClassf(diag.ClassNoCounterpart, pos, "%s %s has no counterpart in %s", d.FromVersion.Name, field, d.ToVersion.Name).
		Note("converting %s leaves it out (the stash restores it on the way back)", d.Describe())
	if hint != "" {
		w.Help("%s", hint)
	}
	w.Help("if it lives in %s only, mark it +%s", d.FromVersion.Name, markers.NoCounterpartName)
}

// acknowledged indexes the +crdforge:nocounterpart markers of a package's
// fields: the field's position to the marker's.
func (p *pairer) acknowledged(pkg *loader.Package) map[token.Pos]token.Pos {
	out := map[token.Pos]token.Pos{}
	set := p.pl.Markers[pkg]
	if set == nil {
		return out
	}
	for f, vals := range set.Fields {
		for _, v := range vals {
			if v.Name == markers.NoCounterpartName {
				out[fieldPos(f)] = v.Pos
			}
		}
	}
	return out
}

func sortedPositions(m map[token.Pos]token.Pos) []token.Pos {
	out := make([]token.Pos, 0, len(m))
	for pos := range m {
		out = append(out, pos)
	}
	slices.Sort(out)
	return out
}

// fieldName names the field declared at pos for messages.
func (p *pairer) fieldName(pos token.Pos) string {
	position := p.pl.Fset.Position(pos)
	for _, pkg := range []*loader.Package{p.spoke.Package, p.hub.Package} {
		for _, obj := range pkg.TypesInfo.Defs {
			if v, ok := obj.(*types.Var); ok && v.IsField() && v.Pos() == pos {
				return v.Name()
			}
		}
	}
	return position.String()
}

// bestHubPath finds the hub field a spoke field with no counterpart most
// likely means: one that nothing converts to yet and whose name has the same
// words, spelled in another case (HostPort for Hostport) or spread over a
// nested path (Backup.Schedule for BackupSchedule), or that has the same name
// in a nested struct (Storage.SizeGB for SizeGB). It returns the path as
// +crdforge:hubfield takes it, or "".
func (p *pairer) bestHubPath(tp *model.TypePair, f *types.Var) string {
	mapped := map[string]bool{}
	for _, mp := range tp.Mappings {
		if !mp.Whole {
			mapped[pathName(mp.HubPath)] = true
		}
	}
	best, bestScore := "", 0
	walkPaths(tp.Hub, nil, func(path []*types.Var) {
		name := pathName(path)
		if mapped[name] || isMeta(path[0]) {
			return
		}
		if s := nameMatch(f.Name(), path); s > bestScore {
			best, bestScore = name, s
		}
	})
	return best
}

// bestSpokeField finds, for a hub field with no counterpart, the spoke field
// with no counterpart whose best hub path is that field or lies below it.
func (p *pairer) bestSpokeField(tp *model.TypePair, hubPath []*types.Var) (*types.Var, string) {
	prefix := pathName(hubPath)
	for _, f := range tp.ToHub.SourceOnly {
		path := p.bestHubPath(tp, f)
		if path == prefix || strings.HasPrefix(path, prefix+".") {
			return f, path
		}
	}
	return nil, ""
}

// walkPaths calls visit with every path of exported fields below a struct,
// three levels deep at most, through pointers.
func walkPaths(t types.Type, path []*types.Var, visit func([]*types.Var)) {
	if len(path) == 3 {
		return
	}
	for _, f := range exportedFields(deref(t)) {
		if slices.Contains(path, f) {
			continue
		}
		p := append(slices.Clone(path), f)
		visit(p)
		if _, ok := namedStruct(deref(f.Type())); ok {
			walkPaths(f.Type(), p, visit)
		}
	}
}

// nameMatch scores how well a hub path matches a field name: 2 when they
// have the same words in the same order (BackupSchedule, Backup.Schedule;
// Hostport, HostPort), 1 when the path ends in a field of the same name,
// whatever its case (SizeGB, Storage.SizeGB), 0 otherwise.
func nameMatch(name string, path []*types.Var) int {
	var joined strings.Builder
	for _, f := range path {
		joined.WriteString(strings.ToLower(f.Name()))
	}
	switch {
	case joined.String() == strings.ToLower(name):
		return 2
	case len(path) > 1 && strings.EqualFold(path[len(path)-1].Name(), name):
		return 1
	}
	return 0
}

// pathName joins a path's field names with dots, as +crdforge:hubfield
// takes it.
func pathName(path []*types.Var) string {
	names := make([]string, len(path))
	for i, f := range path {
		names[i] = f.Name()
	}
	return strings.Join(names, ".")
}

// movedEverywhere reports whether path, hub fields below tp's hub struct
// that tp's own conversion to the spoke leaves out, converts wherever that
// conversion is used: every enclosing pair that converts a field to tp
// (directly, or through a pointer) has a +crdforge:hubfield mapping whose
// hub path ends there (v1alpha1's WidgetSpec.Host, the hubfield
// Network.Host, carries v1's Network.Host, which the Network pair leaves
// out), or is itself used only where one does. A pair used nowhere (a
// kind's root), or somewhere else (in a slice, a map, a root), is not.
func (p *pairer) movedEverywhere(tp *model.TypePair, path []*types.Var, seen map[*model.TypePair]bool) bool {
	if seen[tp] {
		return false // a cycle of pairs: nothing above carries it
	}
	seen[tp] = true
	defer delete(seen, tp)
	used := false
	for _, outer := range p.order {
		for _, m := range outer.Mappings {
			if !reaches(m.ToSpoke.Conv, tp.ToSpoke) {
				continue
			}
			used = true
			if m.Whole || !convertsDirectly(m.ToSpoke.Conv, tp.ToSpoke) {
				return false
			}
			full := append(slices.Clone(m.HubPath), path...)
			if !mapsPath(outer, full) && !p.movedEverywhere(outer, full, seen) {
				return false
			}
		}
	}
	return used
}

// reaches reports whether c converts, anywhere inside, through d.
func reaches(c *model.Conv, d *model.Direction) bool {
	if c == nil {
		return false
	}
	return c.Kind == model.ConvPair && c.Dir == d || reaches(c.Elem, d) || reaches(c.Key, d)
}

// convertsDirectly reports whether c converts its value through d, or its
// pointer's target: the same hub value, not an element of it.
func convertsDirectly(c *model.Conv, d *model.Direction) bool {
	switch c.Kind {
	case model.ConvPair:
		return c.Dir == d
	case model.ConvPointer, model.ConvDeref, model.ConvAddr:
		return convertsDirectly(c.Elem, d)
	}
	return false
}

// mapsPath reports whether one of tp's mappings converts exactly the hub
// path path.
func mapsPath(tp *model.TypePair, path []*types.Var) bool {
	for _, m := range tp.Mappings {
		if slices.Equal(m.HubPath, path) {
			return true
		}
	}
	return false
}
