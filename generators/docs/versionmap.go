package docs

import (
	"cmp"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
)

// Row is one field of a kind across its versions: a cell per version, in
// the kind's version order.
type Row struct {
	Cells []Cell
	// key orders the rows: the field's path in the hub, or, for a field the
	// hub lacks, in the version that has it; only is that version's index.
	key  string
	only int
}

// VersionMap lays out, for a kind of several versions, every field of
// every version: one row per field, one cell per version. A field the hub
// has is one row, however each spoke names it; a field only a spoke has is
// a row of its own.
func VersionMap(k *model.Kind) []Row {
	if len(k.Versions) < 2 || k.Hub == nil {
		return nil
	}
	hubIndex := slices.Index(k.Versions, k.Hub)
	spokeLinksOf := linksByVersion(k)
	var rows []Row
	for _, p := range properties(schemaOf(k, k.Hub.Name)) {
		row := Row{Cells: make([]Cell, len(k.Versions)), key: p.Path, only: -1}
		for i, v := range k.Versions {
			if i == hubIndex {
				row.Cells[i] = Cell{State: Present, Path: p.Path}
				continue
			}
			row.Cells[i] = spokeLinksOf[v].hubCell(p.Path)
		}
		for _, l := range spokeLinksOf {
			if n := l.hubNarrowed[p.Path]; n != "" {
				row.Cells[hubIndex].Narrowed = n
			}
		}
		rows = append(rows, row)
	}
	for i, v := range k.Versions {
		if i == hubIndex {
			continue
		}
		covered := map[string]bool{}
		for _, r := range rows {
			covered[r.Cells[i].Path] = true
		}
		for _, p := range properties(schemaOf(k, v.Name)) {
			if covered[p.Path] {
				continue
			}
			row := Row{Cells: make([]Cell, len(k.Versions)), key: p.Path, only: i}
			row.Cells[i] = Cell{State: Present, Path: p.Path}
			row.Cells[hubIndex] = spokeLinksOf[v].spokeOnlyCell(p.Path)
			rows = append(rows, row)
		}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(comparePaths(a.key, b.key), cmp.Compare(a.only, b.only))
	})
	return rows
}

// linksByVersion is the links of each spoke. A kind crdforge converts
// nothing of (conversion-gen converts it through an internal hub) has no
// spokes in the model: its versions are linked by JSON path alone.
func linksByVersion(k *model.Kind) map[*model.Version]*links {
	out := map[*model.Version]*links{}
	for _, s := range k.Spokes {
		out[s.Version] = spokeLinks(s)
	}
	for _, v := range k.Versions {
		if v != k.Hub && out[v] == nil {
			out[v] = sameNames(k, v)
		}
	}
	return out
}

// sameNames links every field of version v to the hub's field of the same
// path, when the hub has one.
func sameNames(k *model.Kind, v *model.Version) *links {
	out := &links{byHub: map[string]*link{}, bySpoke: map[string]*link{}}
	hub := map[string]bool{}
	for _, p := range properties(schemaOf(k, k.Hub.Name)) {
		hub[p.Path] = true
	}
	for _, p := range properties(schemaOf(k, v.Name)) {
		if hub[p.Path] {
			l := &link{Hub: p.Path, Spoke: p.Path, Cell: Cell{State: Present, Path: p.Path}, Recursed: true}
			out.byHub[p.Path], out.bySpoke[p.Path] = l, l
		}
	}
	return out
}

// hubCell is the spoke's cell of the hub field at path: its link's, or,
// below a field whose value converts whole, the same field below the
// spoke's counterpart; a field below one the spoke lacks is lacked the
// same way.
func (ls *links) hubCell(path string) Cell {
	if l := ls.byHub[path]; l != nil {
		return l.Cell
	}
	for _, at := range ancestors(path) {
		l := ls.byHub[at]
		if l == nil {
			continue
		}
		return below(l, path[len(at):])
	}
	return Cell{}
}

// spokeOnlyCell is the hub's cell of a field at path that only the spoke
// has (no hub row names it): the cell of the nearest enclosing field the
// spoke converts specially, or absent.
func (ls *links) spokeOnlyCell(path string) Cell {
	if l := ls.bySpoke[path]; l != nil && l.Hub == "" {
		return l.Cell
	}
	for _, at := range ancestors(path) {
		l := ls.bySpoke[at]
		if l == nil {
			continue
		}
		if l.Hub == "" || l.Cell.State == HandWritten {
			return Cell{State: l.Cell.State, Func: l.Cell.Func}
		}
		return Cell{}
	}
	return Cell{}
}

// below is the cell of the field at suffix below l's field.
func below(l *link, suffix string) Cell {
	switch {
	case l.Cell.State == Absent || l.Cell.State == Stashed:
		return Cell{State: l.Cell.State}
	case l.Recursed && l.Cell.State == Present:
		return Cell{} // its struct's own links would have named it
	case l.Spoke == "":
		return Cell{State: l.Cell.State, Func: l.Cell.Func}
	}
	return Cell{State: l.Cell.State, Path: l.Spoke + suffix, Func: l.Cell.Func}
}

// comparePaths orders JSON paths step by step, so that a field's fields
// follow it: spec, spec.network, spec.network.host, spec.parts.
func comparePaths(a, b string) int {
	return slices.Compare(steps(a), steps(b))
}

// steps splits a path at its dots, and [*] into a step of its own: a
// list's items come right after the list.
func steps(path string) []string {
	return strings.Split(strings.ReplaceAll(path, "[*]", ".[*]"), ".")
}
