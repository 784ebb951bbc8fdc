package v1beta1

import (
	v1 "github.com/crdforge/crdforge/testdata/apidocs/api/v1"
	"k8s.io/apimachinery/pkg/conversion"
)

// Convert_v1beta1_GizmoSpec_To_v1_GizmoSpec unwraps the schedule, which
// the generated autoConvert_ leaves to it.
func Convert_v1beta1_GizmoSpec_To_v1_GizmoSpec(in *GizmoSpec, out *v1.GizmoSpec, s conversion.Scope) error {
	if err := autoConvert_v1beta1_GizmoSpec_To_v1_GizmoSpec(in, out, s); err != nil {
		return err
	}
	out.Schedule = ""
	if in.Schedule != nil {
		out.Schedule = in.Schedule.Cron
	}
	return nil
}

// Convert_v1_GizmoSpec_To_v1beta1_GizmoSpec wraps the schedule.
func Convert_v1_GizmoSpec_To_v1beta1_GizmoSpec(in *v1.GizmoSpec, out *GizmoSpec, s conversion.Scope) error {
	if err := autoConvert_v1_GizmoSpec_To_v1beta1_GizmoSpec(in, out, s); err != nil {
		return err
	}
	out.Schedule = nil
	if in.Schedule != "" {
		out.Schedule = &Schedule{Cron: in.Schedule}
	}
	return nil
}
