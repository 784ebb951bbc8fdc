package check

import (
	"fmt"
	"slices"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// The CRD directory crdforge generates for testdata/deprecatedfield, whose
// fields carry +crdforge:deprecated: a baseline of plain CRD files, as
// --against-files reads it (the policy file beside the CRD is skipped).
const deprecatedFieldBases = "../../../../testdata/deprecatedfield/want/config/crd/bases"

// What +crdforge:deprecated writes into a CRD is what check reads back
// from a baseline of CRD files: removing the fields it deprecated is a
// warning, removing any other field still an error, and the storage
// version's loss of stored values still data loss.
func TestGeneratedDeprecationReadsBack(t *testing.T) {
	old, err := ReadCRDs(deprecatedFieldBases)
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 1 {
		t.Fatalf("%s: %d CRDs, want the one (the policy file is not one)", deprecatedFieldBases, len(old))
	}
	nw := old[0].DeepCopy()
	for i := range nw.Spec.Versions {
		spec := nw.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"]
		delete(spec.Properties, "color") // deprecated in both versions
		delete(spec.Properties, "size")  // not deprecated
		if paint, ok := spec.Properties["paint"]; ok {
			delete(paint.Properties, "gloss") // deprecated below an optional parent
			spec.Properties["paint"] = paint
		}
		nw.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	}
	res, err := Compare(Input{Old: old, New: []*apiextensionsv1.CustomResourceDefinition{nw}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, fmt.Sprintf("%s/%s %s %s", f.Rule, f.Severity, f.Version, f.Path))
	}
	want := []string{
		"deprecatedFieldRemoval/warn v1 ^.spec.color", "deprecatedFieldRemoval/warn v1 ^.spec.paint.gloss",
		"deprecatedFieldRemoval/warn v1beta1 ^.spec.color",
		"existingFieldRemoval/error v1 ^.spec.size", "existingFieldRemoval/error v1beta1 ^.spec.size",
		"fieldDataLoss/error v1 ^.spec.color", "fieldDataLoss/error v1 ^.spec.paint.gloss", "fieldDataLoss/error v1 ^.spec.size",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("findings\n got %q\nwant %q", got, want)
	}
}
