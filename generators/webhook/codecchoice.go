package webhook

import (
	"go/types"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/settings"
)

// codecBudget is the largest codec CodecAuto generates, in JSON members
// (codecSize). The generated codec's speed pays off per object converted,
// and a webhook converts the objects of one list or watch at a time,
// whatever the API's size; its cost grows with the API: code to commit,
// the compiler's time and memory, the binary. Within the budget the
// binary stays within about a tenth of the reflection codec's: issue 56's
// synthetic group (BENCHMARKS.md, "At the scale of the largest API
// groups") has some 85 members a kind in three versions, and its webhook
// is 1.07 times the reflection codec's at 10 kinds (872 members), 1.20
// times at 50 (4,072). The cronjob example, whose CronJob holds a PodSpec,
// has 617.
const codecBudget = 1_500

// chooseGenerated reports whether CodecAuto generates the codec of kinds,
// whose size is within budget, and warns when it does not: the user
// learns which codec the webhook uses, and how to pick one.
func chooseGenerated(kinds []*model.Kind, budget int, diags *diag.List) bool {
	size := codecSize(kinds)
	if size <= budget {
		return true
	}
	diags.Warnf(kinds[0].Pos(), "the webhook serves %d kinds with the reflect codec: a generated one would be too large", len(kinds)).
		Note("a generated codec would code %d JSON members, past the %d that %s generates: its code, build time, compiler memory and binary grow with the API, and its gain does not (a webhook converts one list at a time)", size, budget, settings.WebhookCodec.FlagIs(CodecAuto)).
		Help("set %s to keep this choice without the warning, or %s for the faster codec at that cost", settings.WebhookCodec.InProjectFile(CodecReflect), settings.WebhookCodec.InProjectFile(CodecGenerated))
	return false
}

// codecSize is the size of the codec kinds would have, as CodecAuto weighs
// it before planning any of it: the JSON members of every struct type the
// versions' root types reach that the codec would code itself (see
// codecGen.decoder), each type counted once. The codec decodes and encodes
// each (and transcodes some), so its code, what the compiler holds and the
// binary's text all grow with it.
func codecSize(kinds []*model.Kind) int {
	seen := map[*types.Named]bool{}
	size := 0
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch u := t.(type) {
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Elem())
		case *types.Named:
			if seen[u] || reflectOnly(u) {
				return
			}
			seen[u] = true
			st, ok := u.Underlying().(*types.Struct)
			if !ok {
				walk(u.Underlying())
				return
			}
			fields, ok := jsonFields(st)
			if !ok || u.Obj().Pkg() == nil {
				return
			}
			size += len(fields)
			for _, f := range fields {
				walk(f.path[len(f.path)-1].Type())
			}
		}
	}
	for _, k := range kinds {
		for _, v := range k.Versions {
			walk(v.Type)
		}
	}
	return size
}
