package crdstrategy

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// The strategy this package stands in for; only the tests build it.
var strategy = customresourcedefinition.NewStrategy(newScheme())

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}

// crds returns every CRD of the goldens and examples (their config/crd
// trees: the charts' copies are templates), as the API server holds it
// after defaulting, and CRDs made to draw each warning the strategy
// gives, by file name.
func crds(t *testing.T) map[string]*apiextensions.CustomResourceDefinition {
	t.Helper()
	scheme := newScheme()
	out := map[string]*apiextensions.CustomResourceDefinition{}
	add := func(name string, c *apiextensionsv1.CustomResourceDefinition) {
		scheme.Default(c)
		in := &apiextensions.CustomResourceDefinition{}
		if err := scheme.Convert(c, in, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = in
	}
	for _, dir := range []string{"../../testdata", "../../examples"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" || !strings.Contains(filepath.ToSlash(path), "/config/crd/") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil || !bytes.Contains(data, []byte("\nkind: CustomResourceDefinition\n")) {
				return err
			}
			c := &apiextensionsv1.CustomResourceDefinition{}
			if err := yaml.UnmarshalStrict(data, c); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			add(path, c)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 60 {
		t.Fatalf("found %d CRDs in the goldens and examples, want the eighty or so they hold", len(out))
	}
	add("warnings", warned())
	return out
}

// warned is a CRD of two versions whose schemas draw every warning: formats
// the API server does not know, one in both versions, and sets of objects
// and of lists.
func warned() *apiextensionsv1.CustomResourceDefinition {
	set := "set"
	schema := func(format string) *apiextensionsv1.CustomResourceValidation {
		return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object",
			Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"a": {Type: "string", Format: format},
				"b": {Type: "string", Format: "phone-number"},
				"c": {Type: "array", XListType: &set, Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}},
				"d": {Type: "array", XListType: &set, Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}}},
			},
		}}
	}
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: "Gadget", ListKind: "GadgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{Name: "v1", Served: true, Storage: true, Schema: schema("wavelength")},
				{Name: "v2", Served: true, Schema: schema("int32")},
			},
		},
	}
}

// equal fails t unless ours and theirs are equal.
func equal[T any](t *testing.T, what, name string, ours, theirs T) {
	t.Helper()
	if d := cmp.Diff(theirs, ours); d != "" {
		t.Errorf("%s: %s differs from the strategy's (-strategy +crdstrategy):\n%s", name, what, d)
	}
}

// On create, every CRD is prepared as the strategy prepares it, whatever
// status and generation it came with, and draws the same warnings.
func TestCreateIsTheStrategys(t *testing.T) {
	warnings := 0
	for name, c := range crds(t) {
		c.Generation = 7
		c.Status.StoredVersions = []string{"v0"}
		c.Status.AcceptedNames.Kind = "Other"
		ours, theirs := c.DeepCopy(), c.DeepCopy()
		PrepareForCreate(ours)
		strategy.PrepareForCreate(context.Background(), theirs)
		equal(t, "the prepared CRD", name, ours, theirs)
		// Sorted: both walk a schema's properties in map order.
		w := slices.Sorted(slices.Values(WarningsOnCreate(ours)))
		equal(t, "the warnings", name, w, slices.Sorted(slices.Values(strategy.WarningsOnCreate(context.Background(), theirs))))
		warnings += len(w)
	}
	if warnings < 4 {
		t.Errorf("%d warnings in all, want at least the four kinds of warned()", warnings)
	}
}

// On update, a CRD is prepared as the strategy prepares it, and the old one
// left as the strategy leaves it: unchanged, with its spec changed, and with
// the storage version stored already.
func TestUpdateIsTheStrategys(t *testing.T) {
	edits := map[string]func(nw, old *apiextensions.CustomResourceDefinition){
		"nothing": func(_, _ *apiextensions.CustomResourceDefinition) {},
		"a short name": func(nw, _ *apiextensions.CustomResourceDefinition) {
			nw.Spec.Names.ShortNames = append(nw.Spec.Names.ShortNames, "zz")
		},
		"nothing, the storage version stored": func(_, old *apiextensions.CustomResourceDefinition) {
			old.Status.StoredVersions = []string{storage(old), "v0"}
		},
	}
	for name, c := range crds(t) {
		c.Generation = 3
		c.Status.StoredVersions = []string{"v0"}
		for change, edit := range edits {
			old, nw := c.DeepCopy(), c.DeepCopy()
			nw.Generation, nw.Status = 0, apiextensions.CustomResourceDefinitionStatus{}
			edit(nw, old)
			ours, theirs := nw.DeepCopy(), nw.DeepCopy()
			oursOld, theirsOld := old.DeepCopy(), old.DeepCopy()
			PrepareForUpdate(ours, oursOld)
			strategy.PrepareForUpdate(context.Background(), theirs, theirsOld)
			equal(t, "the updated CRD", name+", changing "+change, ours, theirs)
			equal(t, "the old CRD", name+", changing "+change, oursOld, theirsOld)
		}
	}
}

func storage(c *apiextensions.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}
