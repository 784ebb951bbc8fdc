package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/peers/api/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1_LocalObjectReference_To_v1_PoolRef converts a core reference.
func Convert_v1_LocalObjectReference_To_v1_PoolRef(in *corev1.LocalObjectReference, out *v1.PoolRef, _ conversion.Scope) error {
	out.Name = in.Name
	return nil
}

// Convert_v1_PoolRef_To_v1_LocalObjectReference converts to a core reference.
func Convert_v1_PoolRef_To_v1_LocalObjectReference(in *v1.PoolRef, out *corev1.LocalObjectReference, _ conversion.Scope) error {
	out.Name = in.Name
	return nil
}
