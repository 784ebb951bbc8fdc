package docs

import (
	"fmt"
	"strings"

	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/markers"
)

// diagram prints a Mermaid flowchart of k's versions: a node per version
// saying what it is (hub, storage, served, deprecated), and an edge from
// each spoke to the hub saying what converts between them. GitHub and most
// Markdown renderers draw it; elsewhere it still reads as text.
func diagram(b *strings.Builder, k *model.Kind) {
	b.WriteString("```mermaid\nflowchart LR\n")
	for _, v := range k.Versions {
		fmt.Fprintf(b, "  %s[\"%s<br/>%s\"]\n", nodeID(v), v.Name, strings.Join(roles(v), ", "))
	}
	for _, v := range k.Versions {
		if v != k.Hub && k.Hub != nil {
			fmt.Fprintf(b, "  %s <-->|%q| %s\n", nodeID(v), edgeLabel(k, v), nodeID(k.Hub))
		}
	}
	var deprecated []string
	for _, v := range k.Versions {
		if v.Deprecated {
			deprecated = append(deprecated, nodeID(v))
		}
	}
	if len(deprecated) > 0 {
		b.WriteString("  classDef deprecated stroke-dasharray: 5 5\n")
		fmt.Fprintf(b, "  class %s deprecated\n", strings.Join(deprecated, ","))
	}
	b.WriteString("```\n")
}

// nodeID names a version's node: version names are DNS labels, which
// Mermaid takes as ids once the hyphens (none in Kubernetes' own scheme,
// but allowed) are gone.
func nodeID(v *model.Version) string { return "v_" + strings.ReplaceAll(v.Name, "-", "_") }

// roles says what a version is: hub, storage, served or not, deprecated.
func roles(v *model.Version) []string {
	var out []string
	if v == v.Kind.Hub {
		out = append(out, "hub")
	}
	if v.Storage {
		out = append(out, "storage")
	}
	if v.Served {
		out = append(out, "served")
	} else {
		out = append(out, "not served")
	}
	if v.Deprecated {
		out = append(out, "deprecated")
	}
	return out
}

// edgeLabel says how objects convert between spoke v and the hub.
func edgeLabel(k *model.Kind, v *model.Version) string {
	switch {
	case k.Conversion.Strategy != markers.StrategyWebhook:
		return "strategy None: apiVersion only"
	case k.Internal != nil:
		return "conversion-gen, through the internal hub"
	}
	for _, s := range k.Spokes {
		if s.Version != v {
			continue
		}
		switch {
		case s.ConvertTo != nil || s.ConvertFrom != nil || s.Foreign != nil:
			return "hand-written ConvertTo/ConvertFrom"
		case s.Convertible():
			return "generated"
		}
	}
	return "not converted"
}
