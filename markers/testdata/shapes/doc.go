// Package shapes puts markers in every shape of comment the Go parser
// distinguishes, for the differential test against controller-tools'
// collector.
// +groupName=shapes.example.com
// +kubebuilder:object:generate=true
package shapes
