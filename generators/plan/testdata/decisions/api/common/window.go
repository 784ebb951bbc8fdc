// Package common holds a struct that v2 keeps its own copy of: no version
// package, so the copy converts by being read as it (a same-layout copy).
package common

// Window is v1's; v2 declares the same struct itself.
type Window struct {
	Start string `json:"start"`
	End   string `json:"end"`
}
