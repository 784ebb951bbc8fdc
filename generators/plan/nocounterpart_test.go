package plan_test

import (
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/diag"
)

// TestNoCounterpart: which fields a generated conversion leaves out are
// warned about, and the +crdforge:hubfield the warning suggests ("" for a
// warning without one).
func TestNoCounterpart(t *testing.T) {
	_, diags := decided(t)
	tests := []struct {
		name, field string // as the warning names it: version, struct, field
		warned      bool
		hint        string
	}{
		{"a spoke field whose words a nested hub field has", "v2 NoCounterpartSpec.BackupSchedule", true, "+crdforge:hubfield=Backup.Schedule?"},
		{"a spoke field named as a field of a nested hub struct", "v2 NoCounterpartSpec.Sizegb", true, "+crdforge:hubfield=Storage.SizeGB?"},
		{"a spoke field like nothing in the hub", "v2 NoCounterpartSpec.Note", true, ""},
		{"a spoke field marked +crdforge:nocounterpart", "v2 NoCounterpartSpec.Legacy", false, ""},
		{"a hub field a spoke field would fill", "v1 NoCounterpartSpec.Backup", true, "+crdforge:hubfield=Backup.Schedule on v2 NoCounterpartSpec.BackupSchedule?"},
		{"a hub field like nothing in the spoke", "v1 NoCounterpartSpec.Extra", true, ""},
		{"a hub field marked +crdforge:nocounterpart", "v1 NoCounterpartSpec.Kept", false, ""},
		{"a hub field below one a moved field fills in part", "v1 MovedHolder.Net.Proto", true, ""},
		{"a field that converts", "v2 NoCounterpartSpec.Name", false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			msg := noCounterpartWarning(diags, tc.field)
			if (msg != "") != tc.warned {
				t.Errorf("%s: %s warned %v, want %v", tc.name, tc.field, msg != "", tc.warned)
				return
			}
			if hasHint := strings.Contains(msg, "did you mean"); hasHint != (tc.hint != "") || !strings.Contains(msg, tc.hint) {
				t.Errorf("%s: %s: %q, want the hint %q", tc.name, tc.field, msg, tc.hint)
			}
		})
	}
}

// noCounterpartWarning is the no-counterpart warning about field, notes
// and help included, or "".
func noCounterpartWarning(diags *diag.List, field string) string {
	for _, d := range diags.Items() {
		if d.Class == diag.ClassNoCounterpart && strings.HasPrefix(d.Msg, field+" has no counterpart") {
			return d.Format("")
		}
	}
	return ""
}
