package v3

// BetaSpec reaches nothing: v3's Ref pairs with v1's by name, and v2 calls
// the Convert_ generated for that pair.
type BetaSpec struct {
	Note string `json:"note,omitempty"`
}

// Ref is a reference that v2's FieldSpec holds: v3's type, not v2's.
type Ref struct {
	Name string `json:"name"`
}
