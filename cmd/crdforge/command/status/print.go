package status

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText writes r for people: a table of the versions, the conversion,
// the step and the next command.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (kind %s, group %s)\n", r.CRD, r.Kind, r.Group)
	// The table goes through a strings.Builder, which never fails: only
	// the final write to w can.
	var table strings.Builder
	table.WriteString("VERSION\tSERVED\tSTORAGE\tSTORED\tDEPRECATED\n")
	for _, v := range r.Versions {
		dep := "no"
		if v.Deprecated {
			dep = fmt.Sprintf("yes: %q", v.DeprecationWarning)
		}
		fmt.Fprintf(&table, "%s\t%s\t%s\t%s\t%s\n", v.Name, yesNo(v.Served), yesNo(v.Storage), yesNo(v.Stored), dep)
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	if _, err := io.WriteString(tw, table.String()); err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "status.storedVersions: [%s]\n", strings.Join(r.StoredVersions, " "))
	fmt.Fprintf(&b, "conversion: %s", r.Conversion)
	if r.Webhook != nil {
		if r.Webhook.Answers {
			fmt.Fprintf(&b, ", the webhook answers (%s)", r.Webhook.Detail)
		} else {
			fmt.Fprintf(&b, ", the webhook does NOT answer")
		}
	}
	if m := r.Migration; m != nil {
		fmt.Fprintf(&b, "\nwebhook's storage migration: %s to %s, %d rewritten, %d failed (%s)", m.Phase, m.Storage, m.Rewritten, m.Failed, m.Time.Format("2006-01-02 15:04:05Z07:00"))
		if m.Message != "" {
			fmt.Fprintf(&b, ": %s", m.Message)
		}
	}
	fmt.Fprintf(&b, "\nstep: %s: %s\nnext: %s\n", r.Step.Name, r.Step.Summary, r.Step.Next)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes r as indented JSON.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
