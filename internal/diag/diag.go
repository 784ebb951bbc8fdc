// Package diag collects positioned diagnostics. Errors are gathered, not
// fatal: every stage adds what it finds, and the driver reports them all,
// sorted, each as a headline, file:line:col: message, that fits a line,
// then indented notes that say why and what to write, as rustc and the Go
// vet analyzers do; or as JSON for editors and CI (JSON).
package diag

import (
	"cmp"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Severity says whether a diagnostic stops generation.
type Severity int

const (
	// Error stops generation: nothing is written.
	Error Severity = iota
	// Warning is reported, and generation goes on.
	Warning
)

// Diagnostic is one message about one place in the user's source.
type Diagnostic struct {
	Pos      token.Position
	Severity Severity
	// Msg is the headline: what is wrong, in at most about MaxHeadline
	// characters, so that a list of diagnostics scans.
	Msg string
	// Notes follow the headline, each on lines of its own: why it matters,
	// and the code or command that fixes it.
	Notes []Note
	// Class groups diagnostics that flags treat alike (crdforge generate
	// --strict turns ClassNoCounterpart into errors, --allow-dropped-zeros
	// ClassDroppedZero into warnings); empty for the rest.
	Class Class
	// Field is the path of the object's field a diagnostic of crdforge
	// validate is about ("spec.replicas"), as the API server names it, for
	// --output json; empty for diagnostics about source code.
	Field string
}

// MaxHeadline is the length a headline keeps within, after its
// file:line:col: and level; the rest goes in notes.
const MaxHeadline = 100

// Note is one line, or lines, under a headline.
type Note struct {
	Kind NoteKind `json:"kind"`
	Text string   `json:"text"`
}

// NoteKind says what a note is for.
type NoteKind string

const (
	// KindNote explains: why the headline holds, what it costs.
	KindNote NoteKind = "note"
	// KindHelp is what to do: the marker, code or command that fixes it.
	KindHelp NoteKind = "help"
)

// Note adds a note that explains the diagnostic, and returns it.
func (d *Diagnostic) Note(format string, args ...any) *Diagnostic {
	d.Notes = append(d.Notes, Note{KindNote, fmt.Sprintf(format, args...)})
	return d
}

// Help adds a note that says what to do, and returns the diagnostic.
func (d *Diagnostic) Help(format string, args ...any) *Diagnostic {
	d.Notes = append(d.Notes, Note{KindHelp, fmt.Sprintf(format, args...)})
	return d
}

// Class names a kind of diagnostic.
type Class string

// ClassNoCounterpart is a field that a conversion leaves out because the
// other version has no counterpart for it, and no marker says it is meant to.
const ClassNoCounterpart Class = "nocounterpart"

// ClassDroppedZero is a field whose explicit zero, which its tag drops,
// becomes its default, and no marker says it is meant to.
const ClassDroppedZero Class = "droppedzero"

// Format renders the diagnostic as file:line:col: message, with the file
// relative to dir when it lies below it, then each note on lines of its
// own: "  = note: ..." or "  = help: ...", a note's further lines indented
// under its first.
func (d Diagnostic) Format(dir string) string {
	prefix := ""
	if d.Severity == Warning {
		prefix = "warning: "
	}
	var b strings.Builder
	if where := d.where(dir); where != "" {
		b.WriteString(where + ": ")
	}
	b.WriteString(prefix + d.Msg)
	for _, n := range d.ordered() {
		head := "  = " + string(n.Kind) + ": "
		b.WriteString("\n" + head + strings.ReplaceAll(n.Text, "\n", "\n"+strings.Repeat(" ", len(head))))
	}
	return b.String()
}

// ordered is the notes as they are shown: those that explain first, then
// those that say what to do, each kind in the order added.
func (d Diagnostic) ordered() []Note {
	out := slices.Clone(d.Notes)
	help := func(n Note) int {
		if n.Kind == KindHelp {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b Note) int { return help(a) - help(b) })
	return out
}

// where is file:line:col, as much of it as is known, with the file relative
// to dir when it lies below it.
func (d Diagnostic) where(dir string) string {
	file := d.Pos.Filename
	if dir != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	switch {
	case file == "":
		return ""
	case d.Pos.Line == 0:
		return file
	case d.Pos.Column == 0:
		return fmt.Sprintf("%s:%d", file, d.Pos.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", file, d.Pos.Line, d.Pos.Column)
	}
}

// List gathers diagnostics. Its zero value is not usable: make one with New,
// giving the file set that token.Pos values refer to.
type List struct {
	fset  *token.FileSet
	items []*Diagnostic
}

// New returns an empty list resolving positions against fset.
func New(fset *token.FileSet) *List { return &List{fset: fset} }

// Errorf adds an error at pos and returns it, for its notes.
func (l *List) Errorf(pos token.Pos, format string, args ...any) *Diagnostic {
	return l.Add(Diagnostic{Pos: l.position(pos), Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos and returns it, for its notes.
func (l *List) Warnf(pos token.Pos, format string, args ...any) *Diagnostic {
	return l.Add(Diagnostic{Pos: l.position(pos), Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// WarnClassf adds a warning of class c at pos and returns it, for its
// notes.
func (l *List) WarnClassf(c Class, pos token.Pos, format string, args ...any) *Diagnostic {
	return l.Add(Diagnostic{Pos: l.position(pos), Severity: Warning, Msg: fmt.Sprintf(format, args...), Class: c})
}

// ErrorClassf adds an error of class c at pos and returns it, for its
// notes.
func (l *List) ErrorClassf(c Class, pos token.Pos, format string, args ...any) *Diagnostic {
	return l.Add(Diagnostic{Pos: l.position(pos), Severity: Error, Msg: fmt.Sprintf(format, args...), Class: c})
}

// Promote turns every warning of class c into an error.
func (l *List) Promote(c Class) {
	for _, d := range l.items {
		if d.Class == c && d.Severity == Warning {
			d.Severity = Error
		}
	}
}

// Demote turns every error of class c into a warning.
func (l *List) Demote(c Class) {
	for _, d := range l.items {
		if d.Class == c && d.Severity == Error {
			d.Severity = Warning
		}
	}
}

// Add adds a diagnostic whose position is already resolved and returns
// it, for its notes.
func (l *List) Add(d Diagnostic) *Diagnostic {
	l.items = append(l.items, &d)
	return &d
}

// Append adds every diagnostic of other.
func (l *List) Append(other *List) {
	if other == nil {
		return
	}
	// Copies: Promote on one list leaves the other as it was.
	for _, d := range other.items {
		c := *d
		l.items = append(l.items, &c)
	}
}

func (l *List) position(pos token.Pos) token.Position {
	if l.fset == nil || !pos.IsValid() {
		return token.Position{}
	}
	return l.fset.Position(pos)
}

// HasErrors reports whether any diagnostic is an error.
func (l *List) HasErrors() bool {
	return slices.ContainsFunc(l.items, func(d *Diagnostic) bool { return d.Severity == Error })
}

// Items returns the diagnostics sorted by file, line, column and message,
// without duplicates.
func (l *List) Items() []Diagnostic {
	out := make([]Diagnostic, len(l.items))
	for i, d := range l.items {
		out[i] = *d
	}
	slices.SortFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Severity, b.Severity),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
	return slices.CompactFunc(out, func(a, b Diagnostic) bool {
		return a.Pos == b.Pos && a.Severity == b.Severity && a.Msg == b.Msg && a.Field == b.Field && slices.Equal(a.Notes, b.Notes)
	})
}

// ParsePosition parses the "file:line:col" form go/packages uses for errors.
// Missing parts are left zero.
func ParsePosition(s string) token.Position {
	var p token.Position
	parts := strings.Split(s, ":")
	// Walk from the end: the file name may itself contain colons.
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	p.Filename = strings.Join(parts, ":")
	if len(nums) > 0 {
		p.Line = nums[0]
	}
	if len(nums) > 1 {
		p.Column = nums[1]
	}
	return p
}
