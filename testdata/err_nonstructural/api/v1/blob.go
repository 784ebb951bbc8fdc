package v1

// Blob is anything.
type Blob struct {
	Data string `json:"data,omitempty"`
}
