package crd

import (
	"bytes"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
)

// testCRD is a CRD of one or more versions, each with the schema root.
func testCRD(root apiextensionsv1.JSONSchemaProps, versions ...string) *apiextensionsv1.CustomResourceDefinition {
	c := &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "things.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "things", Singular: "thing", Kind: "Thing", ListKind: "ThingList"},
		},
	}
	for i, v := range versions {
		s := root.DeepCopy()
		c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{
			Name: v, Served: true, Storage: i == 0, Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: s},
		})
	}
	return c
}

func obj(desc string, props map[string]apiextensionsv1.JSONSchemaProps) apiextensionsv1.JSONSchemaProps {
	return apiextensionsv1.JSONSchemaProps{Type: "object", Description: desc, Properties: props}
}

func str(desc string) apiextensionsv1.JSONSchemaProps {
	return apiextensionsv1.JSONSchemaProps{Type: "string", Description: desc}
}

// shelf is a schema with descriptions at every depth, of equal and of
// different lengths, under properties, list items and map values.
func shelf() apiextensionsv1.JSONSchemaProps {
	return obj("A thing.", map[string]apiextensionsv1.JSONSchemaProps{
		"spec": obj("The spec, described at some length.", map[string]apiextensionsv1.JSONSchemaProps{
			"b":    str("bbbb"),
			"a":    str("aaaa"),
			"long": str("a long description, deep enough to go early"),
			"list": {Type: "array", Description: "A list.", Items: &apiextensionsv1.JSONSchemaPropsOrArray{
				Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Description: "An item.", Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"x": str("x"),
				}},
			}},
			"labels": {Type: "object", Description: "Labels.", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{
				Allows: true, Schema: &apiextensionsv1.JSONSchemaProps{Type: "string", Description: "A label's value."},
			}},
		}),
	})
}

func paths(list []description) []string {
	var out []string
	for _, d := range list {
		out = append(out, d.path)
	}
	return out
}

func TestDescriptionsGoDeepestFirstThenLongestThenByPath(t *testing.T) {
	got := paths(descriptions(testCRD(shelf(), "v1")))
	want := []string{
		"v1.spec.list[*].x",                    // depth 4
		"v1.spec.labels{*}", "v1.spec.list[*]", // depth 3, longest first
		"v1.spec.long",                   // depth 2, the longest
		"v1.spec.labels", "v1.spec.list", // seven bytes each: by path
		"v1.spec.a", "v1.spec.b", // four bytes each: by path
		"v1.spec",
		"v1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("order\n got: %q\nwant: %q", got, want)
	}
}

// Schemas are maps, which Go iterates in a new order each time: the order
// of the descriptions, and so what fitting leaves out, must not follow.
func TestFitIsTheSameOnEveryRun(t *testing.T) {
	first := paths(descriptions(testCRD(shelf(), "v1", "v2")))
	var printed []byte
	for i := range 20 {
		if got := paths(descriptions(testCRD(shelf(), "v1", "v2"))); !slices.Equal(got, first) {
			t.Fatalf("run %d: order %q, first run %q", i, got, first)
		}
		c := testCRD(shelf(), "v1", "v2")
		full, _ := appliedSize(c)
		if _, err := fit(c, full-100, appliedSize); err != nil {
			t.Fatal(err)
		}
		out, _ := Marshal(c)
		if i > 0 && !bytes.Equal(out, printed) {
			t.Fatalf("run %d printed another CRD than the first", i)
		}
		printed = out
	}
	// Ties across versions go by path: v1's before v2's.
	if first[0] != "v1.spec.list[*].x" || first[1] != "v2.spec.list[*].x" {
		t.Errorf("first two = %q, want v1's then v2's deepest", first[:2])
	}
}

// fit leaves out the fewest descriptions, in the order, that bring the CRD
// within the limit: one fewer does not fit.
func TestFitLeavesOutTheFewest(t *testing.T) {
	full, _ := appliedSize(testCRD(shelf(), "v1"))
	bare, err := bareSize(testCRD(shelf(), "v1"))
	if err != nil {
		t.Fatal(err)
	}
	all := descriptions(testCRD(shelf(), "v1"))
	for excess := 1; excess <= full-bare.applied; excess += 3 {
		c := testCRD(shelf(), "v1")
		limit := full - excess
		res, err := fit(c, limit, appliedSize)
		if err != nil {
			t.Fatal(err)
		}
		if !res.fits || res.size > limit || res.untrimmed != full {
			t.Fatalf("limit %d: fits %v, %d bytes, untrimmed %d", limit, res.fits, res.size, res.untrimmed)
		}
		if again, _ := appliedSize(c); again != res.size {
			t.Fatalf("limit %d: the CRD left measures %d, fit said %d", limit, again, res.size)
		}
		fewer := testCRD(shelf(), "v1")
		dropDescriptions(fewer, firstPaths(all, res.trimmed-1))
		if n, _ := appliedSize(fewer); n <= limit {
			t.Fatalf("limit %d: %d descriptions left out, but %d fit already", limit, res.trimmed, res.trimmed-1)
		}
		left := descriptions(c)
		if len(left) != len(all)-res.trimmed || !slices.Equal(paths(left), paths(all[res.trimmed:])) {
			t.Fatalf("limit %d: left %q, want the last %d of the order", limit, paths(left), len(all)-res.trimmed)
		}
	}
}

func TestFitWithinTheLimitLeavesEverything(t *testing.T) {
	c := testCRD(shelf(), "v1")
	full, _ := appliedSize(c)
	res, err := fit(c, full, appliedSize)
	if err != nil || !res.fits || res.trimmed != 0 || res.size != full || len(descriptions(c)) != 10 {
		t.Errorf("fit at the CRD's own size: %+v, %v; want it as it is", res, err)
	}
}

func TestFitBelowTheBareSchemaLeavesOutEveryDescription(t *testing.T) {
	c := testCRD(shelf(), "v1")
	res, err := fit(c, 100, appliedSize)
	if err != nil {
		t.Fatal(err)
	}
	if res.fits || res.trimmed != 10 || len(descriptions(c)) != 0 {
		t.Errorf("fits %v, trimmed %d, left %d; want no fit, all 10 left out", res.fits, res.trimmed, len(descriptions(c)))
	}
}

// wide is a schema of n string properties, each with a pattern of
// patternLen bytes and a description of descLen.
func wide(n, patternLen, descLen int) apiextensionsv1.JSONSchemaProps {
	props := map[string]apiextensionsv1.JSONSchemaProps{}
	for i := range n {
		name := fmt.Sprintf("p%05d", i)
		props[name] = apiextensionsv1.JSONSchemaProps{Type: "string", Pattern: strings.Repeat("a", patternLen), Description: strings.Repeat("d", descLen)}
	}
	return obj("", props)
}

func printKind(t *testing.T, g Generator, c *apiextensionsv1.CustomResourceDefinition) ([]diag.Diagnostic, int) {
	t.Helper()
	diags := diag.New(token.NewFileSet())
	printed, info, ok := g.print(&model.Kind{Name: "Thing"}, c, diags)
	if !ok {
		t.Fatal("nothing printed")
	}
	if again, _ := Marshal(c); !bytes.Equal(again, printed) {
		t.Error("the CRD printed is not the CRD left")
	}
	return diags.Items(), info.Size
}

func TestSizeDiagnostics(t *testing.T) {
	t.Run("within client-side apply's limit: nothing", func(t *testing.T) {
		if ds, _ := printKind(t, Generator{}, testCRD(shelf(), "v1")); len(ds) != 0 {
			t.Errorf("diagnostics %v", ds)
		}
	})
	t.Run("over it: a warning that names the limit and the fixes", func(t *testing.T) {
		ds, size := printKind(t, Generator{}, testCRD(wide(1000, 100, 200), "v1"))
		if size <= ClientSideApplyLimit || len(ds) != 1 || ds[0].Severity != diag.Warning {
			t.Fatalf("%d bytes, diagnostics %v; want one warning", size, ds)
		}
		text := ds[0].Format("")
		for _, want := range []string{"over client-side apply's limit of 262144", "last-applied-configuration", "Too long", "--fit-crd-bytes=262144", "+crdforge:description:omit", "--server-side"} {
			if !strings.Contains(text, want) {
				t.Errorf("warning lacks %q:\n%s", want, text)
			}
		}
		if len(ds[0].Msg) > diag.MaxHeadline {
			t.Errorf("headline of %d characters: %s", len(ds[0].Msg), ds[0].Msg)
		}
	})
	t.Run("fitted: within the limit, no warning", func(t *testing.T) {
		ds, size := printKind(t, Generator{FitBytes: ClientSideApplyLimit}, testCRD(wide(1000, 100, 200), "v1"))
		if size > ClientSideApplyLimit || len(ds) != 0 {
			t.Errorf("%d bytes, diagnostics %v", size, ds)
		}
	})
	t.Run("over etcd's limit without descriptions: an error with the numbers", func(t *testing.T) {
		ds, _ := printKind(t, Generator{FitBytes: ClientSideApplyLimit}, testCRD(wide(12000, 120, 10), "v1"))
		if len(ds) != 1 || ds[0].Severity != diag.Error {
			t.Fatalf("diagnostics %v; want one error", ds)
		}
		if text := ds[0].Format(""); !strings.Contains(text, "even without descriptions, over etcd's 1572864-byte limit") {
			t.Errorf("error:\n%s", text)
		}
	})
	t.Run("over etcd's limit only with descriptions: the warning says both", func(t *testing.T) {
		ds, _ := printKind(t, Generator{}, testCRD(wide(6000, 100, 200), "v1"))
		if len(ds) != 1 || ds[0].Severity != diag.Warning || !strings.Contains(ds[0].Format(""), "etcd's default request limit") {
			t.Fatalf("diagnostics %v; want one warning naming etcd's limit too", ds)
		}
	})
	t.Run("cannot fit a small limit: a warning", func(t *testing.T) {
		ds, _ := printKind(t, Generator{FitBytes: 500}, testCRD(shelf(), "v1"))
		if len(ds) != 1 || ds[0].Severity != diag.Warning || !strings.Contains(ds[0].Msg, "without any description, over --fit-crd-bytes=500") {
			t.Fatalf("diagnostics %v", ds)
		}
	})
}
