package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MachineSetSpec is the desired state of a MachineSet.
type MachineSetSpec struct {
	Replicas *int32              `json:"replicas,omitempty"`
	Template MachineTemplateSpec `json:"template,omitempty"`
}

// MachineDeploymentSpec is the desired state of a MachineDeployment.
type MachineDeploymentSpec struct {
	Replicas *int32              `json:"replicas,omitempty"`
	Paused   bool                `json:"paused,omitempty"`
	Template MachineTemplateSpec `json:"template,omitempty"`
}

// +kubebuilder:object:root=true

// Machine is one machine.
type Machine struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// MachineList is a list of Machines.
type MachineList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Machine `json:"items"`
}

// +kubebuilder:object:root=true

// MachineSet keeps replicas of a template.
type MachineSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineSetSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// MachineSetList is a list of MachineSets.
type MachineSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []MachineSet `json:"items"`
}

// +kubebuilder:object:root=true

// MachineDeployment rolls out MachineSets.
type MachineDeployment struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MachineDeploymentSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// MachineDeploymentList is a list of MachineDeployments.
type MachineDeploymentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []MachineDeployment `json:"items"`
}
