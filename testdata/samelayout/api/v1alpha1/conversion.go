package v1alpha1

import (
	"github.com/crdforge/crdforge/testdata/samelayout/api/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1alpha1_Condition_To_v1_Condition converts to metav1's
// condition, which has no severity: conversion-gen's autoConvert_ leaves it
// out, and asks for this function.
func Convert_v1alpha1_Condition_To_v1_Condition(in *Condition, out *metav1.Condition, s conversion.Scope) error { //nolint:revive // conversion-gen's naming
	return autoConvert_v1alpha1_Condition_To_v1_Condition(in, out, s)
}

// Convert_v1_Condition_To_v1alpha1_Condition converts from metav1's
// condition, dropping what v1alpha1 lacks.
func Convert_v1_Condition_To_v1alpha1_Condition(in *metav1.Condition, out *Condition, s conversion.Scope) error { //nolint:revive // conversion-gen's naming
	return autoConvert_v1_Condition_To_v1alpha1_Condition(in, out, s)
}

// Convert_v1_ObjectMeta_To_v1alpha1_ObjectMeta keeps only labels and
// annotations of metav1's metadata.
func Convert_v1_ObjectMeta_To_v1alpha1_ObjectMeta(in *metav1.ObjectMeta, out *ObjectMeta, s conversion.Scope) error { //nolint:revive // conversion-gen's naming
	return autoConvert_v1_ObjectMeta_To_v1alpha1_ObjectMeta(in, out, s)
}

// Convert_v1alpha1_Stamp_To_common_Stamp converts a stamp by hand.
func Convert_v1alpha1_Stamp_To_common_Stamp(in *Stamp, out *common.Stamp, _ conversion.Scope) error { //nolint:revive // conversion-gen's naming
	out.Label = in.Label
	return nil
}

// Convert_common_Stamp_To_v1alpha1_Stamp converts a stamp by hand.
func Convert_common_Stamp_To_v1alpha1_Stamp(in *common.Stamp, out *Stamp, _ conversion.Scope) error { //nolint:revive // conversion-gen's naming
	out.Label = in.Label
	return nil
}
