// Package markers is the only code in crdforge that touches controller-tools'
// marker registry. It defines crdforge's own +crdforge: markers, registers
// controller-gen's kubebuilder vocabulary next to them, and collects both from
// source with the position of every marker comment.
package markers

import (
	"fmt"
	"io"
	"reflect"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall/help"
	prettyhelp "sigs.k8s.io/controller-tools/pkg/genall/help/pretty"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
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
	return nil
}

// PrintHelp writes the reference of every marker crdforge understands,
// crdforge's own first, then controller-gen's by category. The text comes from
// the marker definitions and their generated help, never from a hand-written
// list.
func (r *Registries) PrintHelp(out io.Writer, detailed bool) error {
	for _, reg := range []*ctmarkers.Registry{r.Crdforge, r.Kubebuilder} {
		for _, cat := range help.ByCategory(reg, help.SortByCategory) {
			if cat.Category == "" {
				continue
			}
			var span prettyhelp.Span
			if detailed {
				span = prettyhelp.MarkersDetails(true, cat.Category, cat.Markers)
			} else {
				span = prettyhelp.MarkersSummary(cat.Category, cat.Markers)
			}
			if err := span.Write(out); err != nil {
				return err
			}
		}
	}
	return nil
}
