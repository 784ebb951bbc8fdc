package certs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a file to write into a directory.
type File struct {
	Name    string
	Content []byte
	// Mode is the file's permissions: 0600 for anything holding a key.
	Mode fs.FileMode
}

// Write writes files into dir (made, 0700, when missing) as the output
// package writes generated files: each first in full to a temporary file
// beside its target, with its final mode, and only when all are written
// renamed into place; so a failed run leaves no half-written file and a key
// is never readable by others, not even for a moment.
func Write(dir string, files []File) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	temps := make([]string, 0, len(files))
	cleanup := func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		tmp, err := writeTemp(dir, f)
		if err != nil {
			cleanup()
			return err
		}
		temps = append(temps, tmp)
	}
	for i, f := range files {
		if err := os.Rename(temps[i], filepath.Join(dir, f.Name)); err != nil {
			cleanup()
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return nil
}

func writeTemp(dir string, f File) (string, error) {
	// CreateTemp makes the file 0600, so a key is private from the start.
	t, err := os.CreateTemp(dir, "."+f.Name+".crdforge-*")
	if err != nil {
		return "", err
	}
	_, werr := t.Write(f.Content)
	cerr := t.Close()
	if err := errors.Join(werr, cerr, os.Chmod(t.Name(), f.Mode)); err != nil {
		os.Remove(t.Name())
		return "", fmt.Errorf("%s: %w", f.Name, err)
	}
	return t.Name(), nil
}
