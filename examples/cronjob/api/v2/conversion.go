package v2

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/conversion"

	v1 "github.com/crdforge/crdforge/examples/cronjob/api/v1"
)

// Convert_v2_CronJobSpec_To_v1_CronJobSpec joins the five schedule fields
// into v1's cron string, with single spaces; a field left out becomes "*".
// crdforge generates the rest of the conversion. (ConvertTo stashes the v2
// schedule when a left-out field would come back as "*", and ConvertFrom
// restores it.)
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which crdforge finds this hand-written conversion and its generated code calls it.
func Convert_v2_CronJobSpec_To_v1_CronJobSpec(in *CronJobSpec, out *v1.CronJobSpec, s conversion.Scope) error {
	if err := autoConvert_v2_CronJobSpec_To_v1_CronJobSpec(in, out, s); err != nil {
		return err
	}
	sched := &in.Schedule
	fields := [...]*CronField{sched.Minute, sched.Hour, sched.DayOfMonth, sched.Month, sched.DayOfWeek}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = "*"
		if f != nil {
			parts[i] = string(*f)
		}
	}
	out.Schedule = strings.Join(parts, " ")
	return nil
}

// Convert_v1_CronJobSpec_To_v2_CronJobSpec splits v1's cron string on
// whitespace into the five schedule fields, and fails unless there are
// exactly five.
//
//nolint:revive // var-naming: the name is conversion-gen's convention, by which crdforge finds this hand-written conversion and its generated code calls it.
func Convert_v1_CronJobSpec_To_v2_CronJobSpec(in *v1.CronJobSpec, out *CronJobSpec, s conversion.Scope) error {
	if err := autoConvert_v1_CronJobSpec_To_v2_CronJobSpec(in, out, s); err != nil {
		return err
	}
	parts := strings.Fields(in.Schedule)
	if len(parts) != 5 {
		return fmt.Errorf("schedule %q has %d fields, want 5 (minute, hour, day of month, month, day of week)", in.Schedule, len(parts))
	}
	field := func(i int) *CronField {
		f := CronField(parts[i])
		return &f
	}
	out.Schedule = CronSchedule{
		Minute:     field(0),
		Hour:       field(1),
		DayOfMonth: field(2),
		Month:      field(3),
		DayOfWeek:  field(4),
	}
	return nil
}
