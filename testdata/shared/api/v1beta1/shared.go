package v1beta1

// ObjectMeta is the metadata a template stamps on the machines it creates.
type ObjectMeta struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Bootstrap says how a machine joins the cluster.
type Bootstrap struct {
	// DataSecretName names the Secret with the bootstrap data.
	DataSecretName *string `json:"dataSecretName,omitempty"`
}

// MachineSpec is shared by Machine and both templates.
type MachineSpec struct {
	ClusterName string    `json:"clusterName"`
	Bootstrap   Bootstrap `json:"bootstrap"`
	Version     *string   `json:"version,omitempty"`
	// ZoneName became FailureDomain in v1.
	// +crdforge:hubfield=FailureDomain
	ZoneName string `json:"zoneName,omitempty"`
}

// MachineTemplateSpec is the template MachineSet and MachineDeployment share.
type MachineTemplateSpec struct {
	ObjectMeta ObjectMeta  `json:"metadata,omitempty"`
	Spec       MachineSpec `json:"spec,omitempty"`
}
