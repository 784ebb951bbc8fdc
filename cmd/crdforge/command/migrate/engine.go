package migrate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// The engines that move objects to the storage version.
const (
	// EngineAuto uses the cluster's migrator when the API server serves
	// storagemigration.k8s.io, and falls back to the client engine when no
	// controller takes the migration up.
	EngineAuto = "auto"
	// EngineCluster creates a StorageVersionMigration, which
	// kube-controller-manager's storage version migrator carries out.
	EngineCluster = "cluster"
	// EngineClient lists and rewrites every object from here.
	EngineClient = "client"
)

// svmGroup is the group of the StorageVersionMigration API (KEP-4192).
const svmGroup = "storagemigration.k8s.io"

// svmVersions are the versions of the StorageVersionMigration API crdforge
// speaks, preferred first: v1 (Kubernetes 1.37), v1beta1 (1.35, 1.36),
// v1alpha1 (1.30 to 1.34, served only where its feature gate and runtime
// config are on).
var svmVersions = []string{"v1", "v1beta1", "v1alpha1"}

// svmResource finds the preferred StorageVersionMigration version the API
// server serves; ok is false when it serves none.
func svmResource(disc discovery.DiscoveryInterface) (gvr schema.GroupVersionResource, ok bool, err error) {
	if disc == nil {
		return gvr, false, nil
	}
	for _, v := range svmVersions {
		list, err := disc.ServerResourcesForGroupVersion(svmGroup + "/" + v)
		if err != nil {
			continue // not served (404), or discovery of it failed: try the next
		}
		for _, r := range list.APIResources {
			if r.Name == "storageversionmigrations" {
				return schema.GroupVersionResource{Group: svmGroup, Version: v, Resource: r.Name}, true, nil
			}
		}
	}
	return gvr, false, nil
}

// checkEngine checks the --engine value.
func checkEngine(e string) error {
	switch e {
	case EngineAuto, EngineCluster, EngineClient:
		return nil
	}
	return usagef("--engine must be auto, cluster or client, not %q", e)
}

// svmManifest is the StorageVersionMigration that migrates resource
// (group and plural) at apiVersion svmGVR. name, if set, is its name;
// else generateName makes a new one each time: the migrator never runs a
// migration object again once it succeeded or failed, so each attempt is
// a new object. v1alpha1 names the version as well.
func svmManifest(svmGVR, resource schema.GroupVersionResource, name string) map[string]any {
	meta := map[string]any{"labels": map[string]any{"app.kubernetes.io/managed-by": "crdforge"}}
	if name != "" {
		meta["name"] = name
	} else {
		meta["generateName"] = resource.Resource + "." + resource.Group + "-"
	}
	res := map[string]any{"group": resource.Group, "resource": resource.Resource}
	if svmGVR.Version == "v1alpha1" {
		res["version"] = resource.Version
	}
	return map[string]any{
		"apiVersion": svmGVR.GroupVersion().String(),
		"kind":       "StorageVersionMigration",
		"metadata":   meta,
		"spec":       map[string]any{"resource": res},
	}
}

// printName is the name --print gives the migration: one per storage
// version, so that applying the same manifest again does nothing, and a
// new storage version makes a new migration.
func printName(crd, storage string) string {
	return fmt.Sprintf("%s-%s", crd, storage)
}
