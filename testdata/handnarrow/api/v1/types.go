// Package v1 is the first version of narrow.example.com: a protocol is any
// string. Balancer converts through hand-written ConvertTo and ConvertFrom
// that call the generated Convert_ functions, as Cluster API providers'
// kinds do; Gateway through generated ones.
// +kubebuilder:object:generate=true
// +groupName=narrow.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ListenerSpec is a listener's address and protocol.
type ListenerSpec struct {
	// Port to listen on.
	Port int32 `json:"port,omitempty"`
	// Protocol to speak.
	Protocol string `json:"protocol,omitempty"`
}

// +kubebuilder:object:root=true

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

// Gateway is converted by generated ConvertTo and ConvertFrom.
type Gateway struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GatewaySpec `json:"spec,omitempty"`
}

// GatewaySpec is what a Gateway should be.
type GatewaySpec struct {
	// Protocol to speak.
	Protocol string `json:"protocol,omitempty"`
}

// +kubebuilder:object:root=true

// GatewayList is a list of Gateways.
type GatewayList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gateway `json:"items"`
}
