package newversion

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Apply writes c: it creates the new package's directory and files, and
// replaces the edited files, each through a temporary file and a rename.
// It returns undo, which removes the new directory and puts the edited
// files' old content back; Apply itself undoes what it did when a write
// fails.
func Apply(c *Change) (undo func() error, err error) {
	if err := os.Mkdir(c.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", c.Dir, err)
	}
	var replaced []File
	undo = func() error {
		errs := []error{os.RemoveAll(c.Dir)}
		for _, f := range replaced {
			errs = append(errs, writeFile(f.Path, f.Old))
		}
		return errors.Join(errs...)
	}
	for _, f := range c.Files {
		if err := writeFile(f.Path, f.Content); err != nil {
			return nil, errors.Join(err, undo())
		}
		if f.Old != nil {
			replaced = append(replaced, f)
		}
	}
	return undo, nil
}

// writeFile writes b to path through a temporary file in the same
// directory and a rename, keeping an existing file's mode.
func writeFile(path string, b []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return errors.Join(err, os.Remove(tmp.Name()))
	}
	return nil
}
