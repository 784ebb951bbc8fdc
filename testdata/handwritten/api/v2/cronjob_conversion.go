package v2

import (
	"fmt"
	"strings"

	v1 "github.com/crdforge/crdforge/testdata/handwritten/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// ConvertTo converts this CronJob to the hub version (v1), as the
// multiversion tutorial writes it.
func (src *CronJob) ConvertTo(dstRaw conversion.Hub) error {
	dst, ok := dstRaw.(*v1.CronJob)
	if !ok {
		return fmt.Errorf("unexpected hub %T", dstRaw)
	}
	dst.ObjectMeta = src.ObjectMeta
	sched := src.Spec.Schedule
	dst.Spec.Schedule = fmt.Sprintf("%s %s", orStar(sched.Minute), orStar(sched.Hour))
	dst.Spec.Suspend = src.Spec.Suspend
	return nil
}

// ConvertFrom converts from the hub version (v1) to this version.
func (dst *CronJob) ConvertFrom(srcRaw conversion.Hub) error {
	src, ok := srcRaw.(*v1.CronJob)
	if !ok {
		return fmt.Errorf("unexpected hub %T", srcRaw)
	}
	dst.ObjectMeta = src.ObjectMeta
	parts := strings.Fields(src.Spec.Schedule)
	if len(parts) == 2 {
		dst.Spec.Schedule.Minute, dst.Spec.Schedule.Hour = &parts[0], &parts[1]
	}
	dst.Spec.Suspend = src.Spec.Suspend
	return nil
}

func orStar(s *string) string {
	if s == nil {
		return "*"
	}
	return *s
}
