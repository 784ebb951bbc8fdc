// Package v1beta1 is a served version of kitchen.example.com. conversion-gen
// converts it to and from the internal package.
// +kubebuilder:object:generate=true
// +k8s:conversion-gen=github.com/crdforge/crdforge/testdata/err_internalhub_webhook/api/kitchen
// +groupName=kitchen.example.com
package v1beta1
