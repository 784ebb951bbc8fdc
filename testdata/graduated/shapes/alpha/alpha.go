// Package alpha holds shapes another team publishes, at alpha.
package alpha

// Window is a span of time, as two clock times.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}

// Limit caps a count.
type Limit struct {
	Max int32 `json:"max"`
}
