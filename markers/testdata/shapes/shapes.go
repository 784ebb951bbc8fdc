// +crdforge:webhook:serviceName=svc

package shapes

// +kubebuilder:validation:Optional

// +crdforge:certmanager:injectCA=false
// A group with a marker and prose, above a blank line, above a doc comment.

// Plain is documented.
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
type Plain struct {
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=3
	// Replicas has its markers before its doc.
	Replicas int32 `json:"replicas"`

	// +optional

	// Loose has its marker in the group above its doc comment.
	Loose string `json:"loose,omitempty"`

	// Inline has a trailing marker comment.
	Inline string `json:"inline"` // +kubebuilder:validation:MinLength=2

	// +kubebuilder:validation:MaxItems=3
	// +listType=set
	List []string `json:"list,omitempty"`

	// Nested is an anonymous struct with its own field markers.
	Nested struct {
		// +kubebuilder:validation:Pattern=`^a`
		Deep string `json:"deep"`
	} `json:"nested"`

	// +kubebuilder:validation:Maximum=10
	Embedded `json:",inline"`

	// +crdforge:hubfield=Spec.Host
	Moved string `json:"moved"`
	// +crdforge:hubfield=.
	Whole Embedded `json:"whole"`
}

// Embedded is embedded.
type Embedded struct {
	Count int32 `json:"count"`
}

// +kubebuilder:object:root=true
// +crdforge:hub
type (
	// First is the first of a group.
	// +kubebuilder:storageversion
	First struct{}

	// +kubebuilder:subresource:status
	Second struct{}
	Third  struct{}
)

// +crdforge:conversion:strategy=Webhook
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Last struct{}

// +kubebuilder:validation:Enum=A;B
type Letter string

// +crdforge:webhook:port=8443
// (a package marker at the end of the file, far from any declaration)
