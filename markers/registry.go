// Package markers is the only code in crdforge that touches controller-tools'
// marker registry. It defines crdforge's own +crdforge: markers, registers
// controller-gen's kubebuilder vocabulary next to them, and collects both from
// source with the position of every marker comment.
//
// Its Go API carries no compatibility promise before v1 (ARCHITECTURE.md):
// crdforge's binary is the product.
package markers

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"text/tabwriter"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/controller-tools/pkg/rbac"
	"sigs.k8s.io/controller-tools/pkg/webhook"
)

// Registries holds the two marker vocabularies crdforge understands.
type Registries struct {
	// Kubebuilder holds controller-gen's markers for CRDs and deepcopy, exactly
	// as controller-gen defines them. controller-tools' collector parses these.
	Kubebuilder *ctmarkers.Registry
	// Crdforge holds crdforge's own +crdforge: markers. Only this package's
	// Collect parses these, so that each value keeps its position.
	Crdforge *ctmarkers.Registry
}

// NewRegistries builds both registries. Each call returns fresh registries:
// there is no global state.
func NewRegistries() (*Registries, error) {
	kb := &ctmarkers.Registry{}
	if err := registerKubebuilder(kb); err != nil {
		return nil, err
	}

	own := &ctmarkers.Registry{}
	for _, def := range crdforgeDefinitions() {
		if err := own.Register(def); err != nil {
			return nil, fmt.Errorf("registering %s: %w", def.Name, err)
		}
		if h, ok := reflect.New(def.Output).Elem().Interface().(interface {
			Help() *ctmarkers.DefinitionHelp
		}); ok {
			own.AddHelp(def, h.Help())
		}
	}
	return &Registries{Kubebuilder: kb, Crdforge: own}, nil
}

// registerKubebuilder registers controller-gen's CRD and object markers.
func registerKubebuilder(reg *ctmarkers.Registry) error {
	if err := (crd.Generator{}).RegisterMarkers(reg); err != nil {
		return fmt.Errorf("registering controller-gen's CRD markers: %w", err)
	}
	if err := (deepcopy.Generator{}).RegisterMarkers(reg); err != nil {
		return fmt.Errorf("registering controller-gen's object markers: %w", err)
	}
	if err := (rbac.Generator{}).RegisterMarkers(reg); err != nil {
		return fmt.Errorf("registering controller-gen's rbac markers: %w", err)
	}
	if err := (webhook.Generator{}).RegisterMarkers(reg); err != nil {
		return fmt.Errorf("registering controller-gen's webhook markers: %w", err)
	}
	return nil
}

// PrintHelp writes the reference of every marker crdforge understands,
// crdforge's own first, then controller-gen's by category: with detailed,
// each marker's targets, help, arguments and example; without, a line per
// marker. The text comes from Reference, as docs/markers.md's does, never
// from a hand-written list.
func (r *Registries) PrintHelp(out io.Writer, detailed bool) error {
	cats, err := r.Reference()
	if err != nil {
		return err
	}
	var b strings.Builder
	for i, cat := range cats {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(cat.Name + "\n\n")
		if !detailed {
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for _, d := range cat.Markers {
				// tw buffers until Flush, whose error is the one checked.
				_, _ = fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Syntax(), strings.Join(d.Targets(), ", "), d.Uses[0].Summary)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			continue
		}
		for _, d := range cat.Markers {
			writeDetails(&b, d)
		}
	}
	_, err = io.WriteString(out, b.String())
	return err
}

// writeDetails writes one marker's whole reference, indented under its
// syntax line.
func writeDetails(b *strings.Builder, d Doc) {
	b.WriteString(d.Syntax() + "\n")
	for _, u := range d.Uses {
		b.WriteString("\ton " + strings.Join(u.Targets, ", ") + ": " + u.Summary + "\n")
		if u.Deprecated != "" {
			b.WriteString("\t(" + u.Deprecated + ")\n")
		}
		writeIndented(b, "\t", u.Details)
	}
	for _, a := range d.Args {
		name := a.Name
		if name == "" {
			name = "=<value>"
		}
		attrs := []string{a.Type}
		if a.Optional {
			attrs = append(attrs, "optional")
		}
		if a.Default != "" {
			attrs = append(attrs, "default: "+a.Default)
		}
		b.WriteString("\t" + name + " (" + strings.Join(attrs, "; ") + ")\n")
		writeIndented(b, "\t\t", strings.TrimSpace(a.Summary+"\n"+a.Details))
	}
	if d.Example != "" {
		b.WriteString("\texample: " + d.Example + "\n")
	}
	b.WriteString("\n")
}

// writeIndented writes text, if any, a line at a time after indent.
func writeIndented(b *strings.Builder, indent, text string) {
	if text == "" {
		return
	}
	for line := range strings.Lines(text + "\n") {
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString(indent + line)
	}
}
