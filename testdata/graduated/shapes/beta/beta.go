// Package beta holds the shapes of package alpha as they graduated: Window
// unchanged, Limit with its field renamed in JSON.
package beta

// Window is a span of time, as two clock times.
type Window struct {
	Start string `json:"start" protobuf:"bytes,1,opt,name=start"`
	End   string `json:"end" protobuf:"bytes,2,opt,name=end"`
}

// Limit caps a count.
type Limit struct {
	Max int32 `json:"maximum"`
}
