package main

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/crdforge/crdforge/cmd/crdforge/cli"
)

// commandsHeader is docs/commands.md's hand-written part: the map to the
// conceptual pages, which no command's help holds.
//
//go:embed commands.header.md
var commandsHeader string

// commandsPage renders docs/commands.md from the command tree: a table of
// every command, then a section per command. It walks the tree itself rather
// than through cobra/doc, which would bring go-md2man into the module for man
// pages nobody asked for, and writes flags as tables, not as --help's text.
func commandsPage(root *cobra.Command) ([]byte, error) {
	cmds := walk(root)
	var b strings.Builder
	b.WriteString(generatedNotice)
	b.WriteString("<!-- Edit the commands' help in cmd/crdforge/cli, or cmd/crdforge/cli/docgen/commands.header.md,\n")
	b.WriteString("     then run make generate. -->\n\n")
	b.WriteString(strings.TrimSpace(commandsHeader) + "\n\n")
	b.WriteString("| command | what it does |\n| --- | --- |\n")
	for _, c := range cmds {
		b.WriteString("| [" + code(c.CommandPath()) + "](#" + anchor(c.CommandPath()) + ") | " + cell(c.Short) + " |\n")
	}
	for _, c := range cmds {
		b.WriteString("\n")
		if err := writeCommand(&b, c); err != nil {
			return nil, err
		}
	}
	return []byte(b.String()), nil
}

// walk lists the commands a user can run, depth first in cobra's order
// (sorted by name), with cobra's own help flag set up on each, as --help
// shows it. help is left out, as cobra's usage leaves it out.
func walk(c *cobra.Command) []*cobra.Command {
	c.InitDefaultHelpFlag()
	if !c.HasParent() {
		c.InitDefaultVersionFlag()
	}
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
			out = append(out, walk(sub)...)
		}
	}
	return out
}

// writeCommand writes one command's section: usage, description, examples,
// its conceptual page, then its flags.
func writeCommand(b *strings.Builder, c *cobra.Command) error {
	b.WriteString("## " + code(c.CommandPath()) + "\n\n")
	b.WriteString(escape(c.Short) + "\n\n")
	usage := c.UseLine()
	if c.HasAvailableSubCommands() {
		usage += "\n" + c.CommandPath() + " [command]"
	}
	b.WriteString(fenced("sh", usage))
	if c.Long != "" {
		// Long is laid out for a terminal (aligned lists, indented
		// examples): as text it reads as it does there.
		b.WriteString("\n" + fenced("text", c.Long))
	}
	if c.Example != "" {
		b.WriteString("\nExamples:\n\n" + fenced("sh", dedent(c.Example)))
	}
	if page := c.Annotations[cli.DocsAnnotation]; page != "" {
		b.WriteString("\nMore: [" + page + "](" + page + ")\n")
	}
	if err := writeFlags(b, "Flags", c.NonInheritedFlags()); err != nil {
		return err
	}
	return writeFlags(b, "Inherited flags", c.InheritedFlags())
}

// writeFlags writes a table of the visible flags of fs, in name order.
func writeFlags(b *strings.Builder, heading string, fs *pflag.FlagSet) error {
	var rows []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		short := ""
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			short = code("-" + f.Shorthand)
		}
		def := ""
		if f.DefValue != "" {
			def = code(f.DefValue)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s |", code("--"+f.Name), short, code(f.Value.Type()), def, cell(f.Usage)))
	})
	if len(rows) == 0 {
		return nil
	}
	b.WriteString("\n" + heading + ":\n\n| flag | short | type | default | description |\n| --- | --- | --- | --- | --- |\n")
	b.WriteString(strings.Join(rows, "\n") + "\n")
	return nil
}
