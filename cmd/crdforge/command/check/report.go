package check

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Formats are the output formats of Write.
var Formats = []string{"text", "json", "markdown", "sarif"}

// where renders a finding's position relative to dir, or "" without one.
func (f Finding) where(dir string) string {
	if !f.Pos.IsValid() {
		return ""
	}
	name := f.Pos.Filename
	if filepath.IsAbs(name) {
		if r, err := filepath.Rel(dir, name); err == nil {
			name = r
		}
	}
	return fmt.Sprintf("%s:%d:%d", filepath.ToSlash(name), f.Pos.Line, f.Pos.Column)
}

// subject says which CRD, version and property a finding is about.
func (f Finding) subject() string {
	s := f.CRD
	if f.Version != "" {
		s += " " + f.Version
	}
	if f.Path != "" {
		s += " " + f.Path
	}
	return s
}

// Write renders r in format, positions relative to dir. baseline names what
// the working tree was compared with.
func Write(w io.Writer, format string, r *Result, dir, baseline string) error {
	switch format {
	case "text", "":
		return writeText(w, r, dir, baseline)
	case "json":
		return writeJSON(w, r, dir, baseline)
	case "markdown":
		return writeMarkdown(w, r, dir, baseline)
	case "sarif":
		return writeSARIF(w, r, dir)
	}
	return fmt.Errorf("unknown output format %q (want %s)", format, strings.Join(Formats, ", "))
}

func summary(r *Result) string {
	e, w, i := r.Counts()
	s := fmt.Sprintf("%d breaking (error), %d warning(s), %d informational", e, w, i)
	if r.Objects != nil {
		s += fmt.Sprintf("; %d of %d stored object(s) refused", r.Objects.refusedCount(), r.Objects.Checked)
	}
	return s
}

func writeText(w io.Writer, r *Result, dir, baseline string) error {
	var b strings.Builder
	for _, f := range r.Findings {
		if where := f.where(dir); where != "" {
			b.WriteString(where + ": ")
		}
		fmt.Fprintf(&b, "%s: %s: %s: %s\n", f.Severity, f.Rule, f.subject(), f.Message)
	}
	if r.Objects != nil {
		writeObjectsText(&b, r.Objects)
	}
	fmt.Fprintf(&b, "crdforge check against %s: %s\n", baseline, summary(r))
	_, err := io.WriteString(w, b.String())
	return err
}

type jsonFinding struct {
	Finding
	Position string `json:"position,omitempty"`
	Baseline bool   `json:"inBaseline,omitempty"`
}

func writeJSON(w io.Writer, r *Result, dir, baseline string) error {
	e, wn, i := r.Counts()
	out := struct {
		Baseline string        `json:"baseline"`
		Errors   int           `json:"errors"`
		Warnings int           `json:"warnings"`
		Infos    int           `json:"infos"`
		Findings []jsonFinding `json:"findings"`
		Objects  *Objects      `json:"objects,omitempty"`
	}{Baseline: baseline, Errors: e, Warnings: wn, Infos: i, Findings: []jsonFinding{}, Objects: r.Objects}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, jsonFinding{Finding: f, Position: f.where(dir), Baseline: f.Baseline})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// writeMarkdown renders a pull-request comment.
func writeMarkdown(w io.Writer, r *Result, dir, baseline string) error {
	var b strings.Builder
	e, _, _ := r.Counts()
	title := "No breaking API change"
	if e > 0 {
		title = fmt.Sprintf("%d breaking API change(s)", e)
	}
	fmt.Fprintf(&b, "### crdforge check: %s\n\nAgainst `%s`: %s.\n", title, baseline, summary(r))
	if len(r.Findings) > 0 {
		b.WriteString("\n| | Rule | Where | Change |\n| --- | --- | --- | --- |\n")
		icon := map[Enforcement]string{Error: "❌ error", Warn: "⚠️ warning", Info: "ℹ️ info"}
		for _, f := range r.Findings {
			where := "`" + f.subject() + "`"
			if p := f.where(dir); p != "" {
				where += "<br>" + p
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", icon[f.Severity], f.Rule, cell(where), cell(f.Message))
		}
	}
	if r.Objects != nil && len(r.Objects.Refused) > 0 {
		b.WriteString("\nStored objects the new CRDs refuse:\n\n| CRD | Version | Object | Field | Reason |\n| --- | --- | --- | --- | --- |\n")
		for _, o := range r.Objects.Refused {
			fmt.Fprintf(&b, "| `%s` | %s | `%s` | `%s` | %s |\n", o.CRD, o.Version, o.Object(), o.Field, cell(o.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes s fit in one Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "<br>")
}

// writeSARIF renders SARIF 2.1.0 for code scanning. Findings in the working
// tree carry their file and line; those only the baseline has (a removed
// field) carry the CRD path as a logical location.
func writeSARIF(w io.Writer, r *Result, dir string) error {
	type (
		text struct {
			Text string `json:"text"`
		}
		artifact struct {
			URI string `json:"uri"`
		}
		physical struct {
			ArtifactLocation artifact `json:"artifactLocation"`
			Region           struct {
				StartLine   int `json:"startLine"`
				StartColumn int `json:"startColumn"`
			} `json:"region"`
		}
		logical struct {
			FullyQualifiedName string `json:"fullyQualifiedName"`
			Kind               string `json:"kind"`
		}
		location struct {
			PhysicalLocation *physical `json:"physicalLocation,omitempty"`
			LogicalLocations []logical `json:"logicalLocations,omitempty"`
		}
		result struct {
			RuleID    string     `json:"ruleId"`
			Level     string     `json:"level"`
			Message   text       `json:"message"`
			Locations []location `json:"locations"`
		}
		rule struct {
			ID                   string `json:"id"`
			ShortDescription     text   `json:"shortDescription"`
			DefaultConfiguration struct {
				Level string `json:"level"`
			} `json:"defaultConfiguration"`
		}
	)
	level := map[Enforcement]string{Error: "error", Warn: "warning", Info: "note", Off: "none"}
	var rules []rule
	for _, ru := range Rules {
		x := rule{ID: ru.Name, ShortDescription: text{ru.Doc}}
		x.DefaultConfiguration.Level = level[ru.Default]
		rules = append(rules, x)
	}
	results := []result{}
	for _, f := range r.Findings {
		loc := location{LogicalLocations: []logical{{FullyQualifiedName: f.subject(), Kind: "member"}}}
		if f.Pos.IsValid() && !f.Baseline {
			p := &physical{ArtifactLocation: artifact{URI: filepath.ToSlash(relTo(dir, f.Pos.Filename))}}
			p.Region.StartLine, p.Region.StartColumn = f.Pos.Line, f.Pos.Column
			loc.PhysicalLocation = p
		}
		results = append(results, result{RuleID: f.Rule, Level: level[f.Severity], Message: text{f.subject() + ": " + f.Message}, Locations: []location{loc}})
	}
	if r.Objects != nil {
		x := rule{ID: storedObjectRule, ShortDescription: text{"a stored object the new CRD's schema refuses where the cluster's accepts it"}}
		x.DefaultConfiguration.Level = "error"
		rules = append(rules, x)
		for _, o := range r.Objects.Refused {
			loc := location{LogicalLocations: []logical{{FullyQualifiedName: o.CRD + " " + o.Version + " " + o.Object() + " " + o.Field, Kind: "object"}}}
			results = append(results, result{RuleID: storedObjectRule, Level: "error", Message: text{o.Object() + ": " + o.Field + ": " + o.Message}, Locations: []location{loc}})
		}
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "crdforge check", "informationUri": "https://github.com/crdforge/crdforge#crdforge-check", "rules": rules,
			}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// storedObjectRule is the SARIF rule of a stored object refused.
const storedObjectRule = "storedObjectRefused"

// writeObjectsText writes each refused object's field as
// namespace/name: field: reason, under its CRD and version.
func writeObjectsText(b *strings.Builder, o *Objects) {
	last := ""
	for _, r := range o.Refused {
		if head := r.CRD + " " + r.Version; head != last {
			fmt.Fprintf(b, "stored objects of %s %s the new schema refuses:\n", r.CRD, r.Version)
			last = head
		}
		fmt.Fprintf(b, "  %s: %s: %s\n", r.Object(), r.Field, r.Message)
	}
}

func relTo(dir, name string) string {
	if r, err := filepath.Rel(dir, name); err == nil && filepath.IsAbs(name) {
		return r
	}
	return name
}
