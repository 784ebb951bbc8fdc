package v1

// NarrowSpec is the storage version's: what it accepts of each v2 field.
type NarrowSpec struct {
	// +kubebuilder:validation:Enum=A;B
	Mode string `json:"mode,omitempty"`
	// +kubebuilder:validation:Enum=A;B;C
	Wide string `json:"wide,omitempty"`
	Size int32  `json:"size,omitempty"`
	// +kubebuilder:validation:Maximum=10
	Replicas int32 `json:"replicas,omitempty"`
	// +kubebuilder:validation:Minimum=1
	Level int32 `json:"level"`
	Small int64 `json:"small,omitempty"`
}
