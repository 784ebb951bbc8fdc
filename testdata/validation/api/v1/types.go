package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Protocol is how a widget is reached; its enum is on the type.
// +kubebuilder:validation:Enum=TCP;UDP
type Protocol string

// Port is one port of a widget, a list item keyed by name.
type Port struct {
	// Name names the port.
	Name string `json:"name"`
	// Number is the port number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Number int32 `json:"number"`
	// Protocol is the port's protocol.
	// +kubebuilder:default=TCP
	// +optional
	Protocol Protocol `json:"protocol,omitempty"`
}

// Source is where a widget's configuration comes from: exactly one of
// configMap and secret.
// +kubebuilder:validation:ExactlyOneOf=configMap;secret
type Source struct {
	// ConfigMap names a config map.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`
	// Secret names a secret.
	// +optional
	Secret string `json:"secret,omitempty"`
}

// Probe says how to check a widget: at most one of http and exec.
// +kubebuilder:validation:AtMostOneOf=http;exec
type Probe struct {
	// HTTP is a path to get.
	// +optional
	HTTP string `json:"http,omitempty"`
	// Exec is a command to run.
	// +optional
	Exec []string `json:"exec,omitempty"`
}

// Contact is how to reach a widget's owner: at least one of email and phone.
// +kubebuilder:validation:AtLeastOneOf=email;phone
type Contact struct {
	// Email is an address.
	// +optional
	Email string `json:"email,omitempty"`
	// Phone is a number.
	// +optional
	Phone string `json:"phone,omitempty"`
}

// Address is an IP address; its format is on the type.
// +kubebuilder:validation:Format=ipv4
type Address string

// WidgetSpec is the desired state of a Widget.
// +kubebuilder:validation:XValidation:rule="!has(self.maxReplicas) || self.replicas <= self.maxReplicas",message="replicas must not exceed maxReplicas",fieldPath=".replicas"
// +kubebuilder:externalDocs:url="https://example.com/docs/widget",description="Widget guide"
type WidgetSpec struct {
	// Replicas is how many to run.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMaximum=true
	// +kubebuilder:validation:Maximum=100
	Replicas int32 `json:"replicas"`

	// MaxReplicas caps Replicas.
	// +optional
	MaxReplicas *int32 `json:"maxReplicas,omitempty"`

	// ClassName must stay the same once set.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="className is immutable"
	// +kubebuilder:validation:Pattern=`^[a-z][a-z0-9-]*$`
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	ClassName string `json:"className"`

	// Tier is a field-level enum.
	// +kubebuilder:validation:Enum=gold;silver;bronze
	// +kubebuilder:default=silver
	// +optional
	Tier string `json:"tier,omitempty"`

	// Contact is an email address.
	// +kubebuilder:validation:Format=email
	// +optional
	Contact string `json:"contact,omitempty"`

	// Homepage documents the widget.
	// +kubebuilder:validation:Format=uri
	// +kubebuilder:externalDocs:url="https://example.com/docs/homepage"
	// +optional
	Homepage string `json:"homepage,omitempty"`

	// Ports is a map-list keyed by name.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Ports []Port `json:"ports,omitempty"`

	// Aliases is a set.
	// +listType=set
	// +kubebuilder:validation:UniqueItems=false
	// +optional
	Aliases []string `json:"aliases,omitempty"`

	// Steps keep their order and duplicates.
	// +listType=atomic
	// +optional
	Steps []string `json:"steps,omitempty"`

	// Labels are string pairs.
	// +kubebuilder:validation:MaxProperties=32
	// +optional
	Labels map[string]string `json:"labels,omitempty"`

	// Source is where configuration comes from.
	// +optional
	Source *Source `json:"source,omitempty"`

	// Probe checks the widget.
	// +optional
	Probe *Probe `json:"probe,omitempty"`

	// Template is a whole Kubernetes object.
	// +kubebuilder:validation:EmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Template runtime.RawExtension `json:"template,omitempty"`

	// Extra keeps any fields it is given.
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +optional
	Extra *runtime.RawExtension `json:"extra,omitempty"`

	// Owner says how to reach the widget's owner.
	// +optional
	Owner *Contact `json:"owner,omitempty"`

	// Addresses are IP addresses with a list default.
	// +kubebuilder:default={"10.0.0.1"}
	// +kubebuilder:validation:MinItems=1
	// +optional
	Addresses []Address `json:"addresses,omitempty"`

	// Limits has an object default.
	// +kubebuilder:default={cpu: "1", memory: "1Gi"}
	// +optional
	Limits map[string]string `json:"limits,omitempty"`

	// Budget is checked by a rule with a message expression, a reason and a
	// field path.
	// +kubebuilder:validation:XValidation:rule="self >= 0",messageExpression="'budget must not be negative'",reason=FieldValueForbidden
	// +kubebuilder:validation:Required
	Budget int64 `json:"budget"`

	// Note may be null.
	// +nullable
	// +optional
	Note *string `json:"note,omitempty"`

	// Window is a duration.
	// +kubebuilder:default="5m"
	// +optional
	Window *metav1.Duration `json:"window,omitempty"`

	// Until is a time.
	// +nullable
	// +optional
	Until *metav1.Time `json:"until,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// Replicas is how many are running.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Selector selects the widget's pods, for the scale subresource.
	// +optional
	Selector string `json:"selector,omitempty"`
	// Ready says whether it is ready.
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgetry,singular=widget,scope=Namespaced,shortName=wd;wdg,categories=all;tools
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Class",type=string,JSONPath=`.spec.className`
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`,priority=1
// +kubebuilder:printcolumn:name="Ready",type=boolean,JSONPath=`.status.ready`,description="whether it is ready"
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`,format=date-time

// Widget exercises controller-gen's validation and resource markers.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
