package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// markerCase is one field of WidgetSpec (or a type it uses) whose markers
// change between the baseline and the working tree, the finding that makes,
// and the marker it must point at: want, a marker's text, once in the new
// tree. Sources write ' for a backquote.
type markerCase struct {
	name             string
	oldField, field  string
	oldTypes, types  string
	rule, path, want string
}

var markerCases = []markerCase{
	{name: "enum value removed",
		oldField: "// +kubebuilder:validation:Enum=red;blue\n// +optional\nColor string 'json:\"color,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:Enum=red\nColor string 'json:\"color,omitempty\"'",
		rule:     "enum", path: "^.spec.color", want: "+kubebuilder:validation:Enum=red\n"},
	{name: "enum of a type, value removed: the type's marker",
		oldField: "// +optional\nMode Mode 'json:\"mode,omitempty\"'",
		field:    "// +optional\nMode Mode 'json:\"mode,omitempty\"'",
		oldTypes: "// Mode is how it runs.\n// +kubebuilder:validation:Enum=fast;slow\ntype Mode string\n",
		types:    "// Mode is how it runs.\n// +kubebuilder:validation:Enum=fast\ntype Mode string\n",
		rule:     "enum", path: "^.spec.mode", want: "+kubebuilder:validation:Enum=fast\n"},
	{name: "maximum lowered, beside a minimum that stays",
		oldField: "// +kubebuilder:validation:Minimum=1\n// +kubebuilder:validation:Maximum=10\n// +optional\nSize int32 'json:\"size,omitempty\"'",
		field:    "// +kubebuilder:validation:Minimum=1\n// +kubebuilder:validation:Maximum=5\n// +optional\nSize int32 'json:\"size,omitempty\"'",
		rule:     "maximum", path: "^.spec.size", want: "+kubebuilder:validation:Maximum=5"},
	{name: "minimum raised",
		oldField: "// +kubebuilder:validation:Minimum=0\n// +optional\nCount int32 'json:\"count,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:Minimum=2\nCount int32 'json:\"count,omitempty\"'",
		rule:     "minimum", path: "^.spec.count", want: "+kubebuilder:validation:Minimum=2"},
	{name: "maxLength lowered",
		oldField: "// +kubebuilder:validation:MaxLength=20\n// +optional\nTitle string 'json:\"title,omitempty\"'",
		field:    "// +kubebuilder:validation:MaxLength=10\n// +optional\nTitle string 'json:\"title,omitempty\"'",
		rule:     "maxLength", path: "^.spec.title", want: "+kubebuilder:validation:MaxLength=10"},
	{name: "minLength added",
		oldField: "// +optional\nNick string 'json:\"nick,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:MinLength=3\nNick string 'json:\"nick,omitempty\"'",
		rule:     "minLength", path: "^.spec.nick", want: "+kubebuilder:validation:MinLength=3"},
	{name: "maxItems added",
		oldField: "// +optional\nTags []string 'json:\"tags,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:MaxItems=3\nTags []string 'json:\"tags,omitempty\"'",
		rule:     "maxItems", path: "^.spec.tags", want: "+kubebuilder:validation:MaxItems=3"},
	{name: "items: marker on the list field",
		oldField: "// +optional\nAliases []string 'json:\"aliases,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:items:MaxLength=5\nAliases []string 'json:\"aliases,omitempty\"'",
		rule:     "maxLength", path: "^.spec.aliases[*]", want: "+kubebuilder:validation:items:MaxLength=5"},
	{name: "items: marker on a named list type: the type's marker",
		oldField: "// +optional\nHosts HostList 'json:\"hosts,omitempty\"'",
		field:    "// +optional\nHosts HostList 'json:\"hosts,omitempty\"'",
		oldTypes: "// HostList lists hosts.\ntype HostList []string\n",
		types:    "// HostList lists hosts.\n// +kubebuilder:validation:items:MaxLength=10\ntype HostList []string\n",
		rule:     "maxLength", path: "^.spec.hosts[*]", want: "+kubebuilder:validation:items:MaxLength=10"},
	{name: "maxProperties added",
		oldField: "// +optional\nNotes map[string]string 'json:\"notes,omitempty\"'",
		field:    "// +kubebuilder:validation:MaxProperties=5\n// +optional\nNotes map[string]string 'json:\"notes,omitempty\"'",
		rule:     "maxProperties", path: "^.spec.notes", want: "+kubebuilder:validation:MaxProperties=5"},
	{name: "pattern added is unhandled, at its marker",
		oldField: "// +kubebuilder:validation:MaxLength=63\n// +optional\nHost string 'json:\"host,omitempty\"'",
		field:    "// +kubebuilder:validation:MaxLength=63\n// +kubebuilder:validation:Pattern='^[a-z]+$'\n// +optional\nHost string 'json:\"host,omitempty\"'",
		rule:     "unhandled", path: "^.spec.host", want: "+kubebuilder:validation:Pattern="},
	{name: "default changed",
		oldField: "// +kubebuilder:default=fast\n// +optional\nPolicy string 'json:\"policy,omitempty\"'",
		field:    "// +kubebuilder:default=slow\n// +optional\nPolicy string 'json:\"policy,omitempty\"'",
		rule:     "default", path: "^.spec.policy", want: "+kubebuilder:default=slow"},
	{name: "CEL rule added beside one that stays: the new rule's marker",
		oldField: "// +kubebuilder:validation:XValidation:rule=\"self >= 0\"\n// +optional\nReplicas int32 'json:\"replicas,omitempty\"'",
		field:    "// +kubebuilder:validation:XValidation:rule=\"self >= 0\"\n// +kubebuilder:validation:XValidation:rule=\"self <= 100\"\n// +optional\nReplicas int32 'json:\"replicas,omitempty\"'",
		rule:     "celRuleAdded", path: "^.spec.replicas", want: "+kubebuilder:validation:XValidation:rule=\"self <= 100\""},
	{name: "transition rule added",
		oldField: "// +optional\nLevel int32 'json:\"level,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:XValidation:rule=\"self >= oldSelf\",message=\"level only grows\"\nLevel int32 'json:\"level,omitempty\"'",
		rule:     "celRuleRatcheting", path: "^.spec.level", want: "+kubebuilder:validation:XValidation:rule=\"self >= oldSelf\""},
	{name: "immutability added",
		oldField: "// +optional\nID string 'json:\"id,omitempty\"'",
		field:    "// +optional\n// +kubebuilder:validation:XValidation:rule=\"self == oldSelf\",message=\"id is immutable\"\nID string 'json:\"id,omitempty\"'",
		rule:     "immutabilityAdded", path: "^.spec.id", want: "+kubebuilder:validation:XValidation:rule=\"self == oldSelf\""},
	{name: "CEL rule added on a struct type: the type's marker",
		oldField: "// +optional\nLimits Limits 'json:\"limits,omitempty\"'",
		field:    "// +optional\nLimits Limits 'json:\"limits,omitempty\"'",
		oldTypes: "// Limits bound it.\ntype Limits struct {\n\tMin int32 'json:\"min\"'\n\tMax int32 'json:\"max\"'\n}\n",
		types:    "// Limits bound it.\n// +kubebuilder:validation:XValidation:rule=\"self.min <= self.max\"\ntype Limits struct {\n\tMin int32 'json:\"min\"'\n\tMax int32 'json:\"max\"'\n}\n",
		rule:     "celRuleAdded", path: "^.spec.limits", want: "+kubebuilder:validation:XValidation:rule=\"self.min <= self.max\""},
	{name: "field made required: the +required on the field, not the parent",
		oldField: "// +optional\nOwner string 'json:\"owner,omitempty\"'",
		field:    "// +required\nOwner string 'json:\"owner\"'",
		rule:     "required", path: "^.spec", want: "+required\n"},
	{name: "listType changed",
		oldField: "// +listType=map\n// +listMapKey=name\n// +optional\nPorts []Port 'json:\"ports,omitempty\"'",
		field:    "// +listType=atomic\n// +optional\nPorts []Port 'json:\"ports,omitempty\"'",
		oldTypes: "// Port is a port.\ntype Port struct {\n\tName string 'json:\"name\"'\n}\n",
		types:    "// Port is a port.\ntype Port struct {\n\tName string 'json:\"name\"'\n}\n",
		rule:     "listType", path: "^.spec.ports", want: "+listType=atomic"},
	{name: "mapType changed",
		oldField: "// +optional\nLabels map[string]string 'json:\"labels,omitempty\"'",
		field:    "// +optional\n// +mapType=atomic\nLabels map[string]string 'json:\"labels,omitempty\"'",
		rule:     "mapType", path: "^.spec.labels", want: "+mapType=atomic"},
}

// markerTree is the v1 package of the baseline (old) or the working tree.
func markerTree(old bool) string {
	var fields, types []string
	for _, c := range markerCases {
		f, t := c.field, c.types
		if old {
			f, t = c.oldField, c.oldTypes
		}
		fields = append(fields, "\t"+strings.ReplaceAll(f, "\n", "\n\t"))
		if t != "" {
			types = append(types, t)
		}
	}
	src := "package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"// WidgetSpec is the desired state of a Widget.\ntype WidgetSpec struct {\n" + strings.Join(fields, "\n\n") + "\n}\n\n" +
		strings.Join(types, "\n") + fmt.Sprintf(rootType, "v1", "// +kubebuilder:storageversion")
	return strings.ReplaceAll(src, "'", "`")
}

// TestFindingsAtTheirMarker: a finding about what a marker wrote points at
// that marker's line and column in the working tree (on the field, as an
// items: marker, or on the field's type), not at the field.
func TestFindingsAtTheirMarker(t *testing.T) {
	files := func(old bool) map[string]string {
		return map[string]string{"api/v1/groupversion_info.go": fmt.Sprintf(groupInfo, "v1"), "api/v1/types.go": markerTree(old)}
	}
	oldDir, newDir := goModule(t, "example.com/widgets", files(true)), goModule(t, "example.com/widgets", files(false))
	res := compareTrees(t, oldDir, newDir, Config{})
	src := markerTree(false)
	for _, c := range markerCases {
		t.Run(c.name, func(t *testing.T) {
			line, col := lineCol(t, src, strings.ReplaceAll(c.want, "'", "`"))
			var found bool
			for _, f := range res.Findings {
				if f.Rule != c.rule || f.Path != c.path {
					continue
				}
				found = true
				if f.Pos.Line != line || f.Pos.Column != col || f.Baseline || !strings.HasSuffix(f.Pos.Filename, "types.go") {
					t.Errorf("%s at %s %s: at %s:%d:%d, want the marker at %d:%d\n%s", c.rule, c.path, f.Message, f.Pos.Filename, f.Pos.Line, f.Pos.Column, line, col, describe(res))
				}
			}
			if !found {
				t.Errorf("no %s finding at %s\n%s", c.rule, c.path, describe(res))
			}
		})
	}
}

// TestAPIServerFindingNamesItsRule: the API server's error about a CEL rule
// names the rule's index; the finding carries the rule's text so that it
// points at the rule's marker.
func TestAPIServerFindingNamesItsRule(t *testing.T) {
	i := slices.IndexFunc(ruleCases, func(c ruleCase) bool { return c.name == "CEL rule that no longer compiles against the new schema" })
	old, nw := ruleCases[i].pair(t)
	res, err := Compare(Input{Old: []*apiextensionsv1.CustomResourceDefinition{old}, New: []*apiextensionsv1.CustomResourceDefinition{nw}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Rule == "apiServerUpdate" {
			if want := "self.size <= 5 || self.name != ''"; f.celRule != want || probeFor(f, old, nw).rule != want {
				t.Errorf("apiServerUpdate at %s names rule %q, want %q", f.Path, f.celRule, want)
			}
			return
		}
	}
	t.Fatalf("no apiServerUpdate finding\n%s", describe(res))
}
