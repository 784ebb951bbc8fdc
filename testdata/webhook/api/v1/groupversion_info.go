// Package v1 is version v1 of example.com.
// +kubebuilder:object:generate=true
// +groupName=example.com
// +crdforge:webhook:serviceName=widget-conversion,namespace=widgets,port=8443,path=/convert-widgets
// +crdforge:certmanager:injectCA=true,certificate=widgets/widget-serving
package v1
