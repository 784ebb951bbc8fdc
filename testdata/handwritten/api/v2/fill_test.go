package v2

import (
	v1 "github.com/crdforge/crdforge/testdata/handwritten/api/v1"
	"sigs.k8s.io/randfill"
)

// conversionFillFuncs gives the round-trip tests the schedules the
// hand-written conversion keeps exactly: two words, minute and hour.
func conversionFillFuncs() []any {
	return []any{
		func(s *CronSchedule, c randfill.Continue) {
			m, h := word(c), word(c)
			s.Minute, s.Hour = &m, &h
		},
		func(s *v1.CronJobSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Schedule = word(c) + " " + word(c)
		},
	}
}

func word(c randfill.Continue) string {
	const digits = "0123456789*/,-"
	b := make([]byte, 1+c.Intn(5))
	for i := range b {
		b[i] = digits[c.Intn(len(digits))]
	}
	return string(b)
}
