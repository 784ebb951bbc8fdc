package runcache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
)

// Run is what a run was asked to do, besides what it reads from the disk.
type Run struct {
	// Dir is the run's directory, absolute.
	Dir string
	// Patterns name the packages, as given.
	Patterns []string
	// Config is the completed configuration, the flags and the project
	// file's settings included, encoded by the caller: any difference is
	// another key.
	Config []byte
}

// goEnv are the environment variables that change what the go command
// loads: another value is another run.
var goEnv = []string{"GOFLAGS", "GOOS", "GOARCH", "CGO_ENABLED", "GOWORK", "GOEXPERIMENT", "GOTOOLCHAIN", "GOROOT"}

// key is the manifest's name: a hash of the program, the run, and the go
// command's environment.
func (c *Cache) key(run Run) string {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	field("crdforge run v1")
	field(c.program)
	field(filepath.Clean(run.Dir))
	for _, p := range run.Patterns {
		field(p)
	}
	field("")
	h.Write(run.Config)
	field("")
	for _, name := range goEnv {
		field(name + "=" + os.Getenv(name))
	}
	return hex.EncodeToString(h.Sum(nil))
}
