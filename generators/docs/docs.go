// Package docs writes an API reference in Markdown, one page per API group:
// for each kind, a diagram of its versions, a version map that follows
// every field through the versions as the conversion plan does (renamed,
// moved, stashed, narrowed, converted by hand, absent), and a table of each
// version's fields from the schema the CRD carries. Readers write YAML
// against one version; the map tells them what becomes of it in the others.
package docs

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// Generator writes the pages into Dir.
type Generator struct {
	// Dir is where the pages go, relative to the model's directory or
	// absolute. Empty writes nothing: a run writes docs only when asked
	// (pipeline.Config.DocsDir).
	Dir string
}

// Name is the generator's name for --only.
func (Generator) Name() string { return "docs" }

// Needs is the conversion plan: the version map reads every type pair, how
// each field converts, what each direction lacks, and the guards of
// narrowings, which only a full plan settles.
func (Generator) Needs() model.Options { return model.Options{Conversions: true} }

// Owns is the pages in Dir, so that a group's page goes when the group does;
// only pages that start with crdforge's header are ever deleted.
func (g Generator) Owns(*model.Model) []string {
	if g.Dir == "" {
		return nil
	}
	return []string{filepath.Join(g.Dir, "*.md")}
}

// Generate returns one page per group, <group>.md.
func (g Generator) Generate(m *model.Model, _ *diag.List) []output.File {
	if g.Dir == "" {
		return nil
	}
	var files []output.File
	for _, grp := range m.Groups {
		files = append(files, output.File{Path: filepath.Join(g.Dir, grp.Name+".md"), Content: []byte(Page(grp))})
	}
	return files
}

// Page is the reference page of one group.
func Page(grp *model.Group) string {
	var b strings.Builder
	b.WriteString(output.MarkdownHeader + "\n\n")
	fmt.Fprintf(&b, "# %s API reference\n\n", grp.Name)
	b.WriteString(legend)
	for _, k := range grp.Kinds {
		fmt.Fprintf(&b, "- [%s](#%s)\n", k.Name, anchor(k.Name))
	}
	for _, k := range grp.Kinds {
		kindSection(&b, k)
	}
	return b.String()
}

// legend says once per page how to read a version map's cells.
const legend = "Each kind lists its versions, highest priority first. In a version map, a row is one field and a column one version;\n" +
	"a cell is the field's path in that version, or `stashed` (that version has no place for it: crdforge's conversion keeps the value\n" +
	"in an annotation and restores it on the way back), `hand-written` and the `Convert_` function that converts it,\n" +
	"`narrowed:` and what the storage version accepts of a value written there (a conversion fails on anything else),\n" +
	"or — (absent, and nothing keeps it). Where crdforge generates a version's `ConvertTo` and `ConvertFrom`, whatever a\n" +
	"hand-written `Convert_` does not carry over is stashed too.\n\n"

// kindSection prints one kind: what it is, its versions' diagram and map,
// and each version's fields.
func kindSection(b *strings.Builder, k *model.Kind) {
	fmt.Fprintf(b, "\n## %s\n\n", k.Name)
	if k.CRD != nil {
		fmt.Fprintf(b, "`%s`, %s.", k.CRD.Name, strings.ToLower(string(k.CRD.Spec.Scope)))
	}
	var versions []string
	for _, v := range k.Versions {
		versions = append(versions, fmt.Sprintf("[%s](#%s) (%s)", v.Name, anchor(k.Name+" "+v.Name), strings.Join(roles(v), ", ")))
	}
	fmt.Fprintf(b, " Versions: %s.\n", strings.Join(versions, ", "))
	if rows := VersionMap(k); rows != nil {
		fmt.Fprintf(b, "\n### %s versions\n\n", k.Name)
		diagram(b, k)
		b.WriteString("\n")
		versionTable(b, k, rows)
	}
	for _, v := range k.Versions {
		fmt.Fprintf(b, "\n### %s %s\n\n", k.Name, v.Name)
		if v.DeprecationWarning != nil {
			fmt.Fprintf(b, "Deprecated: %s\n\n", escape(*v.DeprecationWarning))
		} else if v.Deprecated {
			b.WriteString("Deprecated.\n\n")
		}
		fieldTable(b, k, v)
	}
}

// versionTable prints a version map.
func versionTable(b *strings.Builder, k *model.Kind, rows []Row) {
	var head, rule []string
	for _, v := range k.Versions {
		name := v.Name
		if v == k.Hub {
			name += " (hub)"
		}
		head, rule = append(head, name), append(rule, "---")
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n")
	b.WriteString("| " + strings.Join(rule, " | ") + " |\n")
	for _, r := range rows {
		cells := make([]string, len(r.Cells))
		for i, c := range r.Cells {
			cells[i] = c.String()
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
}
