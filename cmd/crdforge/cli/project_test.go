package cli

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/crdforge/crdforge/generators/pipeline"
)

func TestProjectFileSetsWhatTheCommandLineDoesNot(t *testing.T) {
	dir := t.TempDir()
	project := "max-desc-len: 0\nallow-dangerous-types: true\nonly: [crd, deepcopy]\nheader-file: hack/boilerplate.go.txt\nyear: \"2026\"\n"
	if err := os.WriteFile(filepath.Join(dir, ProjectFile), []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	var cfg pipeline.Config
	f := pflag.NewFlagSet("generate", pflag.ContinueOnError)
	bindConfigFlags(f, &cfg)
	if err := f.Parse([]string{"--max-desc-len=80", "--year", "2027"}); err != nil {
		t.Fatal(err)
	}
	if err := applyProjectFile(f, dir); err != nil {
		t.Fatal(err)
	}
	if cfg.MaxDescLen == nil || *cfg.MaxDescLen != 80 || cfg.Year != "2027" {
		t.Errorf("the command line's --max-desc-len and --year lost to the file: %v, %q", cfg.MaxDescLen, cfg.Year)
	}
	if !cfg.AllowDangerousTypes || !slices.Equal(cfg.Only, []string{"crd", "deepcopy"}) || cfg.HeaderFile != "hack/boilerplate.go.txt" {
		t.Errorf("the file's values were not applied: %+v", cfg)
	}
}

func TestNoProjectFileChangesNothing(t *testing.T) {
	var cfg pipeline.Config
	f := pflag.NewFlagSet("generate", pflag.ContinueOnError)
	bindConfigFlags(f, &cfg)
	if err := applyProjectFile(f, t.TempDir()); err != nil || cfg.MaxDescLen != nil || cfg.AllowDangerousTypes {
		t.Errorf("without a project file: %v, %+v", err, cfg)
	}
}
