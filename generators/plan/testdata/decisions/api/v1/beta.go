package v1

// BetaSpec is the hub of v3's.
type BetaSpec struct {
	Note  string `json:"note,omitempty"`
	Extra string `json:"extra,omitempty"`
}

// Ref is the hub of v3's Ref.
type Ref struct {
	Name string `json:"name"`
}
