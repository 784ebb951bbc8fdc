// Package v1 is version v1 of bigcrd.crdforge.test: a kind whose CRD is
// too large for client-side kubectl apply until crdforge generate
// --fit-crd-bytes=262144 trims it.
// +kubebuilder:object:generate=true
// +groupName=bigcrd.crdforge.test
package v1
