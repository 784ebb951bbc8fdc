package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manyFieldsCase writes, into a scratch copy of the database case, a kind
// whose v1alpha1 has n fields that v1 lacks.
func manyFieldsCase(t *testing.T, n int) string {
	t.Helper()
	dir := scratchCase(t, "err_strict_nocounterpart")
	var fields strings.Builder
	for i := range n {
		fmt.Fprintf(&fields, "\tOld%02d string `json:\"old%02d,omitempty\"`\n", i, i)
	}
	src := "package v1alpha1\n\n// ExtraSpec holds fields v1 dropped.\ntype ExtraSpec struct {\n" + fields.String() + "}\n"
	writeFile(t, filepath.Join(dir, "api/v1alpha1/extra.go"), []byte(src))
	types := filepath.Join(dir, "api/v1alpha1/types.go")
	b, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "\t// Comment lives here only", "\tExtra ExtraSpec `json:\"extra,omitempty\"`\n\t// Comment lives here only", 1))
	writeFile(t, types, b)
	// v1 keeps the struct, empty: the pair's fields have no counterpart.
	writeFile(t, filepath.Join(dir, "api/v1/extra.go"), []byte("package v1\n\n// ExtraSpec is empty in v1.\ntype ExtraSpec struct{}\n"))
	hub := filepath.Join(dir, "api/v1/types.go")
	b, err = os.ReadFile(hub)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "\tBackup BackupSpec", "\tExtra ExtraSpec `json:\"extra,omitempty\"`\n\tBackup BackupSpec", 1))
	writeFile(t, hub, b)
	return dir
}

// TestNoCounterpartWarnings checks the three ways crdforge generate reports
// fields with no counterpart: the first ten and a count, all of them with
// --verbose, and errors that write nothing with --strict.
func TestNoCounterpartWarnings(t *testing.T) {
	dir := manyFieldsCase(t, 12)
	count := func(stderr string) int { return strings.Count(stderr, "has no counterpart in") }

	code, _, stderr := run(t, dir, "generate", "--verify", "./...")
	if code != ExitStale {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// BackupSchedule, Backup and the twelve fields of ExtraSpec: 14.
	if got := count(stderr); got != maxNoCounterpart {
		t.Errorf("printed %d warnings without --verbose, want %d:\n%s", got, maxNoCounterpart, stderr)
	}
	if !strings.Contains(stderr, "crdforge: 4 more field(s) with no counterpart") {
		t.Errorf("no count of the warnings left out:\n%s", stderr)
	}
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "has no counterpart in") && !positioned(line) {
			t.Errorf("warning without file:line:col: %q", line)
		}
	}

	_, _, stderr = run(t, dir, "generate", "--verify", "--verbose", "./...")
	if got := count(stderr); got != 14 || strings.Contains(stderr, "more field(s)") {
		t.Errorf("printed %d warnings with --verbose, want all 14 and no count:\n%s", got, stderr)
	}
	if !strings.Contains(stderr, "api/v1alpha1/extra.go:5:2: warning: v1alpha1 ExtraSpec.Old00 has no counterpart in v1") {
		t.Errorf("no warning at the first field of ExtraSpec:\n%s", stderr)
	}

	before := snapshot(t, dir)
	code, _, stderr = run(t, dir, "generate", "--strict", "./...")
	if code != ExitErrors {
		t.Errorf("--strict: exit %d, want %d", code, ExitErrors)
	}
	if strings.Contains(stderr, "warning: v1alpha1 ExtraSpec") || !strings.Contains(stderr, "api/v1alpha1/extra.go:5:2: v1alpha1 ExtraSpec.Old00 has no counterpart") {
		t.Errorf("--strict did not report the fields as errors:\n%s", stderr)
	}
	if strings.Contains(stderr, "Comment") || strings.Contains(stderr, "Replicas") {
		t.Errorf("--strict reported an acknowledged field:\n%s", stderr)
	}
	if after := snapshot(t, dir); !sameFiles(before, after) {
		t.Errorf("--strict wrote files although it failed")
	}
}
