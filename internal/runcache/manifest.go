package runcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// absent is the hash of a file or directory that does not exist.
const absent = "-"

// manifest is what a recorded run depended on.
type manifest struct {
	// Files maps each input and output file to its content's hash.
	Files map[string]string `json:"files"`
	// Dirs maps each directory that matters to its listing's hash.
	Dirs map[string]string `json:"dirs"`
	// Inputs is how many of Files are inputs.
	Inputs int    `json:"inputs"`
	Replay []byte `json:"replay,omitempty"`
}

// snapshot takes the manifest of a run that just ended: what it read, and
// what it wrote, as they are now.
func snapshot(run Run, in Inputs, outputs []string, started time.Time) (*manifest, error) {
	sourceDirs := map[string]bool{} // their Go files are inputs
	for _, tree := range patternTrees(run.Dir, run.Patterns) {
		walkTree(tree, func(d string) { sourceDirs[d] = true })
	}
	for _, d := range in.PackageDirs {
		sourceDirs[d] = true
	}
	listed := map[string]bool{}
	for _, group := range [][]string{keys(sourceDirs), in.Dirs} {
		for _, d := range group {
			listed[filepath.Clean(d)] = true
		}
	}
	for _, f := range outputs {
		listed[filepath.Dir(f)] = true
	}
	m := &manifest{Files: map[string]string{}, Dirs: map[string]string{}}
	inputs := map[string]bool{}
	for d := range listed {
		names, h := listing(d)
		m.Dirs[d] = h
		if sourceDirs[d] {
			for _, name := range names {
				if sourceFile(name) {
					inputs[filepath.Join(d, name)] = true
				}
			}
		}
	}
	for _, f := range in.Files {
		inputs[filepath.Clean(f)] = true
	}
	isOutput := map[string]bool{}
	for _, f := range outputs {
		isOutput[filepath.Clean(f)] = true
		delete(inputs, filepath.Clean(f))
	}
	m.Inputs = len(inputs)
	paths := append(keys(inputs), keys(isOutput)...)
	states := hashAll(paths)
	for i, p := range paths {
		s := states[i]
		switch {
		case s.err != nil:
			return nil, s.err
		case !isOutput[p] && s.modTime.After(started):
			// Read before or after the change? Either way, the next
			// run must look again.
			return nil, fmt.Errorf("%s changed during the run", p)
		}
		m.Files[p] = s.hash
	}
	return m, nil
}

// unchanged reports whether every file and directory of m is as recorded.
func (m *manifest) unchanged() bool {
	for d, want := range m.Dirs {
		if _, h := listing(d); h != want {
			return false
		}
	}
	paths := keys(m.Files)
	for i, s := range hashAll(paths) {
		if s.err != nil || s.hash != m.Files[paths[i]] {
			return false
		}
	}
	return true
}

// sourceFile reports whether a file of a package directory is an input:
// Go files (any, build constraints and _test.go included: crdforge reads
// tests and generated files the build tag hides) and a module's files.
func sourceFile(name string) bool {
	return strings.HasSuffix(name, ".go") || name == "go.mod" || name == "go.sum"
}

// listing is dir's entries, those a wildcard or a person would see (not
// hidden ones: an editor's swap file changes nothing), each directory
// with a "/", sorted; and their hash, absent when dir is not a directory.
func listing(dir string) ([]string, string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, absent
	}
	h := sha256.New()
	var names []string
	for _, e := range entries { // sorted by name
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		names = append(names, name)
		if e.IsDir() {
			name += "/"
		}
		h.Write([]byte(name + "\x00"))
	}
	return names, hex.EncodeToString(h.Sum(nil))
}

// fileState is a file's content hash and modification time.
type fileState struct {
	hash    string
	modTime time.Time
	err     error
}

// hashAll hashes paths side by side: a no-op run is mostly this.
func hashAll(paths []string) []fileState {
	out := make([]fileState, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := range next {
				out[i] = hashFile(paths[i])
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func hashFile(path string) fileState {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fileState{hash: absent}
	} else if err != nil {
		return fileState{err: err}
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose
	fi, err := f.Stat()
	if err != nil {
		return fileState{err: err}
	}
	if fi.IsDir() {
		return fileState{err: fmt.Errorf("%s is a directory", path)}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fileState{err: err}
	}
	return fileState{hash: hex.EncodeToString(h.Sum(nil)), modTime: fi.ModTime()}
}

// readManifest reads the manifest at path, and its file's information for
// the trim.
func readManifest(path string) (*manifest, fs.FileInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, nil, err
	}
	return &m, fi, nil
}

// writeManifest writes m at path whole or not at all (a temporary file and
// a rename), so that concurrent runs need no lock: the last one wins, and
// each one's manifest is true of the tree it left.
func writeManifest(path string, m *manifest) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
