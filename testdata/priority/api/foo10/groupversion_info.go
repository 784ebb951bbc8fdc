// Package foo10 is version foo10 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package foo10
