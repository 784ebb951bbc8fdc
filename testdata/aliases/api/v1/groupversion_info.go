// Package v1 is version v1 of net.example.com. Version v1beta1 shares its
// types through aliases, as Gateway API's v1beta1 shares v1's: v1beta1
// imports v1, so v1 must be the hub of every kind, Grant's storage version
// v1beta1 notwithstanding.
// +kubebuilder:object:generate=true
// +groupName=net.example.com
package v1
