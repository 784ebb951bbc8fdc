package v1

// FallbackSpec holds what v2's converts without a mechanical conversion.
type FallbackSpec struct {
	Counts   []int32 `json:"counts,omitempty"`
	Mismatch string  `json:"mismatch,omitempty"`
}

// ForcedSpec is FallbackSpec for a kind marked strategy=Webhook.
type ForcedSpec struct {
	Mismatch string `json:"mismatch,omitempty"`
}

// DeclinedSpec is FallbackSpec for a kind marked strategy=None.
type DeclinedSpec struct {
	Mismatch string `json:"mismatch,omitempty"`
}

// WrittenSpec is FallbackSpec for a kind with a hand-written Convert_.
type WrittenSpec struct {
	Mismatch string      `json:"mismatch,omitempty"`
	Part     WrittenPart `json:"part,omitempty"`
}

// WrittenPart is converted by hand from v2.
type WrittenPart struct {
	Name string `json:"name,omitempty"`
}

// MethodsSpec is FallbackSpec for a kind with hand-written methods.
type MethodsSpec struct {
	Mismatch string `json:"mismatch,omitempty"`
}

// ForeignSpec is FallbackSpec for a kind with another framework's methods.
type ForeignSpec struct {
	Mismatch string `json:"mismatch,omitempty"`
}
