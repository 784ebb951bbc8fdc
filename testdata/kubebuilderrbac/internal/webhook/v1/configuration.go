package v1

// +kubebuilder:webhookconfiguration:mutating=false,name=cronjob-validating-webhook-configuration
