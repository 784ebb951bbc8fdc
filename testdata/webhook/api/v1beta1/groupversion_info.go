// Package v1beta1 is version v1beta1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
// +crdforge:webhook:serviceName=widget-conversion,namespace=widgets,port=8443,path=/convert-widgets
package v1beta1
