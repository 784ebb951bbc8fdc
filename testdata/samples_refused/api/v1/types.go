package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// GadgetSpec is the desired state of a Gadget.
type GadgetSpec struct {
	// Replicas is how many to run.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// Name must start with a letter.
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z]')",message="name must start with a letter"
	// +optional
	Name string `json:"name,omitempty"`
}

// +kubebuilder:object:root=true

// Gadget is the kind whose samples are checked.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// GadgetList is a list of Gadgets.
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
