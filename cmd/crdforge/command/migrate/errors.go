package migrate

import (
	"errors"
	"fmt"
)

// ErrUsage marks errors in what was asked: an unknown CRD, bad options.
// The CLI exits 2 on them.
var ErrUsage = errors.New("usage")

// ErrConversion marks the refusal to start because the conversion webhook
// does not answer; nothing was changed. The CLI then prints no summary.
var ErrConversion = errors.New("conversion webhook check failed")

// errFailed marks a run in which some objects could not be written;
// status.storedVersions was left alone.
var errFailed = errors.New("some objects could not be rewritten")

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}
