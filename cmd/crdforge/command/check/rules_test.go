package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// baseCRD is a small two-version CRD every rule's case mutates.
const baseCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget, shortNames: [wd], categories: [all]}
  conversion: {strategy: None}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            description: WidgetSpec is the spec.
            properties:
              size: {type: integer, description: how big, minimum: 1, maximum: 10}
              color: {type: string, enum: [red, blue]}
              name: {type: string, maxLength: 20}
              mode: {type: string, default: fast}
              labels:
                type: object
                additionalProperties: {type: string}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            description: WidgetSpec is the spec.
            properties:
              size: {type: integer, description: how big, minimum: 1, maximum: 10}
              color: {type: string, enum: [red, blue]}
              name: {type: string, maxLength: 20}
              mode: {type: string, default: fast}
              labels:
                type: object
                additionalProperties: {type: string}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
`

func decode(t testing.TB, s string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	c := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict([]byte(s), c); err != nil {
		t.Fatal(err)
	}
	return c
}

// prop returns the named property of spec in every version, for mutation.
func props(c *apiextensionsv1.CustomResourceDefinition, name string, fn func(p *apiextensionsv1.JSONSchemaProps)) {
	for i := range c.Spec.Versions {
		spec := c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"]
		if name == "" {
			fn(&spec)
		} else {
			p := spec.Properties[name]
			fn(&p)
			spec.Properties[name] = p
		}
		c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	}
}

type want struct {
	rule, severity, version, path string
}

func (w want) String() string {
	return fmt.Sprintf("%s/%s %s %s", w.rule, w.severity, w.version, w.path)
}

// ruleCase is a pair of CRDs (the base, changed by old for the baseline
// and by mutate for the new side) and the findings the rules make of it.
// The differential test against crdify runs every case too.
type ruleCase struct {
	name   string
	cfg    Config
	old    func(c *apiextensionsv1.CustomResourceDefinition)
	mutate func(c *apiextensionsv1.CustomResourceDefinition)
	want   []want
}

// unserveV1beta1 makes the base's v1beta1 a version no client can use.
func unserveV1beta1(c *apiextensionsv1.CustomResourceDefinition) {
	c.Spec.Versions[1].Served = false
}

// pair builds the case's baseline and new CRD.
func (tt ruleCase) pair(t testing.TB) (old, nw *apiextensionsv1.CustomResourceDefinition) {
	old = decode(t, baseCRD)
	if tt.old != nil {
		tt.old(old)
	}
	nw = old.DeepCopy()
	nw.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
	tt.mutate(nw)
	return old, nw
}

func TestRules(t *testing.T) {
	for _, tt := range ruleCases {
		t.Run(tt.name, func(t *testing.T) {
			old, nw := tt.pair(t)
			res, err := Compare(Input{Old: []*apiextensionsv1.CustomResourceDefinition{old}, New: []*apiextensionsv1.CustomResourceDefinition{nw}}, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, want{f.Rule, string(f.Severity), f.Version, f.Path}.String())
			}
			var exp []string
			for _, w := range tt.want {
				exp = append(exp, w.String())
			}
			slices.Sort(got)
			slices.Sort(exp)
			got, exp = slices.Compact(got), slices.Compact(exp)
			if !slices.Equal(got, exp) {
				var msgs []string
				for _, f := range res.Findings {
					msgs = append(msgs, fmt.Sprintf("  %s %s %s: %s", f.Rule, f.Version, f.Path, f.Message))
				}
				t.Errorf("findings\n got %q\nwant %q\n%s", got, exp, strings.Join(msgs, "\n"))
			}
		})
	}
}

var ruleCases = []ruleCase{
	{name: "scope changed is an error", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Scope = apiextensionsv1.ClusterScoped
	}, want: []want{{"scope", "error", "", ""}}},
	{name: "field removed from a version that stays, kept by the other", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1beta1", "^.spec.name"}}},
	{name: "field removed from the storage version, kept by the other: objects stored at it lose it", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1", "^.spec.name"}, {"fieldDataLoss", "error", "v1", "^.spec.name"},
		{"type", "error", "v1beta1 -> v1", "^.spec.name"}}},
	{name: "field removed from a version the cluster stores objects at", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Status.StoredVersions = []string{"v1beta1", "v1"}
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1beta1", "^.spec.name"}, {"fieldDataLoss", "error", "v1beta1", "^.spec.name"}}},
	{name: "field removed from a version served neither before nor now, its data held by the other: a warning", old: unserveV1beta1,
		mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
		}, want: []want{{"existingFieldRemoval", "warn", "v1beta1", "^.spec.name"}}},
	{name: "schema of a version served neither before nor now tightened: a warning", old: unserveV1beta1,
		mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			p := c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"]
			p.Maximum = ptr.To(5.0)
			c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"] = p
		}, want: []want{{"maximum", "warn", "v1beta1", "^.spec.size"}}},
	{name: "field removed from an unserved version the cluster stores objects at: still data loss", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		unserveV1beta1(c)
		c.Status.StoredVersions = []string{"v1beta1", "v1"}
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1beta1", "^.spec.name"}, {"fieldDataLoss", "error", "v1beta1", "^.spec.name"}}},
	{name: "field removed from a version unserved now but served in the baseline: its clients broke", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions[1].Served = false
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1beta1", "^.spec.name"}, {"servedVersionRemoved", "error", "v1beta1", ""}}},
	{name: "field no version holds is data loss", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) { delete(p.Properties, "ports") })
	}, want: []want{
		{"existingFieldRemoval", "error", "v1", "^.spec.ports"}, {"existingFieldRemoval", "error", "v1", "^.spec.ports[*]"},
		{"existingFieldRemoval", "error", "v1", "^.spec.ports[*].name"}, {"existingFieldRemoval", "error", "v1", "^.spec.ports[*].port"},
		{"existingFieldRemoval", "error", "v1beta1", "^.spec.ports"}, {"existingFieldRemoval", "error", "v1beta1", "^.spec.ports[*]"},
		{"existingFieldRemoval", "error", "v1beta1", "^.spec.ports[*].name"}, {"existingFieldRemoval", "error", "v1beta1", "^.spec.ports[*].port"},
		{"fieldDataLoss", "error", "v1", "^.spec.ports"},
	}},
	{name: "field the baseline deprecated, removed from a version that stays: a warning", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 1, "name", "use spec.title")
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.name"}}},
	{name: "field the baseline deprecated in one version, removed from both: the other is still an error", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 1, "name", "use spec.title")
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) { delete(p.Properties, "name") })
	}, want: []want{{"existingFieldRemoval", "error", "v1", "^.spec.name"}, {"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.name"},
		{"fieldDataLoss", "error", "v1", "^.spec.name"}}},
	{name: "list the baseline deprecated, removed from every version: its items go with it, its data is still lost", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 0, "ports", "use spec.endpoints")
		deprecate(c, 1, "ports", "use spec.endpoints")
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) { delete(p.Properties, "ports") })
	}, want: []want{
		{"deprecatedFieldRemoval", "warn", "v1", "^.spec.ports"}, {"deprecatedFieldRemoval", "warn", "v1", "^.spec.ports[*]"},
		{"deprecatedFieldRemoval", "warn", "v1", "^.spec.ports[*].name"}, {"deprecatedFieldRemoval", "warn", "v1", "^.spec.ports[*].port"},
		{"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.ports"}, {"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.ports[*]"},
		{"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.ports[*].name"}, {"deprecatedFieldRemoval", "warn", "v1beta1", "^.spec.ports[*].port"},
		{"fieldDataLoss", "error", "v1", "^.spec.ports"},
	}},
	{name: "field whose description says Deprecated only mid-line is not deprecated: its removal is an error", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "Not Deprecated: kept" })
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		delete(c.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Properties, "name")
	}, want: []want{{"existingFieldRemoval", "error", "v1beta1", "^.spec.name"}}},
	{name: "field deprecated in every version: information", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 0, "size", "use spec.scale")
		deprecate(c, 1, "size", "use spec.scale")
	}, want: []want{{"fieldDeprecated", "info", "v1", "^.spec.size"}, {"fieldDeprecated", "info", "v1beta1", "^.spec.size"}}},
	{name: "field deprecated in one version: information, also between the served versions", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 0, "size", "use spec.scale")
	}, want: []want{{"fieldDeprecated", "info", "v1", "^.spec.size"}, {"fieldDeprecated", "info", "v1beta1 -> v1", "^.spec.size"}}},
	{name: "field without a description deprecated: information", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 0, "color", "use spec.paint")
		deprecate(c, 1, "color", "use spec.paint")
	}, want: []want{{"fieldDeprecated", "info", "v1", "^.spec.color"}, {"fieldDeprecated", "info", "v1beta1", "^.spec.color"}}},
	{name: "deprecation withdrawn: a description change, as in crdify", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		deprecate(c, 0, "size", "use spec.scale")
		deprecate(c, 1, "size", "use spec.scale")
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "how big" })
	}, want: []want{{"description", "error", "v1", "^.spec.size"}, {"description", "error", "v1beta1", "^.spec.size"}}},
	{name: "enum value removed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "color", func(p *apiextensionsv1.JSONSchemaProps) { p.Enum = p.Enum[:1] })
	}, want: []want{{"enum", "error", "v1", "^.spec.color"}, {"enum", "error", "v1beta1", "^.spec.color"}}},
	{name: "enum value added is an error by default", mutate: addEnum,
		want: []want{{"enum", "error", "v1", "^.spec.color"}, {"enum", "error", "v1beta1", "^.spec.color"}}},
	{name: "enum value added with additions allowed", cfg: Config{AllowEnumAdditions: true}, mutate: addEnum},
	{name: "default changed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "mode", func(p *apiextensionsv1.JSONSchemaProps) { p.Default = &apiextensionsv1.JSON{Raw: []byte(`"slow"`)} })
	}, want: []want{{"default", "error", "v1", "^.spec.mode"}, {"default", "error", "v1beta1", "^.spec.mode"}}},
	{name: "maximum lowered, minimum raised", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Maximum = ptr.To(5.0); p.Minimum = ptr.To(2.0) })
	}, want: []want{{"maximum", "error", "v1", "^.spec.size"}, {"maximum", "error", "v1beta1", "^.spec.size"}, {"minimum", "error", "v1", "^.spec.size"}, {"minimum", "error", "v1beta1", "^.spec.size"}}},
	{name: "maximum raised is compatible", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Maximum = ptr.To(50.0) })
	}},
	{name: "maxLength lowered, minLength added", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) {
			p.MaxLength = ptr.To[int64](5)
			p.MinLength = ptr.To[int64](1)
		})
	}, want: []want{{"maxLength", "error", "v1", "^.spec.name"}, {"maxLength", "error", "v1beta1", "^.spec.name"}, {"minLength", "error", "v1", "^.spec.name"}, {"minLength", "error", "v1beta1", "^.spec.name"}}},
	{name: "maxItems, minItems, maxProperties, minProperties added", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "ports", func(p *apiextensionsv1.JSONSchemaProps) { p.MaxItems = ptr.To[int64](3); p.MinItems = ptr.To[int64](1) })
		props(c, "labels", func(p *apiextensionsv1.JSONSchemaProps) {
			p.MaxProperties = ptr.To[int64](3)
			p.MinProperties = ptr.To[int64](1)
		})
	}, want: []want{
		{"maxItems", "error", "v1", "^.spec.ports"}, {"maxItems", "error", "v1beta1", "^.spec.ports"},
		{"minItems", "error", "v1", "^.spec.ports"}, {"minItems", "error", "v1beta1", "^.spec.ports"},
		{"maxProperties", "error", "v1", "^.spec.labels"}, {"maxProperties", "error", "v1beta1", "^.spec.labels"},
		{"minProperties", "error", "v1", "^.spec.labels"}, {"minProperties", "error", "v1beta1", "^.spec.labels"},
	}},
	{name: "field made required", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) { p.Required = []string{"size"} })
	}, want: []want{{"required", "error", "v1", "^.spec"}, {"required", "error", "v1beta1", "^.spec"}}},
	{name: "type changed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) {
			p.Type = "integer"
			p.MaxLength = nil
			p.Maximum = ptr.To(20.0)
		})
	}, want: []want{{"type", "error", "v1", "^.spec.name"}, {"type", "error", "v1beta1", "^.spec.name"},
		{"maximum", "error", "v1", "^.spec.name"}, {"maximum", "error", "v1beta1", "^.spec.name"}}},
	{name: "description changed is an error, as in crdify", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "how large" })
	}, want: []want{{"description", "error", "v1", "^.spec.size"}, {"description", "error", "v1beta1", "^.spec.size"}}},
	{name: "description changed, rule set to warn", cfg: Config{Rules: map[string]Enforcement{"description": Warn}}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "how large" })
	}, want: []want{{"description", "warn", "v1", "^.spec.size"}, {"description", "warn", "v1beta1", "^.spec.size"}}},
	{name: "description changed, rule off", cfg: Config{Rules: map[string]Enforcement{"description": Off}}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "how large" })
	}},
	{name: "pattern added is unhandled, as in crdify", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) { p.Pattern = "^[a-z]+$" })
	}, want: []want{{"unhandled", "error", "v1", "^.spec.name"}, {"unhandled", "error", "v1beta1", "^.spec.name"}}},
	{name: "CEL rule added tightens", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.startsWith('w')"}}
		})
	}, want: []want{{"celRuleAdded", "error", "v1", "^.spec.name"}, {"celRuleAdded", "error", "v1beta1", "^.spec.name"}}},
	{name: "CEL transition rule added ratchets", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self >= oldSelf", Message: "size may only grow"}}
		})
	}, want: []want{{"celRuleRatcheting", "info", "v1", "^.spec.size"}, {"celRuleRatcheting", "info", "v1beta1", "^.spec.size"}}},
	{name: "CEL rule with optionalOldSelf ratchets", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "!oldSelf.hasValue() || self >= oldSelf.value()", OptionalOldSelf: ptr.To(true)}}
		})
	}, want: []want{{"celRuleRatcheting", "info", "v1", "^.spec.size"}, {"celRuleRatcheting", "info", "v1beta1", "^.spec.size"}}},
	{name: "CEL rule removed loosens", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.startsWith('w')"}}
		})
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) { p.XValidations = nil })
	}, want: []want{{"celRuleRemoved", "info", "v1", "^.spec.name"}, {"celRuleRemoved", "info", "v1beta1", "^.spec.name"}}},
	{name: "immutability added", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "name", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self == oldSelf", Message: "name is immutable"}}
		})
	}, want: []want{{"immutabilityAdded", "error", "v1", "^.spec.name"}, {"immutabilityAdded", "error", "v1beta1", "^.spec.name"}}},
	{name: "what the API server set on a cluster's CRD is not a change", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.UID, c.CreationTimestamp, c.Generation = "5b1d3c52-8a0e-4b8e-9d6e-0c6a2b7e4f10", metav1.Unix(1700000000, 0), 3
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.UID, c.CreationTimestamp, c.Generation = "", metav1.Time{}, 0 // as generated
		c.Spec.Names.ShortNames = []string{"wdg"}                       // a change, which the API server accepts
	}, want: []want{{"shortNames", "info", "", ""}}},
	{name: "CEL rule that no longer compiles against the new schema", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) {
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.size <= 5 || self.name != ''"}}
		})
	}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Type = "string"; p.Minimum, p.Maximum = nil, nil })
	}, want: []want{
		{"apiServerUpdate", "error", "v1", "^.spec"},
		{"type", "error", "v1", "^.spec.size"}, {"type", "error", "v1beta1", "^.spec.size"},
	}},
	{name: "CEL rule newly over the cost budget", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "ports", func(p *apiextensionsv1.JSONSchemaProps) {
			p.MaxItems = nil
			p.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.all(a, self.all(b, self.all(c, a.name != b.name || b.name != c.name || a == c)))"}}
		})
	}, want: []want{
		{"apiServerUpdate", "error", "v1", "^"}, {"apiServerUpdate", "error", "v1", "^.spec.ports"},
		{"celRuleAdded", "error", "v1", "^.spec.ports"}, {"celRuleAdded", "error", "v1beta1", "^.spec.ports"},
	}},
	{name: "listType changed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "ports", func(p *apiextensionsv1.JSONSchemaProps) { p.XListType = ptr.To("atomic"); p.XListMapKeys = nil })
	}, want: []want{{"listType", "error", "v1", "^.spec.ports"}, {"listType", "error", "v1beta1", "^.spec.ports"},
		{"listMapKeys", "error", "v1", "^.spec.ports"}, {"listMapKeys", "error", "v1beta1", "^.spec.ports"}}},
	{name: "mapType changed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "labels", func(p *apiextensionsv1.JSONSchemaProps) { p.XMapType = ptr.To("atomic") })
	}, want: []want{{"mapType", "error", "v1", "^.spec.labels"}, {"mapType", "error", "v1beta1", "^.spec.labels"}}},
	{name: "mapType set to its default is no change", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "labels", func(p *apiextensionsv1.JSONSchemaProps) { p.XMapType = ptr.To("granular") })
	}},
	{name: "preserve-unknown-fields removed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "extra", func(p *apiextensionsv1.JSONSchemaProps) { p.XPreserveUnknownFields = nil })
	}, want: []want{{"preserveUnknownFieldsRemoved", "error", "v1", "^.spec.extra"}, {"preserveUnknownFieldsRemoved", "error", "v1beta1", "^.spec.extra"}}},
	{name: "stored version removed, from the cluster's status", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Status.StoredVersions = []string{"v1beta1", "v1"}
	}, mutate: dropV1beta1, want: []want{{"storedVersionRemoval", "error", "", ""}, {"servedVersionRemoved", "error", "v1beta1", ""}}},
	{name: "stored version removed after migrate", old: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Status.StoredVersions = []string{"v1"}
	}, mutate: dropV1beta1, want: []want{{"servedVersionRemoved", "error", "v1beta1", ""}}},
	{name: "storage version removed, without a cluster", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions = c.Spec.Versions[1:]
		c.Spec.Versions[0].Storage = true
	}, want: []want{{"storageVersionRemoved", "error", "v1", ""}, {"servedVersionRemoved", "error", "v1", ""}, {"storageVersionChanged", "warn", "v1beta1", ""}}},
	{name: "version unserved", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions[1].Served = false
	}, want: []want{{"servedVersionRemoved", "error", "v1beta1", ""}}},
	{name: "storage version changed", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions[0].Storage, c.Spec.Versions[1].Storage = false, true
	}, want: []want{{"storageVersionChanged", "warn", "v1beta1", ""}}},
	{name: "deprecated without a warning", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions[1].Deprecated = true
	}, want: []want{{"deprecatedWithoutWarning", "warn", "v1beta1", ""}}},
	{name: "deprecated with a warning", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Versions[1].Deprecated = true
		c.Spec.Versions[1].DeprecationWarning = ptr.To("use v1")
	}},
	{name: "names, columns and selectable fields are information", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Spec.Names.ShortNames = []string{"w"}
		c.Spec.Names.Categories = nil
		c.Spec.Versions[0].AdditionalPrinterColumns = nil
		for i := range c.Spec.Versions {
			c.Spec.Versions[i].SelectableFields = []apiextensionsv1.SelectableField{{JSONPath: ".spec.color"}}
		}
	}, want: []want{{"shortNames", "info", "", ""}, {"categories", "info", "", ""}, {"printerColumns", "info", "v1", ""}, {"selectableFields", "info", "v1", ""}, {"selectableFields", "info", "v1beta1", ""}}},
	{name: "field added is compatible", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
		props(c, "", func(p *apiextensionsv1.JSONSchemaProps) {
			p.Properties["new"] = apiextensionsv1.JSONSchemaProps{Type: "string"}
		})
	}},
}

// deprecate marks spec's property name deprecated in the i-th version, as
// +crdforge:deprecated does: a "Deprecated: " paragraph after its
// description.
func deprecate(c *apiextensionsv1.CustomResourceDefinition, i int, name, text string) {
	spec := c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"]
	p := spec.Properties[name]
	if p.Description != "" {
		p.Description += "\n\n"
	}
	p.Description += "Deprecated: " + text
	spec.Properties[name] = p
	c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"] = spec
}

func addEnum(c *apiextensionsv1.CustomResourceDefinition) {
	props(c, "color", func(p *apiextensionsv1.JSONSchemaProps) {
		p.Enum = append(p.Enum, apiextensionsv1.JSON{Raw: []byte(`"green"`)})
	})
}

func dropV1beta1(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions = c.Spec.Versions[:1] }

// TestACRDNoLongerGeneratedIsAnError: a CRD of the baseline that the working
// tree no longer generates is one crdRemoved error (removing it from a
// cluster deletes every object of it), and no finding about its fields.
func TestACRDNoLongerGeneratedIsAnError(t *testing.T) {
	old := decode(t, baseCRD)
	res, err := Compare(Input{Old: []*apiextensionsv1.CustomResourceDefinition{old}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, want{f.Rule, string(f.Severity), f.Version, f.Path}.String()+fmt.Sprintf(" %s baseline=%t", f.CRD, f.Baseline))
	}
	exp := []string{want{"crdRemoved", "error", "", ""}.String() + fmt.Sprintf(" %s baseline=true", old.Name)}
	if !slices.Equal(got, exp) {
		t.Errorf("findings\n got %q\nwant %q", got, exp)
	}
	// The same CRD on both sides: nothing.
	res, err = Compare(Input{Old: []*apiextensionsv1.CustomResourceDefinition{old}, New: []*apiextensionsv1.CustomResourceDefinition{old.DeepCopy()}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("an unchanged CRD gives %d findings, first %s: %s", len(res.Findings), res.Findings[0].Rule, res.Findings[0].Message)
	}
}
