package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/cmd/crdforge/command/migrate"
)

func TestWriteReport(t *testing.T) {
	res := &migrate.Result{StorageCheck: "v1 is the storage version", ConversionCheck: "read 1 object at v1beta1"}
	refused := fmt.Errorf("the webhook did not answer: %w", migrate.ErrConversion)
	for _, c := range []struct {
		name        string
		err         error
		wantSummary bool
	}{
		{"a run that went through: the checks and the summary", nil, true},
		{"a run that failed objects: the summary too", errors.New("2 objects failed"), true},
		{"a run the conversion check refused: no summary, nothing was done", refused, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := writeReport(&b, res, c.err); err != nil {
				t.Fatal(err)
			}
			want := "storage version check: v1 is the storage version\nconversion check: read 1 object at v1beta1\n"
			if c.wantSummary {
				want += res.Summary()
			}
			if b.String() != want {
				t.Errorf("report %q, want %q", b.String(), want)
			}
		})
	}
	if err := writeReport(brokenWriter{}, res, nil); err == nil {
		t.Error("a report that could not be written: no error")
	}
}
