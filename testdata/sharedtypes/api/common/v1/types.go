// Package v1 holds types that several kinds' v1 share; it declares no kind,
// and its name is the version of the kinds that hold it.
// +kubebuilder:object:generate=true
package v1

// Endpoint is where a kind listens.
type Endpoint struct {
	Port int32 `json:"port"`
	// Scheme was added in v1.
	Scheme string `json:"scheme,omitempty"`
}
