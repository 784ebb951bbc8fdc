package dockerfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedDockerfiles lints every Dockerfile crdforge generated into
// the repository: the golden cases' and the examples'.
func TestGeneratedDockerfiles(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../testdata/*/want/cmd/webhook/Dockerfile", "../../examples/*/cmd/webhook/Dockerfile"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found %d generated Dockerfiles, want the examples' and the golden cases': %v", len(files), files)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Lint(b) {
			t.Errorf("%s: %s", f, p)
		}
	}
}

// TestLintCatches shows each check failing on a Dockerfile that breaks it.
func TestLintCatches(t *testing.T) {
	good, err := os.ReadFile("../../testdata/webhook/want/cmd/webhook/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if p := Lint(good); len(p) > 0 {
		t.Fatalf("the golden Dockerfile fails: %v", p)
	}
	for _, tt := range []struct{ name, from, to, want string }{
		{"root user", "USER 65532:65532", "USER root", "non-root user"},
		{"no user", "USER 65532:65532\n", "", "non-root user"},
		{"cgo", "CGO_ENABLED=0 ", "", "static binary"},
		{"one stage", "FROM golang:", "# FROM golang:", "two stages"},
		{"not distroless", "gcr.io/distroless/static-debian12:nonroot", "ubuntu:24.04", "distroless"},
		{"shell entrypoint", `ENTRYPOINT ["/webhook"]`, "ENTRYPOINT /webhook", "exec-form"},
	} {
		bad := strings.Replace(string(good), tt.from, tt.to, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q is not in the golden Dockerfile", tt.name, tt.from)
		}
		p := Lint([]byte(bad))
		if !strings.Contains(strings.Join(p, "\n"), tt.want) {
			t.Errorf("%s: lint says %v, want a problem about %q", tt.name, p, tt.want)
		}
	}
}
