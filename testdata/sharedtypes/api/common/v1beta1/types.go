// Package v1beta1 holds the shared types of the kinds' v1beta1.
// +kubebuilder:object:generate=true
package v1beta1

// Endpoint is where a kind listens.
type Endpoint struct {
	Port int32 `json:"port"`
}
