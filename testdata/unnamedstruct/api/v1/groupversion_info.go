// Package v1 is version v1 of example.com. Like Longhorn's older version, its
// types hold unnamed struct types, which controller-tools' deepcopy
// generator cannot copy: crdforge copies those types itself, as
// deepcopy-gen would.
// +k8s:deepcopy-gen=package
// +groupName=example.com
package v1
