package check

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/objectcheck"
)

// TestSidesCompareWhatGenerateWrites: a side's CRDs, built as objects
// (validated for the working tree, not for a baseline), are exactly what
// crdforge generate writes, read back from its YAML, once the API server
// defaults both: check compares what generate would write, and a baseline
// read from files compares like one generated from Go.
func TestSidesCompareWhatGenerateWrites(t *testing.T) {
	trees := map[string]string{
		"marker cases":     goModule(t, "example.com/widgets", map[string]string{"api/v1/groupversion_info.go": fmt.Sprintf(groupInfo, "v1"), "api/v1/types.go": markerTree(false)}),
		"conversion cases": goModule(t, "example.com/widgets", convFiles(false)),
	}
	for _, name := range []string{"cronjob", "crontab", "widgets"} {
		trees["example "+name] = filepath.Join("..", "..", "..", "..", "examples", name)
	}
	scheme := runtime.NewScheme()
	install.Install(scheme)
	defaulted := func(c *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
		c = c.DeepCopy()
		scheme.Default(c)
		return c
	}
	for name, dir := range trees {
		t.Run(name, func(t *testing.T) {
			cfg := pipeline.Config{Dir: dir, Only: []string{"crd"}}
			res, err := pipeline.Generate(cfg)
			if err != nil || res.Diags.HasErrors() {
				t.Fatalf("generate: %v %v", err, res.Diags.Items())
			}
			var written []*apiextensionsv1.CustomResourceDefinition
			for _, f := range res.Files {
				if filepath.Ext(f.Path) != ".yaml" || f.Delete {
					continue
				}
				crds, err := objectcheck.DecodeCRDs(f.Content)
				if err != nil {
					t.Fatal(err)
				}
				written = append(written, crds...)
			}
			for _, validate := range []bool{true, false} {
				side, err := generate(pipeline.Config{Dir: dir}, validate)
				if err != nil || side.Diags.HasErrors() {
					t.Fatalf("validate %v: %v %v", validate, err, side.Diags.Items())
				}
				if len(side.CRDs) != len(written) || len(written) == 0 {
					t.Fatalf("validate %v: %d CRDs, generate writes %d", validate, len(side.CRDs), len(written))
				}
				for i, c := range side.CRDs {
					if got, want := defaulted(c), defaulted(written[i]); !reflect.DeepEqual(got, want) {
						t.Errorf("validate %v: CRD %s differs from what generate writes:\n%s", validate, c.Name, cmp.Diff(want, got))
					}
				}
			}
		})
	}
}
