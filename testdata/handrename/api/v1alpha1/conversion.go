package v1alpha1

import (
	v1 "github.com/crdforge/crdforge/testdata/handrename/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// The functions generate asked for, for items, written as a user would:
// they convert items and forget customer, which v1 calls customerRef.name.

// Convert_v1alpha1_OrderSpec_To_v1_OrderSpec converts items to structs.
func Convert_v1alpha1_OrderSpec_To_v1_OrderSpec(in *OrderSpec, out *v1.OrderSpec, s conversion.Scope) error {
	if err := autoConvert_v1alpha1_OrderSpec_To_v1_OrderSpec(in, out, s); err != nil {
		return err
	}
	out.Items = nil
	for _, name := range in.Items {
		out.Items = append(out.Items, v1.Item{Name: name})
	}
	return nil
}

// Convert_v1_OrderSpec_To_v1alpha1_OrderSpec converts items to names.
func Convert_v1_OrderSpec_To_v1alpha1_OrderSpec(in *v1.OrderSpec, out *OrderSpec, s conversion.Scope) error {
	if err := autoConvert_v1_OrderSpec_To_v1alpha1_OrderSpec(in, out, s); err != nil {
		return err
	}
	out.Items = nil
	for _, item := range in.Items {
		out.Items = append(out.Items, item.Name)
	}
	return nil
}
