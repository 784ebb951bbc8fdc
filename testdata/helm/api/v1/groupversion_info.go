// Package v1 is version v1 of gadgets.example.com.
// +kubebuilder:object:generate=true
// +groupName=gadgets.example.com
// +crdforge:webhook:serviceName=gadget-conversion,namespace=gadgets,port=8443,path=/convert-gadgets
// +crdforge:certmanager:injectCA=true,certificate=gadgets/gadget-serving
package v1
