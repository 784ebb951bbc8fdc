package docs

import "strings"

// State says what a field is in one version, as the version map shows it.
type State int

const (
	// Absent says the version has no such field, and nothing keeps its value
	// when an object passes through the version.
	Absent State = iota
	// Present says the version has the field, at Cell.Path.
	Present
	// Stashed says the version has no such field, but crdforge's generated
	// conversion keeps its value in an annotation (runtime/lossless) and
	// restores it when the object comes back.
	Stashed
	// HandWritten says a hand-written Convert_ function (Cell.Func) converts
	// the field, alone or as part of its struct; Cell.Path is the field's
	// path in the version when it has one there.
	HandWritten
)

// Cell is one field in one version.
type Cell struct {
	State State
	// Path is the field's JSON path in the version, for Present and, when
	// the version has the field, HandWritten.
	Path string
	// Func names the hand-written Convert_ function of a HandWritten cell.
	Func string
	// Narrowed, when set, is the range or the values that the storage
	// version's schema allows and this version's does not guarantee: a
	// conversion into storage fails on any other value ("1 to 1000").
	Narrowed string
}

// String prints the cell for a Markdown table. The path comes first, where
// there is one, since a reader scans a column for the name to write in
// YAML; what the conversion does to the field follows it.
func (c Cell) String() string {
	var parts []string
	if c.Path != "" && c.State != Absent && c.State != Stashed {
		parts = append(parts, code(c.Path))
	}
	switch c.State {
	case Absent:
		return "—"
	case Stashed:
		return "stashed"
	case HandWritten:
		parts = append(parts, "hand-written "+code(c.Func))
	}
	if c.Narrowed != "" {
		parts = append(parts, "narrowed: "+escape(c.Narrowed))
	}
	return strings.Join(parts, ", ")
}
