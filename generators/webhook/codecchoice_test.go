package webhook

import (
	"go/token"
	"strings"
	"testing"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// TestAutoCodecKeepsTheGeneratedCodecWithinItsBudget: CodecAuto writes the
// generated codec of an API whose codec is as large as the budget, and says
// nothing.
func TestAutoCodecKeepsTheGeneratedCodecWithinItsBudget(t *testing.T) {
	k := shapesKind(t)
	files, diags := generateAuto(t, k, codecSize([]*model.Kind{k}))
	if len(files) < 2 || !strings.Contains(string(files[0].Content), "jsoncodec.With(") {
		t.Errorf("within the budget, auto wrote %d files and a main without the generated codec", len(files))
	}
	if items := diags.Items(); len(items) != 0 {
		t.Errorf("within the budget, auto said %v", items)
	}
}

// TestAutoCodecChoosesReflectPastItsBudget: past the budget, CodecAuto
// writes the main alone, which serves the kinds with the reflection codec,
// and warns at the first kind, saying which codec it chose and how to pick
// one.
func TestAutoCodecChoosesReflectPastItsBudget(t *testing.T) {
	k := shapesKind(t)
	files, diags := generateAuto(t, k, codecSize([]*model.Kind{k})-1)
	if len(files) != 1 || strings.Contains(string(files[0].Content), "jsoncodec") {
		t.Errorf("past the budget, auto wrote %d files, the main naming jsoncodec: %v", len(files), strings.Contains(string(files[0].Content), "jsoncodec"))
	}
	items := diags.Items()
	if len(items) != 1 || items[0].Severity != diag.Warning || !strings.Contains(items[0].Msg, "reflect codec") {
		t.Fatalf("past the budget, auto said %v; want one warning naming the reflect codec", items)
	}
	if !strings.Contains(items[0].Format(""), "webhook-codec: generated") {
		t.Errorf("the warning does not say how to keep the generated codec:\n%s", items[0].Format(""))
	}
}

// generateAuto runs the webhook generator with CodecAuto and budget on k.
func generateAuto(t *testing.T, k *model.Kind, budget int) ([]output.File, *diag.List) {
	t.Helper()
	m := &model.Model{ImportPath: shapesPath, Project: "shapes", Groups: []*model.Group{{Kinds: []*model.Kind{k}}}}
	diags := diag.New(token.NewFileSet())
	files := Generator{Main: "cmd/webhook/main.go", Codec: CodecAuto, budget: budget}.Generate(m, diags)
	if diags.HasErrors() {
		t.Fatalf("generate: %v", diags.Items())
	}
	return files, diags
}

// TestCodecSizeCountsEachTypeOnce: the codec codes a struct type once,
// however many versions reach it, so its size counts the type's members
// once.
func TestCodecSizeCountsEachTypeOnce(t *testing.T) {
	k := shapesKind(t)
	one := codecSize([]*model.Kind{k})
	if two := codecSize([]*model.Kind{k, k}); one == 0 || two != one {
		t.Errorf("codecSize: %d for Root, %d for Root twice; want the same, above 0", one, two)
	}
}
