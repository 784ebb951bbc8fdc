package markers

import "strings"

// examples holds an example of every marker crdforge understands, by name.
// controller-tools' help has none, and an example is what a reader copies:
// TestEveryMarkerHasAnExampleItsDefinitionParses parses each with the
// marker's own definition, and fails for a marker without one (a new
// controller-tools adds some). An items: marker takes its element marker's
// example (exampleOf). It is a table, read-only, not a registry.
var examples = map[string]string{
	// crdforge's own.
	HubName:           "+crdforge:hub",
	ConversionName:    "+crdforge:conversion:strategy=Webhook",
	WebhookName:       "+crdforge:webhook:serviceName=crontab-webhook,namespace=crontab-system,path=/convert,port=443",
	CertManagerName:   "+crdforge:certmanager:injectCA=true,certificate=crontab-system/crontab-webhook-cert",
	HubFieldName:      "+crdforge:hubfield=Network.Host",
	NoCounterpartName: "+crdforge:nocounterpart",
	DescOmitName:      "+crdforge:description:omit",
	DeprecatedName:    `+crdforge:deprecated:warning="use spec.schedule; spec.cronSpec goes in v2"`,
	DroppedZeroName:   "+crdforge:droppedzero",

	// CRD.
	"groupName":                      "+groupName=example.com",
	"versionName":                    "+versionName=v1beta1",
	"k8s:enum":                       "+k8s:enum",
	"kubebuilder:deprecatedversion":  `+kubebuilder:deprecatedversion:warning="example.com/v1beta1 CronTab is deprecated; use example.com/v1"`,
	"kubebuilder:externalDocs":       `+kubebuilder:externalDocs:url="https://example.com/docs/crontab",description="The CronTab guide"`,
	"kubebuilder:metadata":           `+kubebuilder:metadata:labels="app.kubernetes.io/part-of=crontab",annotations="example.com/owner=team-a"`,
	"kubebuilder:printcolumn":        `+kubebuilder:printcolumn:name="Schedule",type=string,JSONPath=".spec.cronSpec",priority=0`,
	"kubebuilder:resource":           "+kubebuilder:resource:scope=Namespaced,shortName=ct;cts,categories=all,path=crontabs,singular=crontab",
	"kubebuilder:selectablefield":    `+kubebuilder:selectablefield:JSONPath=".spec.image"`,
	"kubebuilder:skip":               "+kubebuilder:skip",
	"kubebuilder:skipversion":        "+kubebuilder:skipversion",
	"kubebuilder:storageversion":     "+kubebuilder:storageversion",
	"kubebuilder:subresource:scale":  "+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector",
	"kubebuilder:subresource:status": "+kubebuilder:subresource:status",
	"kubebuilder:unservedversion":    "+kubebuilder:unservedversion",

	// CRD processing.
	"k8s:listMapKey": "+k8s:listMapKey=name",
	"k8s:listType":   "+k8s:listType=map",
	"kubebuilder:pruning:PreserveUnknownFields":     "+kubebuilder:pruning:PreserveUnknownFields",
	"kubebuilder:validation:XPreserveUnknownFields": "+kubebuilder:validation:XPreserveUnknownFields",
	"listMapKey": "+listMapKey=name",
	"listType":   "+listType=map",
	"mapType":    "+mapType=granular",
	"structType": "+structType=atomic",

	// CRD validation.
	"default":                                  "+default:value=3",
	"k8s:immutable":                            "+k8s:immutable",
	"k8s:maxItems":                             "+k8s:maxItems=10",
	"k8s:maximum":                              "+k8s:maximum=100",
	"k8s:minimum":                              "+k8s:minimum=0",
	"k8s:optional":                             "+k8s:optional",
	"k8s:required":                             "+k8s:required",
	"kubebuilder:default":                      "+kubebuilder:default=3",
	"kubebuilder:example":                      `+kubebuilder:example="*/5 * * * *"`,
	"kubebuilder:title":                        `+kubebuilder:title="Replicas"`,
	"kubebuilder:validation:AtLeastOneOf":      "+kubebuilder:validation:AtLeastOneOf=cronSpec;interval",
	"kubebuilder:validation:AtMostOneOf":       "+kubebuilder:validation:AtMostOneOf=cronSpec;interval",
	"kubebuilder:validation:ExactlyOneOf":      "+kubebuilder:validation:ExactlyOneOf=cronSpec;interval",
	"kubebuilder:validation:EmbeddedResource":  "+kubebuilder:validation:EmbeddedResource",
	"kubebuilder:validation:Enum":              "+kubebuilder:validation:Enum=Allow;Forbid;Replace",
	"kubebuilder:validation:ExclusiveMaximum":  "+kubebuilder:validation:ExclusiveMaximum=true",
	"kubebuilder:validation:ExclusiveMinimum":  "+kubebuilder:validation:ExclusiveMinimum=true",
	"kubebuilder:validation:Format":            "+kubebuilder:validation:Format=date-time",
	"kubebuilder:validation:MaxItems":          "+kubebuilder:validation:MaxItems=10",
	"kubebuilder:validation:MaxLength":         "+kubebuilder:validation:MaxLength=63",
	"kubebuilder:validation:MaxProperties":     "+kubebuilder:validation:MaxProperties=20",
	"kubebuilder:validation:Maximum":           "+kubebuilder:validation:Maximum=100",
	"kubebuilder:validation:MinItems":          "+kubebuilder:validation:MinItems=1",
	"kubebuilder:validation:MinLength":         "+kubebuilder:validation:MinLength=1",
	"kubebuilder:validation:MinProperties":     "+kubebuilder:validation:MinProperties=1",
	"kubebuilder:validation:Minimum":           "+kubebuilder:validation:Minimum=0",
	"kubebuilder:validation:MultipleOf":        "+kubebuilder:validation:MultipleOf=5",
	"kubebuilder:validation:Optional":          "+kubebuilder:validation:Optional",
	"kubebuilder:validation:Pattern":           `+kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"`,
	"kubebuilder:validation:Required":          "+kubebuilder:validation:Required",
	"kubebuilder:validation:Schemaless":        "+kubebuilder:validation:Schemaless",
	"kubebuilder:validation:Type":              "+kubebuilder:validation:Type=string",
	"kubebuilder:validation:UniqueItems":       "+kubebuilder:validation:UniqueItems=true",
	"kubebuilder:validation:XEmbeddedResource": "+kubebuilder:validation:XEmbeddedResource",
	"kubebuilder:validation:XIntOrString":      "+kubebuilder:validation:XIntOrString",
	"kubebuilder:validation:XValidation":       `+kubebuilder:validation:XValidation:rule="self.minReplicas <= self.maxReplicas",message="minReplicas must not exceed maxReplicas"`,
	"nullable":                                 "+nullable",
	"optional":                                 "+optional",
	"required":                                 "+required",

	// object (deepcopy).
	"k8s:deepcopy-gen":            "+k8s:deepcopy-gen=package",
	"k8s:deepcopy-gen:interfaces": "+k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object",
	"kubebuilder:object:generate": "+kubebuilder:object:generate=true",
	"kubebuilder:object:root":     "+kubebuilder:object:root=true",

	// RBAC and admission webhooks, on a controller or a webhook's package.
	"kubebuilder:rbac":                 "+kubebuilder:rbac:groups=batch.example.com,resources=crontabs;crontabs/status,verbs=get;list;watch;update;patch",
	"kubebuilder:webhook":              "+kubebuilder:webhook:path=/validate-batch-example-com-v1-crontab,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=crontabs,verbs=create;update,versions=v1,name=vcrontab-v1.kb.io,admissionReviewVersions=v1",
	"kubebuilder:webhookconfiguration": "+kubebuilder:webhookconfiguration:mutating=false,name=crontab-validating-webhook-configuration",
}

// itemsPrefix is where controller-tools' items: markers start: each applies
// its element marker (kubebuilder:validation:X) to every item of a list.
const itemsPrefix = "kubebuilder:validation:items:"

// exampleOf is the example of the marker name; empty when there is none.
func exampleOf(name string) string {
	if ex, ok := examples[name]; ok {
		return ex
	}
	if rest, ok := strings.CutPrefix(name, itemsPrefix); ok {
		elem := "kubebuilder:validation:" + rest
		if ex, ok := examples[elem]; ok {
			return "+" + name + strings.TrimPrefix(ex, "+"+elem)
		}
	}
	return ""
}

// argDefaults says, by marker and argument ("marker.argument"), what an
// optional argument left out means, where that is more than "not set".
// TestEveryDefaultNamesAnOptionalArgument keeps it in step with the
// definitions.
var argDefaults = map[string]string{
	WebhookName + ".serviceName":     "<name>-webhook-service, where <name> is the last element of the current directory's import path; webhook-service in a kubebuilder project; the name in a service.yaml of the project's own",
	WebhookName + ".namespace":       "<name>-system; system in a kubebuilder project; the namespace in a service.yaml of the project's own",
	WebhookName + ".path":            "/convert",
	WebhookName + ".port":            "443, or the port in a service.yaml of the project's own",
	CertManagerName + ".certificate": "<service namespace>/<service name>-cert",

	"kubebuilder:resource.scope":                         "Namespaced",
	"kubebuilder:resource.path":                          "the kind's name, lower case and plural",
	"kubebuilder:resource.singular":                      "the kind's name, lower case",
	"kubebuilder:printcolumn.priority":                   "0 (shown by kubectl get; higher only with -o wide)",
	"kubebuilder:deprecatedversion.warning":              "the API server's: <group>/<version> <kind> is deprecated",
	"kubebuilder:validation:XValidation.optionalOldSelf": "false",
	itemsPrefix + "XValidation.optionalOldSelf":          "false",
}

// defaultOf is what leaving the argument arg of the marker name out means,
// or empty.
func defaultOf(name, arg string) string {
	return argDefaults[name+"."+arg]
}
