package v2

import (
	"strconv"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/conversion"

	batchv1 "example.com/kbproject/api/v1"
)

// What a user writes after crdforge's warnings: the two Convert_ functions
// for the field crdforge cannot convert mechanically, the schedule (a Cron
// string in v1, structured in v2). crdforge's generated conversion does the
// rest, and stashes what one version cannot hold so round trips are exact.
//
// v2 to v1 and back is exact: a missing field is "*", and a field that would
// not read back as one token ("", "*", whitespace, a leading quote) is
// quoted. v1 to v2 loses what is not five such tokens: the stash keeps it.

// Convert_v1_CronJobSpec_To_v2_CronJobSpec reads v1's Cron string into v2's
// fields.
func Convert_v1_CronJobSpec_To_v2_CronJobSpec(in *batchv1.CronJobSpec, out *CronJobSpec, s conversion.Scope) error {
	if err := autoConvert_v1_CronJobSpec_To_v2_CronJobSpec(in, out, s); err != nil {
		return err
	}
	out.Schedule = CronSchedule{}
	var parsed CronSchedule
	rest := in.Schedule
	for _, f := range []**CronField{&parsed.Minute, &parsed.Hour, &parsed.DayOfMonth, &parsed.Month, &parsed.DayOfWeek} {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		var tok string
		switch {
		case rest == "":
			return nil // fewer than five fields: the stash keeps the string
		case rest[0] == '"':
			q, err := strconv.QuotedPrefix(rest)
			if err != nil {
				return nil
			}
			if tok, err = strconv.Unquote(q); err != nil {
				return nil
			}
			rest = rest[len(q):]
			v := CronField(tok)
			*f = &v
			continue
		default:
			end := strings.IndexFunc(rest, unicode.IsSpace)
			if end < 0 {
				end = len(rest)
			}
			tok, rest = rest[:end], rest[end:]
		}
		if tok != "*" {
			v := CronField(tok)
			*f = &v
		}
	}
	if strings.TrimSpace(rest) != "" {
		return nil // more than five fields
	}
	out.Schedule = parsed
	return nil
}

// Convert_v2_CronJobSpec_To_v1_CronJobSpec writes v2's fields as v1's Cron
// string.
func Convert_v2_CronJobSpec_To_v1_CronJobSpec(in *CronJobSpec, out *batchv1.CronJobSpec, s conversion.Scope) error {
	if err := autoConvert_v2_CronJobSpec_To_v1_CronJobSpec(in, out, s); err != nil {
		return err
	}
	parts := make([]string, 0, 5)
	for _, f := range []*CronField{in.Schedule.Minute, in.Schedule.Hour, in.Schedule.DayOfMonth, in.Schedule.Month, in.Schedule.DayOfWeek} {
		switch {
		case f == nil:
			parts = append(parts, "*")
		case *f == "" || *f == "*" || strings.HasPrefix(string(*f), `"`) || strings.IndexFunc(string(*f), unicode.IsSpace) >= 0:
			parts = append(parts, strconv.Quote(string(*f)))
		default:
			parts = append(parts, string(*f))
		}
	}
	out.Schedule = strings.Join(parts, " ")
	return nil
}
