// Package diag collects positioned diagnostics. Errors are gathered, not
// fatal: every stage adds what it finds, and the driver reports them all,
// sorted, as file:line:col: message.
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
	Msg      string
	// Class groups warnings that flags treat alike (crdforge generate
	// --strict turns ClassNoCounterpart into errors); empty for the rest.
	Class Class
}

// Class names a kind of warning.
type Class string

// ClassNoCounterpart is a field that a conversion leaves out because the
// other version has no counterpart for it, and no marker says it is meant to.
const ClassNoCounterpart Class = "nocounterpart"

// Format renders the diagnostic as file:line:col: message, with the file
// relative to dir when it lies below it.
func (d Diagnostic) Format(dir string) string {
	file := d.Pos.Filename
	if dir != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	prefix := ""
	if d.Severity == Warning {
		prefix = "warning: "
	}
	switch {
	case file == "":
		return prefix + d.Msg
	case d.Pos.Line == 0:
		return fmt.Sprintf("%s: %s%s", file, prefix, d.Msg)
	case d.Pos.Column == 0:
		return fmt.Sprintf("%s:%d: %s%s", file, d.Pos.Line, prefix, d.Msg)
	default:
		return fmt.Sprintf("%s:%d:%d: %s%s", file, d.Pos.Line, d.Pos.Column, prefix, d.Msg)
	}
}

// List gathers diagnostics. Its zero value is not usable: make one with New,
// giving the file set that token.Pos values refer to.
type List struct {
	fset  *token.FileSet
	items []Diagnostic
}

// New returns an empty list resolving positions against fset.
func New(fset *token.FileSet) *List { return &List{fset: fset} }

// Errorf adds an error at pos.
func (l *List) Errorf(pos token.Pos, format string, args ...any) {
	l.Add(Diagnostic{Pos: l.position(pos), Severity: Error, Msg: fmt.Sprintf(format, args...)})
}

// Warnf adds a warning at pos.
func (l *List) Warnf(pos token.Pos, format string, args ...any) {
	l.Add(Diagnostic{Pos: l.position(pos), Severity: Warning, Msg: fmt.Sprintf(format, args...)})
}

// WarnClassf adds a warning of class c at pos.
func (l *List) WarnClassf(c Class, pos token.Pos, format string, args ...any) {
	l.Add(Diagnostic{Pos: l.position(pos), Severity: Warning, Msg: fmt.Sprintf(format, args...), Class: c})
}

// Promote turns every warning of class c into an error.
func (l *List) Promote(c Class) {
	for i := range l.items {
		if l.items[i].Class == c && l.items[i].Severity == Warning {
			l.items[i].Severity = Error
		}
	}
}

// Add adds a diagnostic whose position is already resolved.
func (l *List) Add(d Diagnostic) { l.items = append(l.items, d) }

// Append adds every diagnostic of other.
func (l *List) Append(other *List) {
	if other != nil {
		l.items = append(l.items, other.items...)
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
	return slices.ContainsFunc(l.items, func(d Diagnostic) bool { return d.Severity == Error })
}

// Items returns the diagnostics sorted by file, line, column and message,
// without duplicates.
func (l *List) Items() []Diagnostic {
	out := slices.Clone(l.items)
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
		return a.Pos == b.Pos && a.Severity == b.Severity && a.Msg == b.Msg
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
