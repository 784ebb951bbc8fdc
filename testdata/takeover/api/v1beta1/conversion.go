package v1beta1

import (
	"maps"

	v1beta2 "github.com/crdforge/crdforge/testdata/takeover/api/v1beta2"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/conversion"
	ctrlconversion "sigs.k8s.io/controller-runtime/pkg/conversion"
)

// groupAnnotation keeps, on a v1beta1 Widget, the group of its reference,
// which v1beta1 cannot hold, as Cluster API keeps its conversion data.
const groupAnnotation = "infra.example.com/ref-group"

// ConvertTo converts to the hub. It removes the annotation from src only:
// written against conversion-gen's output, it counts on src and dst sharing
// their ObjectMeta's maps.
func (src *Widget) ConvertTo(dstRaw ctrlconversion.Hub) error {
	dst := dstRaw.(*v1beta2.Widget)
	if err := Convert_v1beta1_Widget_To_v1beta2_Widget(src, dst, nil); err != nil {
		return err
	}
	if group, ok := src.Annotations[groupAnnotation]; ok {
		dst.Spec.Ref.Group = group
		delete(src.Annotations, groupAnnotation)
	}
	return nil
}

// ConvertFrom converts from the hub, keeping what v1beta1 cannot hold in an
// annotation of its own map (the hub's must not change).
func (dst *Widget) ConvertFrom(srcRaw ctrlconversion.Hub) error {
	src := srcRaw.(*v1beta2.Widget)
	if err := Convert_v1beta2_Widget_To_v1beta1_Widget(src, dst, nil); err != nil {
		return err
	}
	if src.Spec.Ref.Group != "" {
		dst.Annotations = maps.Clone(dst.Annotations)
		if dst.Annotations == nil {
			dst.Annotations = map[string]string{}
		}
		dst.Annotations[groupAnnotation] = src.Spec.Ref.Group
	}
	return nil
}

// Convert_v1beta1_WidgetSpec_To_v1beta2_WidgetSpec sets the reference only
// when there is one, as Cluster API's conversions do. conversion-gen's
// autoConvert_ leaves Ref, a pointer on one side and a value on the other,
// to this function; Version it converts, through metav1's function.
func Convert_v1beta1_WidgetSpec_To_v1beta2_WidgetSpec(in *WidgetSpec, out *v1beta2.WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_WidgetSpec_To_v1beta2_WidgetSpec(in, out, s); err != nil {
		return err
	}
	if in.Ref != nil {
		if err := Convert_v1_ObjectReference_To_v1beta2_ObjRef(in.Ref, &out.Ref, s); err != nil {
			return err
		}
	}
	return nil
}

// Convert_v1beta2_WidgetSpec_To_v1beta1_WidgetSpec leaves Ref nil when the
// hub's names nothing, and an empty version unset.
func Convert_v1beta2_WidgetSpec_To_v1beta1_WidgetSpec(in *v1beta2.WidgetSpec, out *WidgetSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta2_WidgetSpec_To_v1beta1_WidgetSpec(in, out, s); err != nil {
		return err
	}
	if in.Ref.Kind != "" || in.Ref.Name != "" {
		out.Ref = &corev1.ObjectReference{}
		if err := Convert_v1beta2_ObjRef_To_v1_ObjectReference(&in.Ref, out.Ref, s); err != nil {
			return err
		}
	}
	if in.Version == "" {
		out.Version = nil
	}
	return nil
}

// Convert_v1_ObjectReference_To_v1beta2_ObjRef converts a core reference.
func Convert_v1_ObjectReference_To_v1beta2_ObjRef(in *corev1.ObjectReference, out *v1beta2.ObjRef, _ conversion.Scope) error {
	out.Kind, out.Name = in.Kind, in.Name
	return nil
}

// Convert_v1beta2_ObjRef_To_v1_ObjectReference converts to a core reference.
func Convert_v1beta2_ObjRef_To_v1_ObjectReference(in *v1beta2.ObjRef, out *corev1.ObjectReference, _ conversion.Scope) error {
	out.Kind, out.Name = in.Kind, in.Name
	return nil
}
