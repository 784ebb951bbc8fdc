// Package lister keeps the shelves of one version by name, laid out as
// client-gen's listers are: it has no generated file of its own, yet its
// declarations need the DeepCopyObject that only the API packages'
// zz_generated.deepcopy.go files declare.
package lister

import (
	v1 "github.com/crdforge/crdforge/testdata/generatedusers/api/v1"
	v1beta1 "github.com/crdforge/crdforge/testdata/generatedusers/api/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Index keeps objects of one type by name.
type Index[T runtime.Object] struct {
	byName map[string]T
}

// Get returns the object named name, if the index has one.
func (i *Index[T]) Get(name string) (T, bool) {
	o, ok := i.byName[name]
	return o, ok
}

// ShelfLister lists v1 shelves.
type ShelfLister struct {
	Index[*v1.Shelf]
}

// OldShelfLister lists v1beta1 shelves.
type OldShelfLister struct {
	Index[*v1beta1.Shelf]
}
