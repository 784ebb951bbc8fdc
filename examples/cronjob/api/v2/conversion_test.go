package v2

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/randfill"

	v1 "github.com/crdforge/crdforge/examples/cronjob/api/v1"
	"github.com/crdforge/crdforge/runtime/lossless"
)

// conversionFillFuncs makes the generated round-trip tests use schedules the
// hand-written conversions accept, which are also the ones the CRD's
// validation admits: a v1 schedule is five fields separated by single
// spaces, and a v2 field is never empty and holds no whitespace (a field
// with a space in it would split into two, and an empty one would vanish).
//
// It also keeps job templates small: labels, parallelism, completions and a
// pod template with one container. Both versions hold the same
// batchv1.JobTemplateSpec, which the generated conversions copy whole with
// DeepCopyInto, so a random pod spec finds no conversion bug that a small
// template would not; but filling, copying, stashing and comparing whole
// random pod specs (hundreds of fields, down to the resource quantities of
// every container) made the 2 x 10000 round trips take over 20 s instead of
// under 2 s.
func conversionFillFuncs() []any {
	return []any{
		func(jt *batchv1.JobTemplateSpec, c randfill.Continue) {
			*jt = batchv1.JobTemplateSpec{}
			c.Fill(&jt.Labels)
			c.Fill(&jt.Spec.Parallelism)
			c.Fill(&jt.Spec.Completions)
			c.Fill(&jt.Spec.Template.Labels)
			jt.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
			jt.Spec.Template.Spec.Containers = []corev1.Container{{
				Name:  "job",
				Image: "busybox:1." + strconv.Itoa(c.Intn(40)),
			}}
		},
		func(spec *v1.CronJobSpec, c randfill.Continue) {
			c.FillNoCustom(spec)
			fields := make([]string, 5)
			for i := range fields {
				fields[i] = cronField(c)
			}
			spec.Schedule = strings.Join(fields, " ")
		},
		// A *CronField is still nil with the usual chance: conversiontest
		// derives that from this function.
		func(f *CronField, c randfill.Continue) {
			*f = CronField(cronField(c))
		},
	}
}

// cronField is a random cron field: one to eight printable ASCII characters
// other than space, mostly the ones cron uses.
func cronField(c randfill.Continue) string {
	const (
		cron      = "0123456789*/,-"
		printable = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
	)
	chars := cron
	if c.Intn(4) == 0 {
		chars = printable
	}
	b := make([]byte, 1+c.Intn(8))
	for i := range b {
		b[i] = chars[c.Intn(len(chars))]
	}
	return string(b)
}

// field returns a pointer to a CronField, for literals.
func field(s string) *CronField {
	f := CronField(s)
	return &f
}

// TestScheduleConversion converts schedules through the generated ConvertTo
// and ConvertFrom, as the conversion webhook does.
func TestScheduleConversion(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "cronjob-sample", Namespace: "default"}
	v1Type := metav1.TypeMeta{APIVersion: "batch.tutorial.kubebuilder.io/v1", Kind: "CronJob"}
	v2Type := metav1.TypeMeta{APIVersion: "batch.tutorial.kubebuilder.io/v2", Kind: "CronJob"}

	tests := []struct {
		name string
		v1   string
		v2   CronSchedule
		// fromV1: v1 converts to v2 directly, and back with nothing stashed.
		fromV1 bool
		// fromV2: v2 converts to v1 directly, and back exactly.
		fromV2 bool
		// stashed: converting v2 to v1 stashes the v2 schedule.
		stashed bool
		// wantErr: converting v1 to v2 fails with an error containing it.
		wantErr string
	}{
		{
			name:   "every five minutes",
			v1:     "*/5 * * * *",
			v2:     CronSchedule{Minute: field("*/5"), Hour: field("*"), DayOfMonth: field("*"), Month: field("*"), DayOfWeek: field("*")},
			fromV1: true,
			fromV2: true,
		},
		{
			name:    "nil fields become stars",
			v1:      "30 2 * * *",
			v2:      CronSchedule{Minute: field("30"), Hour: field("2")},
			fromV2:  true,
			stashed: true,
		},
		{
			name:    "four fields",
			v1:      "*/5 * * *",
			wantErr: `schedule "*/5 * * *" has 4 fields`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hub := &v1.CronJob{TypeMeta: v1Type, ObjectMeta: *meta.DeepCopy(), Spec: v1.CronJobSpec{Schedule: tt.v1}}
			spoke := &CronJob{TypeMeta: v2Type, ObjectMeta: *meta.DeepCopy(), Spec: CronJobSpec{Schedule: tt.v2}}

			if tt.wantErr != "" {
				err := (&CronJob{}).ConvertFrom(hub)
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ConvertFrom(%q): err = %v, want one containing %q", tt.v1, err, tt.wantErr)
				}
				return
			}

			if tt.fromV1 {
				var got CronJob
				if err := got.ConvertFrom(hub.DeepCopy()); err != nil {
					t.Fatal(err)
				}
				if !equality.Semantic.DeepEqual(&got, spoke) {
					t.Errorf("v1 %q converted to\n%s\nwant\n%s", tt.v1, toJSON(&got), toJSON(spoke))
				}
				var back v1.CronJob
				if err := got.ConvertTo(&back); err != nil {
					t.Fatal(err)
				}
				if !equality.Semantic.DeepEqual(&back, hub) {
					t.Errorf("v1 %q came back as\n%s", tt.v1, toJSON(&back))
				}
			}

			if tt.fromV2 {
				var got v1.CronJob
				if err := spoke.DeepCopy().ConvertTo(&got); err != nil {
					t.Fatal(err)
				}
				if got.Spec.Schedule != tt.v1 {
					t.Errorf("v2 schedule converted to %q, want %q", got.Spec.Schedule, tt.v1)
				}
				_, stashed := got.Annotations[lossless.Annotation("v2")]
				if stashed != tt.stashed {
					t.Errorf("v2 data stashed: %t, want %t (annotations %v)", stashed, tt.stashed, got.Annotations)
				}
				var back CronJob
				if err := back.ConvertFrom(&got); err != nil {
					t.Fatal(err)
				}
				if !equality.Semantic.DeepEqual(&back, spoke) {
					t.Errorf("v2 schedule came back as\n%s\nwant\n%s", toJSON(&back), toJSON(spoke))
				}
				if len(back.Annotations) != 0 {
					t.Errorf("the stash outlived the round trip: annotations %v", back.Annotations)
				}
			}
		})
	}
}

// toJSON shows an object in failure messages as users know it.
func toJSON(obj any) string {
	b, err := json.Marshal(obj)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
