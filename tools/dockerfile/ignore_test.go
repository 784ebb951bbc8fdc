package dockerfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// TestGeneratedDockerIgnores reads every Dockerfile.dockerignore crdforge
// generated into the repository with the pattern matcher BuildKit uses:
// go build's inputs go into the build context, and the keys crdforge certs
// writes, and everything else, stay out, at the context's root and below.
func TestGeneratedDockerIgnores(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../testdata/*/want/cmd/webhook/Dockerfile.dockerignore", "../../examples/*/cmd/webhook/Dockerfile.dockerignore"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found %d generated ignore files, want the examples' and the golden cases': %v", len(files), files)
	}
	for _, f := range files {
		pm := readIgnore(t, f)
		for _, prefix := range []string{"", "examples/crontab/"} {
			for path, wantIn := range map[string]bool{
				"go.mod": true, "go.sum": true, "api/v1/types.go": true, "cmd/webhook/main.go": true,
				"vendor/modules.txt": true, "vendor/golang.org/x/sys/cpu/cpu_x86.s": true,
				"config/webhook/certs/ca.key": false, "config/webhook/certs/tls.key": false,
				"config/webhook/certs/secret.yaml": false, ".git/config": false, "webhook": false,
				"api/v1/types_test.go": false, "charts/x/values.yaml": false,
			} {
				if prefix != "" && (path == "go.mod" || path == "go.sum" || strings.HasPrefix(path, "vendor/")) {
					continue // the build's are at the context's root
				}
				excluded, err := pm.MatchesOrParentMatches(prefix + path)
				if err != nil {
					t.Fatal(err)
				}
				if excluded == wantIn {
					t.Errorf("%s: %s in the build context: %v, want %v", f, prefix+path, !excluded, wantIn)
				}
			}
		}
	}
}

func readIgnore(t *testing.T, path string) *patternmatcher.PatternMatcher {
	t.Helper()
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	patterns, err := ignorefile.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}
