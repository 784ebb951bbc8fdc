package controller

// The manager's leader election, in its own namespace, and a role of its
// own for the metrics endpoint: a Role beside the ClusterRole, and a second
// ClusterRole.

// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=system,resources=leases,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",namespace=system,resources=configmaps,verbs=get;list
// +kubebuilder:rbac:urls=/metrics,verbs=get,roleName=metrics-reader
// +kubebuilder:rbac:groups=apps,resources=deployments;statefulsets,verbs=*
