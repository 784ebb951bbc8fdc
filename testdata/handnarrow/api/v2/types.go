// Package v2 is the hub and storage version of narrow.example.com, where a
// protocol that was any string became an enum.
// +kubebuilder:object:generate=true
// +groupName=narrow.example.com
package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Protocol is a listener's protocol.
// +kubebuilder:validation:Enum=TCP;UDP
type Protocol string

// ListenerSpec is a listener's address and protocol.
type ListenerSpec struct {
	// Port to listen on.
	Port int32 `json:"port,omitempty"`
	// Protocol to speak.
	Protocol Protocol `json:"protocol,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Balancer is converted by hand-written ConvertTo and ConvertFrom.
type Balancer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BalancerSpec `json:"spec,omitempty"`
}

// BalancerSpec is what a Balancer should be.
type BalancerSpec struct {
	// Listener is where it listens.
	Listener ListenerSpec `json:"listener,omitempty"`
}

// +kubebuilder:object:root=true

// BalancerList is a list of Balancers.
type BalancerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Balancer `json:"items"`
}

// +kubebuilder:object:root=true
// +kubebuilder:storageversion

// Gateway is converted by generated ConvertTo and ConvertFrom.
type Gateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GatewaySpec `json:"spec,omitempty"`
}

// GatewaySpec is what a Gateway should be.
type GatewaySpec struct {
	// Protocol to speak.
	Protocol Protocol `json:"protocol,omitempty"`
}

// +kubebuilder:object:root=true

// GatewayList is a list of Gateways.
type GatewayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gateway `json:"items"`
}
