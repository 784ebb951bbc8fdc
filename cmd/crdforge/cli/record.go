package cli

import (
	"io"

	"github.com/crdforge/crdforge/internal/cachedir"
	"github.com/crdforge/crdforge/internal/passrecord"
)

// validationRecord opens the record of CRDs that passed the API server's
// validation in earlier runs ($CRDFORGE_CACHE, or crdforge's directory in
// the user's cache directory). A record that cannot be used costs the run
// only the validation it would have saved, so it is a warning, and the
// run validates every CRD.
func validationRecord(stderr io.Writer) *passrecord.Record {
	dir, err := cachedir.DefaultDir()
	if err == nil {
		var c *passrecord.Record
		if c, err = passrecord.Open(dir, "crd-validation"); err == nil {
			return c
		}
	}
	printErrf(stderr, "crdforge: warning: validating every CRD: %v", err)
	return nil
}
