// Package v1beta1 is the hub of fleet.example.com, in the shape of Open
// Cluster Management's cluster group: deepcopy-gen's package-wide switch,
// and helpers beside the types that take listers as interfaces.
// +k8s:deepcopy-gen=package,register
// +groupName=fleet.example.com
package v1beta1
