package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true

// Pairing is the kind of the PairingSpec cases.
type Pairing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PairingSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// PairingList is a list of Pairings.
type PairingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Pairing `json:"items"`
}

// +kubebuilder:object:root=true

// Field is the kind of the FieldSpec cases.
type Field struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FieldSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// FieldList is a list of Fields.
type FieldList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Field `json:"items"`
}

// +kubebuilder:object:root=true

// Loss is the kind of the LossSpec cases.
type Loss struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LossSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// LossList is a list of Losss.
type LossList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Loss `json:"items"`
}

// +kubebuilder:object:root=true

// Narrow is the kind of the NarrowSpec cases.
type Narrow struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NarrowSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// NarrowList is a list of Narrows.
type NarrowList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Narrow `json:"items"`
}

// +kubebuilder:object:root=true

// NoCounterpart is the kind of the NoCounterpartSpec cases.
type NoCounterpart struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              NoCounterpartSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// NoCounterpartList is a list of NoCounterparts.
type NoCounterpartList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []NoCounterpart `json:"items"`
}

// +kubebuilder:object:root=true

// Fallback is the kind of the FallbackSpec cases.
type Fallback struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FallbackSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// FallbackList is a list of Fallbacks.
type FallbackList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Fallback `json:"items"`
}

// +kubebuilder:object:root=true
// +crdforge:conversion:strategy=Webhook

// Forced is the kind of the ForcedSpec cases.
type Forced struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ForcedSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// ForcedList is a list of Forceds.
type ForcedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Forced `json:"items"`
}

// +kubebuilder:object:root=true
// +crdforge:conversion:strategy=None

// Declined is the kind of the DeclinedSpec cases.
type Declined struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              DeclinedSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// DeclinedList is a list of Declineds.
type DeclinedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Declined `json:"items"`
}

// +kubebuilder:object:root=true

// Written is the kind of the WrittenSpec cases.
type Written struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WrittenSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// WrittenList is a list of Writtens.
type WrittenList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Written `json:"items"`
}

// +kubebuilder:object:root=true

// Methods is the kind of the MethodsSpec cases.
type Methods struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              MethodsSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// MethodsList is a list of Methodss.
type MethodsList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Methods `json:"items"`
}

// +kubebuilder:object:root=true

// Foreign is the kind of the ForeignSpec cases.
type Foreign struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ForeignSpec `json:"spec,omitempty"`
}

// +kubebuilder:object:root=true

// ForeignList is a list of Foreigns.
type ForeignList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Foreign `json:"items"`
}
