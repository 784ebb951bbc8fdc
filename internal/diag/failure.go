package diag

import (
	"errors"
	"fmt"
	"strings"
)

// Failure is a diagnostic returned as an error, by a command that stops at
// its first problem (check, certs, migrate, status, new-version): the CLI
// prints it as generate prints its diagnostics, headline then notes.
type Failure struct{ Diagnostic }

// Error is the diagnostic as Format gives it, with no directory.
func (f *Failure) Error() string { return f.Format("") }

// Fail starts an error diagnostic with no position, for its notes; Err
// returns it as an error.
func Fail(format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Msg: fmt.Sprintf(format, args...)}
}

// Err returns the diagnostic as an error, a *Failure.
func (d *Diagnostic) Err() error { return &Failure{*d} }

// FromError is the diagnostic err is: a Failure's own; for an error that
// wraps another as "context: cause" (fmt.Errorf's %w), the context as the
// headline and the cause's headline and notes as notes; for any other
// error, its text, which a library wrote, cut at its first ": " when it is
// longer than a headline (Go's errors put the context first).
func FromError(err error) Diagnostic {
	var f *Failure
	if errors.As(err, &f) && f == err {
		return f.Diagnostic
	}
	msg := err.Error()
	if inner := errors.Unwrap(err); inner != nil {
		if msg == inner.Error() {
			return FromError(inner) // wrapped as it is, with %w alone
		}
		if head, ok := strings.CutSuffix(msg, ": "+inner.Error()); ok && head != "" {
			cause := FromError(inner)
			d := Diagnostic{Pos: cause.Pos, Severity: Error, Msg: head}
			d.Notes = append([]Note{{KindNote, cause.Msg}}, cause.Notes...)
			return d
		}
	}
	d := Diagnostic{Severity: Error, Msg: msg}
	if head, rest, ok := strings.Cut(msg, ": "); ok && len(msg) > MaxHeadline {
		d.Msg = head
		d.Notes = []Note{{KindNote, rest}}
	}
	return d
}
