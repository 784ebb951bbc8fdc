// Package v1 is version v1 of beacons.example.com, the hub: its status holds
// the shared types of package common.
// +kubebuilder:object:generate=true
// +groupName=beacons.example.com
package v1
