package diag

import (
	"encoding/json"
)

// jsonDiagnostic is a Diagnostic as --output json writes it: the position
// in fields of their own, the file relative to the directory crdforge ran
// in, so that an editor or a CI annotator reads it without parsing text.
type jsonDiagnostic struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message"`
	Notes    []Note `json:"notes,omitempty"`
	Class    Class  `json:"class,omitempty"`
}

// String is the severity as the text output and JSON name it.
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// JSON renders the diagnostics as one JSON array, files relative to dir
// as Format gives them, followed by a newline.
func JSON(dir string, items []Diagnostic) ([]byte, error) {
	out := make([]jsonDiagnostic, 0, len(items))
	for _, d := range items {
		rel := d
		rel.Pos.Line, rel.Pos.Column = 0, 0
		out = append(out, jsonDiagnostic{
			File:     rel.where(dir),
			Line:     d.Pos.Line,
			Column:   d.Pos.Column,
			Severity: d.Severity.String(),
			Field:    d.Field,
			Message:  d.Msg,
			Notes:    d.ordered(),
			Class:    d.Class,
		})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	return append(b, '\n'), err
}
