package cli

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/internal/output"
)

// crdSummary is what the lines after the summary say of the CRDs' sizes,
// each as client-side kubectl apply stores it (output.CRDInfo.Size, the
// size the limit measures, a third to a half of the YAML file's): one line
// per CRD that --fit-crd-bytes trimmed, how many descriptions it left out
// and the size before and after; then one line of sizes. That line
// names the CRDs over half of what client-side kubectl apply can store, the
// largest first, or, when none is, the largest alone: a project of forty
// small CRDs reads its headroom in one figure, and one that is growing
// towards the limit sees which CRDs are, before the warning. Sizes are in
// KiB, rounded up to a tenth, so that a CRD over the limit never reads as
// within it; the warnings give bytes.
func crdSummary(files []output.File) []string {
	type sized struct {
		name string
		size int
	}
	var lines []string
	var crds []sized
	for _, f := range files {
		if f.Delete || f.CRD == nil {
			continue
		}
		name := filepath.Base(f.Path)
		crds = append(crds, sized{name, f.CRD.Size})
		if f.CRD.Trimmed > 0 {
			lines = append(lines, fmt.Sprintf("crdforge: --fit-crd-bytes left %d description(s) out of %s: %s, down from %s",
				f.CRD.Trimmed, name, kib(f.CRD.Size), kib(f.CRD.Untrimmed)))
		}
	}
	if len(crds) == 0 {
		return lines
	}
	slices.SortStableFunc(crds, func(a, b sized) int {
		return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(a.name, b.name))
	})
	limit := kib(crd.ClientSideApplyLimit)
	var big []string
	for _, c := range crds {
		if c.size > crd.ClientSideApplyLimit/2 {
			big = append(big, c.name+" "+kib(c.size))
		}
	}
	if len(big) == 0 {
		return append(lines, fmt.Sprintf("crdforge: largest CRD: %s, %s of the %s client-side kubectl apply can store", crds[0].name, kib(crds[0].size), limit))
	}
	return append(lines, fmt.Sprintf("crdforge: CRDs over half the %s client-side kubectl apply can store: %s", limit, strings.Join(big, ", ")))
}

// kib renders n bytes in KiB, rounded up to a tenth; whole numbers without
// the tenth.
func kib(n int) string {
	k := math.Ceil(float64(n)*10/1024) / 10
	if k == math.Trunc(k) {
		return fmt.Sprintf("%.0f KiB", k)
	}
	return fmt.Sprintf("%.1f KiB", k)
}
