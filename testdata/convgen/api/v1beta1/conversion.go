package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/convgen/api/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1beta1_ClusterSpec_To_v1_ClusterSpec handles the renamed field;
// the generated parts do the rest.
func Convert_v1beta1_ClusterSpec_To_v1_ClusterSpec(in *ClusterSpec, out *v1.ClusterSpec, s conversion.Scope) error { //nolint:revive // conversion-gen's naming
	if err := autoConvert_v1beta1_ClusterSpec_To_v1_ClusterSpec(in, out, s); err != nil {
		return err
	}
	return Convert_v1beta1_Zone_To_v1_Zone(&in.Placement, &out.Location, s)
}

// Convert_v1_ClusterSpec_To_v1beta1_ClusterSpec handles the renamed field.
func Convert_v1_ClusterSpec_To_v1beta1_ClusterSpec(in *v1.ClusterSpec, out *ClusterSpec, s conversion.Scope) error { //nolint:revive // conversion-gen's naming
	if err := autoConvert_v1_ClusterSpec_To_v1beta1_ClusterSpec(in, out, s); err != nil {
		return err
	}
	return Convert_v1_Zone_To_v1beta1_Zone(&in.Location, &out.Placement, s)
}

// Convert_v1beta1_Condition_To_v1_Condition converts to metav1's condition.
func Convert_v1beta1_Condition_To_v1_Condition(in *Condition, out *metav1.Condition, _ conversion.Scope) error { //nolint:revive // conversion-gen's naming
	out.Type, out.Status, out.Message = in.Type, metav1.ConditionStatus(in.Status), in.Message
	return nil
}

// Convert_v1_Condition_To_v1beta1_Condition converts from metav1's condition.
func Convert_v1_Condition_To_v1beta1_Condition(in *metav1.Condition, out *Condition, _ conversion.Scope) error { //nolint:revive // conversion-gen's naming
	out.Type, out.Status, out.Message = in.Type, string(in.Status), in.Message
	return nil
}
