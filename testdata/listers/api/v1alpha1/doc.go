// Package v1alpha1 is the older version of fleet.example.com.
// +k8s:deepcopy-gen=package,register
// +groupName=fleet.example.com
package v1alpha1
