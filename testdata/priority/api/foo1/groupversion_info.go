// Package foo1 is version foo1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
package foo1
