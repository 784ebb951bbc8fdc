package webhook

import (
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// codecBudget is the largest generated codec CodecAuto writes, in the JSON
// members its functions handle (codecGen.members). Past it, what the
// generated codec costs outgrows what it saves. Its speed pays off per
// object converted, and a webhook converts at most the objects of one list
// or watch at a time, whatever the API's size; its cost grows with the
// API: at issue 56's synthetic group of 200 kinds (BENCHMARKS.md), some
// 400,000 lines to commit, a build of minutes with the compiler above
// 3 GB, a binary a third larger than the reflection codec's. The budget
// keeps the generated codec where its build stays within about a third of
// a webhook's build and its binary within a tenth of the reflection
// codec's: some 30 kinds of the synthetic group's shape in three
// versions (TestCodecBudgetInKinds).
const codecBudget = 10_000

// chooseGenerated reports whether CodecAuto keeps the generated codec of
// members planned for kinds, within budget, and warns when it does not:
// the user learns which codec the webhook uses, and how to pick one.
func chooseGenerated(kinds []*model.Kind, members, budget int, diags *diag.List) bool {
	if members <= budget {
		return true
	}
	diags.Warnf(kinds[0].Pos(), "the webhook serves %d kinds with the reflect codec: a generated one would be too large", len(kinds)).
		Note("a generated codec would handle %d JSON members, past the %d that --webhook-codec=auto generates: its build time, the compiler's memory and the binary grow with it, and a webhook converts one list at a time whatever the API's size", members, budget).
		Help("set webhook-codec: reflect in .crdforge.yaml to keep this choice without the warning, or webhook-codec: generated for the faster codec at that cost")
	return false
}
