package model

import (
	"reflect"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/markers"
)

// TestFlattenRootsKeepsNothingInTheParser: the kind's roots are flattened
// where NeedCRDFor finds them, and the parser's own flattener, whose cache
// lives as long as the parser, holds none of them nor any type below them
// (issue 56: that cache was the largest part of a 600-kind run's peak).
func TestFlattenRootsKeepsNothingInTheParser(t *testing.T) {
	roots, err := loader.LoadRoots("../../examples/widgets/api/...")
	if err != nil {
		t.Fatal(err)
	}
	regs, err := markers.NewRegistries()
	if err != nil {
		t.Fatal(err)
	}
	p := &crd.Parser{Collector: &ctmarkers.Collector{Registry: regs.Kubebuilder}, Checker: &loader.TypeChecker{}}
	crd.AddKnownTypes(p)
	for _, root := range roots {
		p.NeedPackage(root)
	}
	flattenRoots(p, "Widget", roots)
	for _, root := range roots {
		ident := crd.TypeIdent{Package: root, Name: "Widget"}
		if _, ok := p.FlattenedSchemata[ident]; !ok {
			t.Errorf("%s: the root is not flattened", root.PkgPath)
		}
		if errs := root.Errors; len(errs) > 0 {
			t.Errorf("%s: %v", root.PkgPath, errs)
		}
	}
	// The parser's flattener is unexported: its cache is read by reflection.
	f := reflect.ValueOf(p).Elem().FieldByName("flattener")
	if !f.IsValid() {
		t.Fatal("crd.Parser has no flattener field: controller-tools changed; update this test")
	}
	if !f.IsNil() {
		if n := f.Elem().FieldByName("flattenedTypes").Len(); n != 0 {
			t.Errorf("the parser's flattener keeps %d flattened types", n)
		}
	}
}
