// Package kitchen is the internal version of kitchen.example.com: every
// served version converts to and from these types, which no CRD serves.
// +k8s:deepcopy-gen=package
package kitchen
