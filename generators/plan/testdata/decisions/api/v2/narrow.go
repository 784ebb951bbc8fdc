package v2

// NarrowSpec has a field for each way a value may not fit v1's.
type NarrowSpec struct {
	// Mode is any string; v1 takes A or B.
	Mode string `json:"mode,omitempty"`
	// Wide takes fewer values than v1's.
	// +kubebuilder:validation:Enum=A;B
	Wide string `json:"wide,omitempty"`
	// Size is an int64; v1's an int32.
	Size int64 `json:"size,omitempty"`
	// Replicas has no maximum; v1's is 10.
	Replicas int32 `json:"replicas,omitempty"`
	// Level is optional; v1 requires at least 1.
	Level *int32 `json:"level,omitempty"`
	// Small is an int32; v1's an int64, which need not fit back.
	Small int32 `json:"small,omitempty"`
}
