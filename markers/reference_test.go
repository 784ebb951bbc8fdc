package markers

import (
	"strings"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

func reference(t *testing.T) (*Registries, []Category) {
	t.Helper()
	regs, err := NewRegistries()
	if err != nil {
		t.Fatal(err)
	}
	cats, err := regs.Reference()
	if err != nil {
		t.Fatal(err)
	}
	return regs, cats
}

// The reference (crdforge markers, docs/markers.md) lists every marker
// either registry defines, on every target it is defined for.
func TestReferenceListsEveryDefinition(t *testing.T) {
	regs, cats := reference(t)
	listed := map[string]bool{}
	for _, cat := range cats {
		for _, d := range cat.Markers {
			for _, target := range d.Targets() {
				listed[d.Name+" "+target] = true
			}
		}
	}
	for _, reg := range []*ctmarkers.Registry{regs.Crdforge, regs.Kubebuilder} {
		for _, def := range reg.AllDefinitions() {
			if !listed[def.Name+" "+def.Target.String()] {
				t.Errorf("+%s on a %s is not in the reference", def.Name, def.Target)
			}
		}
	}
	if cats[0].Name != "crdforge" || cats[0].Markers[0].Name != HubName {
		t.Errorf("the reference does not start with crdforge's markers in their order: %s, %s", cats[0].Name, cats[0].Markers[0].Name)
	}
}

// Every marker has an example, and the example is one its own definition
// parses on each of its targets: a reader can copy it.
func TestEveryMarkerHasAnExampleItsDefinitionParses(t *testing.T) {
	regs, cats := reference(t)
	for _, cat := range cats {
		reg := regs.Kubebuilder
		if cat.Name == "crdforge" {
			reg = regs.Crdforge
		}
		for _, d := range cat.Markers {
			if d.Example == "" {
				t.Errorf("+%s has no example: add one to examples in examples.go", d.Name)
				continue
			}
			for _, target := range d.Targets() {
				def := reg.Lookup(d.Example, targetNamed(target))
				if def == nil || def.Name != d.Name {
					t.Errorf("example %q of +%s does not name it on a %s", d.Example, d.Name, target)
					continue
				}
				if _, err := def.Parse(d.Example); err != nil {
					t.Errorf("example %q of +%s does not parse on a %s: %v", d.Example, d.Name, target, err)
				}
			}
		}
	}
}

func targetNamed(s string) ctmarkers.TargetType {
	switch s {
	case "package":
		return ctmarkers.DescribesPackage
	case "type":
		return ctmarkers.DescribesType
	}
	return ctmarkers.DescribesField
}

// Every default names an optional argument of a marker that exists: a
// renamed argument cannot leave its default behind.
func TestEveryDefaultNamesAnOptionalArgument(t *testing.T) {
	_, cats := reference(t)
	optional := map[string]bool{}
	for _, cat := range cats {
		for _, d := range cat.Markers {
			for _, a := range d.Args {
				if a.Optional {
					optional[d.Name+"."+a.Name] = true
				}
			}
		}
	}
	for key := range argDefaults {
		if !optional[key] {
			t.Errorf("argDefaults has %q, which is no optional marker argument", key)
		}
	}
}

// A summary helpgen cut mid-sentence is whole again; one that ends a
// sentence keeps its details.
func TestWholeSentence(t *testing.T) {
	s, d := wholeSentence("specifies the type of data-structure that the list", "represents (map, set, atomic).\n\nMore.")
	if s != "specifies the type of data-structure that the list represents (map, set, atomic)." || d != "More." {
		t.Errorf("got %q, %q", s, d)
	}
	s, d = wholeSentence("marks this version as deprecated.", "Details.")
	if s != "marks this version as deprecated." || d != "Details." {
		t.Errorf("got %q, %q", s, d)
	}
}

// Arguments come in the order of the marker type's fields, not sorted.
func TestArgumentsInFieldOrder(t *testing.T) {
	_, cats := reference(t)
	for _, d := range cats[0].Markers {
		if d.Name != WebhookName {
			continue
		}
		var names []string
		for _, a := range d.Args {
			names = append(names, a.Name)
		}
		if got := strings.Join(names, ","); got != "serviceName,namespace,path,port" {
			t.Errorf("+crdforge:webhook's arguments: %s", got)
		}
		if d.Syntax() != "+crdforge:webhook[:serviceName=<string>][,namespace=<string>][,path=<string>][,port=<int>]" {
			t.Errorf("syntax: %s", d.Syntax())
		}
	}
}
