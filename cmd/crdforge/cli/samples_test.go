package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A sample is an input of generate: one changed or added after a run that
// left the tree up to date is checked by the next run, which warns of it,
// rather than saying "up to date" (and replaying the last run's words).
func TestAChangedSampleIsCheckedAgain(t *testing.T) {
	const bad = "apiVersion: samples.example.com/v1\nkind: Gadget\nmetadata: {name: bad}\nspec: {replicas: 11}\n"
	for _, tc := range []struct{ name, file, content string }{
		{"changed", "gadgets.yaml", bad},
		{"added", "more.yaml", bad},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scratchCase(t, "samples")
			for i := range 2 {
				if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK {
					t.Fatalf("run %d: exit %d\n%s", i+1, code, stderr)
				}
			}
			writeFile(t, filepath.Join(dir, "config/samples", tc.file), []byte(bad))
			code, _, stderr := run(t, dir, "generate", "./...")
			want := "config/samples/" + tc.file + ":4:8: warning: spec.replicas: Invalid value: 11"
			if code != ExitOK || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr:\n%s\nwant %d and %s", code, stderr, ExitOK, want)
			}
		})
	}
}

// validate-samples: false in the project file turns the check off: the
// refused sample is not looked at, and the files are written.
func TestValidateSamplesOff(t *testing.T) {
	dir := scratchCase(t, "samples_refused")
	writeFile(t, filepath.Join(dir, ProjectFile), []byte("validate-samples: false\n"))
	if code, _, stderr := run(t, dir, "generate", "./..."); code != ExitOK || strings.Contains(stderr, "config/samples") {
		t.Errorf("exit %d, stderr:\n%s\nwant 0 and no word of the samples", code, stderr)
	}
	if code, _, stderr := run(t, dir, "generate", "--validate-samples", "./..."); code != ExitOK || !strings.Contains(stderr, "config/samples/gadgets.yaml:13:3: warning:") {
		t.Errorf("--validate-samples over the file's false: exit %d, want %d and the sample's warnings\n%s", code, ExitOK, stderr)
	}
}
