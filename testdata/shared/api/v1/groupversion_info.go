// Package v1 is version v1 of cluster.example.com: three kinds that share
// their nested types, as Machine, MachineSet and MachineDeployment do.
// +kubebuilder:object:generate=true
// +groupName=cluster.example.com
package v1
