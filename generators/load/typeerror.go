package load

import (
	"strings"

	"github.com/crdforge/crdforge/internal/diag"
)

// typeError is a go/types message as a diagnostic's headline and notes.
// go/types writes what it could not do, then, after the last ": " of its
// first line, why ("cannot use &T{} (value of type *T) as I value in
// variable declaration: *T does not implement I (wrong type for method M)"),
// and the methods it compared on lines of their own ("have M() error", "want M() (W, error)"): the want says what to write.
// A first line longer than a headline keeps the why, which names the fix;
// the what becomes a note, as do the further lines.
func typeError(msg string) (string, []diag.Note) {
	lines := strings.Split(msg, "\n")
	head := lines[0]
	var notes []diag.Note
	if len(head) > diag.MaxHeadline {
		if i := strings.LastIndex(head, ": "); i > 0 {
			notes = append(notes, diag.Note{Kind: diag.KindNote, Text: head[:i]})
			head = head[i+2:]
		}
	}
	for _, l := range lines[1:] {
		kind := diag.KindNote
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "want ") {
			kind = diag.KindHelp // what to write
		}
		if l != "" {
			notes = append(notes, diag.Note{Kind: kind, Text: l})
		}
	}
	return head, notes
}
