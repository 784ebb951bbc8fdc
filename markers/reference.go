package markers

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// Category is one group of markers in the reference, as `crdforge markers`
// prints it and docs/markers.md shows it.
type Category struct {
	Name    string
	Markers []Doc
}

// Doc is the reference of one marker: everything `crdforge markers` prints
// and docs/markers.md shows about it, so that the two cannot disagree.
type Doc struct {
	// Name is the marker's name as written after the '+'.
	Name string
	// Uses says where the marker goes and what it does there: one Use,
	// unless it means something else on a package than on a field (as
	// +kubebuilder:validation:Required does).
	Uses []Use
	// Args are the marker's arguments, in the order of its Go type's fields.
	Args []Arg
	// Example is a whole marker line, '+' included, that the marker's own
	// definition parses (a test makes sure).
	Example string
}

// Use is what a marker does on some targets.
type Use struct {
	Targets          []string // package, type, field: in that order
	Summary, Details string
	// Deprecated is empty, or says that the marker is deprecated on these
	// targets and, when controller-tools names one, which marker to use
	// instead (+kubebuilder:validation:Required is, on a field only).
	Deprecated string
}

// Arg is one argument of a marker.
type Arg struct {
	// Name is empty for a marker that takes a single value (+name=value).
	Name     string
	Type     string
	Optional bool
	// Default says what an optional argument left out means; empty when
	// leaving it out means nothing is set.
	Default          string
	Summary, Details string
}

// Syntax is the marker written with its arguments' types, as controller-gen
// prints it: +name:arg=<type>[,optional=<type>].
func (d Doc) Syntax() string {
	var b strings.Builder
	b.WriteString("+" + d.Name)
	for i, a := range d.Args {
		var part string
		switch {
		case a.Name == "":
			part = "=<" + a.Type + ">"
		case i == 0:
			part = ":" + a.Name + "=<" + a.Type + ">"
		default:
			part = "," + a.Name + "=<" + a.Type + ">"
		}
		if a.Optional {
			part = "[" + part + "]"
		}
		b.WriteString(part)
	}
	return b.String()
}

// Targets lists every target of the marker, package, type, field, in that
// order.
func (d Doc) Targets() []string {
	var all []string
	for _, u := range d.Uses {
		all = append(all, u.Targets...)
	}
	return sortTargets(all)
}

// Reference returns the reference of every marker crdforge understands:
// crdforge's own first, in the order crdforgeDefinitions lists them, then
// controller-gen's by category and name. Definitions of one name (one per
// target) make one Doc.
func (r *Registries) Reference() ([]Category, error) {
	own, err := docs(r.Crdforge, definitionOrder(crdforgeDefinitions()))
	if err != nil {
		return nil, err
	}
	cats := []Category{{Name: "crdforge", Markers: own}}
	kb, err := docs(r.Kubebuilder, nil)
	if err != nil {
		return nil, err
	}
	byCat := map[string][]Doc{}
	var names []string
	for _, d := range kb {
		cat := r.category(d.Name)
		if _, ok := byCat[cat]; !ok {
			names = append(names, cat)
		}
		byCat[cat] = append(byCat[cat], d)
	}
	slices.Sort(names)
	for _, n := range names {
		cats = append(cats, Category{Name: n, Markers: byCat[n]})
	}
	return cats, nil
}

// category is the help category of the kubebuilder marker name: that of the
// first of its definitions that has one (+k8s:enum on a field has no help of
// its own, on a type it has).
func (r *Registries) category(name string) string {
	for _, def := range r.Kubebuilder.AllDefinitions() {
		if h := r.Kubebuilder.HelpFor(def); def.Name == name && h != nil && h.Category != "" {
			return h.Category
		}
	}
	return "other"
}

// definitionOrder maps each marker name of defs to its place in defs.
func definitionOrder(defs []*ctmarkers.Definition) map[string]int {
	order := map[string]int{}
	for _, def := range defs {
		if _, ok := order[def.Name]; !ok {
			order[def.Name] = len(order)
		}
	}
	return order
}

// docs makes one Doc per marker name of reg, sorted by order (names it
// lacks after the others, by name).
func docs(reg *ctmarkers.Registry, order map[string]int) ([]Doc, error) {
	byName := map[string][]*ctmarkers.Definition{}
	for _, def := range reg.AllDefinitions() {
		byName[def.Name] = append(byName[def.Name], def)
	}
	var out []Doc
	for name, defs := range byName {
		d, err := doc(reg, name, defs)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Doc) int {
		oa, okA := order[a.Name]
		ob, okB := order[b.Name]
		switch {
		case okA && okB:
			return oa - ob
		case okA != okB:
			if okA {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// doc makes the Doc of the marker name from its definitions, one per target.
// They must take the same arguments: the reference shows one list.
func doc(reg *ctmarkers.Registry, name string, defs []*ctmarkers.Definition) (Doc, error) {
	slices.SortFunc(defs, func(a, b *ctmarkers.Definition) int { return int(a.Target) - int(b.Target) })
	d := Doc{Name: name, Example: exampleOf(name)}
	for _, def := range defs {
		help := reg.HelpFor(def)
		if help == nil {
			help = &ctmarkers.DefinitionHelp{}
		}
		d.addUse(def.Target.String(), Use{Summary: help.Summary, Details: help.Details, Deprecated: deprecation(help)})
		args := argsOf(def, help)
		if def == defs[0] {
			d.Args = args
		} else if !reflect.DeepEqual(args, d.Args) {
			return Doc{}, fmt.Errorf("marker +%s takes other arguments on a %s than on a %s", name, def.Target, defs[0].Target)
		}
	}
	d.mergeUsesWithoutHelp()
	return d, nil
}

// deprecation says whether help deprecates its marker, and for which.
func deprecation(help *ctmarkers.DefinitionHelp) string {
	switch {
	case help.DeprecatedInFavorOf == nil:
		return ""
	case *help.DeprecatedInFavorOf == "":
		return "deprecated"
	}
	return "deprecated; use +" + *help.DeprecatedInFavorOf
}

// addUse adds target to the Use with the same help, or starts one from use.
func (d *Doc) addUse(target string, use Use) {
	use.Summary, use.Details = wholeSentence(use.Summary, use.Details)
	for i, u := range d.Uses {
		if u.Summary == use.Summary && u.Details == use.Details && u.Deprecated == use.Deprecated {
			d.Uses[i].Targets = append(d.Uses[i].Targets, target)
			return
		}
	}
	use.Targets = []string{target}
	d.Uses = append(d.Uses, use)
}

// mergeUsesWithoutHelp folds the targets of a Use without help into the
// first Use that has some: controller-tools registers some markers on a
// second target without help of their own (+k8s:enum on a field), and the
// marker means the same there.
func (d *Doc) mergeUsesWithoutHelp() {
	var kept []Use
	var orphans []string
	for _, u := range d.Uses {
		if u.Summary == "" && u.Details == "" && u.Deprecated == "" {
			orphans = append(orphans, u.Targets...)
			continue
		}
		kept = append(kept, u)
	}
	if len(kept) == 0 {
		return
	}
	kept[0].Targets = sortTargets(append(kept[0].Targets, orphans...))
	d.Uses = kept
}

// argsOf lists the arguments of def in the order of its Go type's fields,
// with their help and defaults.
func argsOf(def *ctmarkers.Definition, help *ctmarkers.DefinitionHelp) []Arg {
	fieldHelp := help.FieldsHelp(def)
	var args []Arg
	for argName := range def.FieldNames {
		a := def.Fields[argName]
		h := fieldHelp[argName]
		h.Summary, h.Details = wholeSentence(h.Summary, h.Details)
		args = append(args, Arg{
			Name: argName, Type: typeString(a), Optional: a.Optional,
			Default: defaultOf(def.Name, argName), Summary: h.Summary, Details: h.Details,
		})
	}
	index := func(a Arg) int {
		if def.Output.Kind() != reflect.Struct {
			return 0
		}
		f, _ := def.Output.FieldByName(def.FieldNames[a.Name])
		return f.Index[0]
	}
	slices.SortFunc(args, func(a, b Arg) int { return index(a) - index(b) })
	return args
}

// typeString names an argument's type as a marker's user writes it:
// controller-tools' help has no name for a number (float64).
func typeString(a ctmarkers.Argument) string {
	switch a.Type {
	case ctmarkers.IntType:
		return "int"
	case ctmarkers.NumberType:
		return "number"
	case ctmarkers.StringType:
		return "string"
	case ctmarkers.BoolType:
		return "bool"
	case ctmarkers.AnyType:
		return "any"
	case ctmarkers.SliceType:
		return "[]" + typeString(*a.ItemType)
	case ctmarkers.MapType:
		return "map[string]" + typeString(*a.ItemType)
	case ctmarkers.RawType:
		return "raw"
	}
	return "invalid"
}

// sortTargets orders targets from the widest to the narrowest: package,
// type, field.
func sortTargets(targets []string) []string {
	rank := map[string]int{"package": 0, "type": 1, "field": 2}
	slices.SortStableFunc(targets, func(a, b string) int { return rank[a] - rank[b] })
	return slices.Compact(targets)
}

// wholeSentence mends a summary that helpgen cut at the first line break of
// a doc comment whose first sentence goes on ("specifies the type of
// data-structure that the list" + "represents (map, set, atomic)."): the
// rest of the sentence, up to the details' first blank line, joins it.
func wholeSentence(summary, details string) (string, string) {
	if summary == "" || details == "" || strings.HasSuffix(summary, ".") || strings.HasSuffix(summary, ":") {
		return summary, details
	}
	first, rest, _ := strings.Cut(details, "\n\n")
	return summary + " " + strings.Join(strings.Fields(first), " "), strings.TrimLeft(rest, "\n")
}
