package v1beta1

// Common is embedded in both versions' specs.
type Common struct {
	// Owner owns the gauge.
	Owner string `json:"owner,omitempty"`
}

// GaugeStatus is the observed state.
// +k8s:conversion-gen=false
type GaugeStatus struct {
	// Reading is the last reading.
	Reading int32 `json:"reading,omitempty"`
}
