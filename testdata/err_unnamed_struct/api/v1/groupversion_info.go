// Package v1 is version v1 of example.com. Its zz_generated.deepcopy.go,
// like Longhorn's, would come from a generator that copies unnamed struct
// types, which controller-tools' deepcopy generator cannot.
// +k8s:deepcopy-gen=package
// +groupName=example.com
package v1
