package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/internal/output"
)

func TestCRDSummary(t *testing.T) {
	file := func(name string, size int, info output.CRDInfo) output.File {
		info.Size = size
		return output.File{Path: "config/crd/bases/" + name, Content: make([]byte, 3*size), CRD: &info}
	}
	tests := []struct {
		name  string
		files []output.File
		want  []string
	}{
		{"no CRD: nothing", []output.File{{Path: "api/v1/zz_generated.deepcopy.go", Content: []byte("x")}}, nil},
		{"all small: the largest alone", []output.File{
			file("a.yaml", 4000, output.CRDInfo{}), file("b.yaml", 12345, output.CRDInfo{}), file("c.yaml", 100, output.CRDInfo{}),
			{Path: "config/crd/bases/kustomization.yaml", Content: make([]byte, 200000)},
		}, []string{
			"crdforge: largest CRD: b.yaml, 12.1 KiB of the 256 KiB client-side kubectl apply can store",
		}},
		{"over half: each, largest first, over the limit never rounded into it", []output.File{
			file("a.yaml", 140000, output.CRDInfo{}), file("b.yaml", 262145, output.CRDInfo{}), file("c.yaml", 100, output.CRDInfo{}),
			file("d.yaml", 140000, output.CRDInfo{}),
		}, []string{
			"crdforge: CRDs over half the 256 KiB client-side kubectl apply can store: b.yaml 256.1 KiB, a.yaml 136.8 KiB, d.yaml 136.8 KiB",
		}},
		{"trimmed: a line for each", []output.File{
			file("a.yaml", 262000, output.CRDInfo{Trimmed: 1234, Untrimmed: 612345}), file("b.yaml", 1000, output.CRDInfo{}),
		}, []string{
			"crdforge: --fit-crd-bytes left 1234 description(s) out of a.yaml: 255.9 KiB, down from 598 KiB",
			"crdforge: CRDs over half the 256 KiB client-side kubectl apply can store: a.yaml 255.9 KiB",
		}},
		{"deleted files: not counted", []output.File{
			file("a.yaml", 1000, output.CRDInfo{}), {Path: "config/crd/bases/old.yaml", Delete: true},
		}, []string{
			"crdforge: largest CRD: a.yaml, 1 KiB of the 256 KiB client-side kubectl apply can store",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := crdSummary(tt.files); !slices.Equal(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// The project file's fit-crd-bytes fits the CRD, and the lines after the
// summary say how.
func TestFitCRDBytesSummary(t *testing.T) {
	dir := scratchCase(t, "fitcrdbytes")
	code, _, stderr := run(t, dir, "generate", "--only", "crd", "./...")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"\ncrdforge: --fit-crd-bytes left 5 description(s) out of example.com_planters.yaml: 2.5 KiB, down from 2.8 KiB\n",
		"\ncrdforge: largest CRD: example.com_planters.yaml, 2.5 KiB of the 256 KiB client-side kubectl apply can store\n",
	} {
		if !strings.HasSuffix(stderr, want) && !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
