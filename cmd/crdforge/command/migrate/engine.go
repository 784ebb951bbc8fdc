package migrate

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"

	"github.com/crdforge/crdforge/webhook/storagemigrate"
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
const svmGroup = storagemigrate.SVMGroup

// svmResource finds the preferred StorageVersionMigration version the API
// server serves, from discovery; ok is false when it serves none. (The
// webhook, which links no discovery client, asks by listing:
// storagemigrate.SVMResource.)
func svmResource(disc discovery.DiscoveryInterface) (gvr schema.GroupVersionResource, ok bool, err error) {
	if disc == nil {
		return gvr, false, nil
	}
	for _, v := range storagemigrate.SVMVersions {
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

// svmManifest is the StorageVersionMigration that migrates resource at
// apiVersion svmGVR (storagemigrate.SVMManifest), labelled as crdforge's.
func svmManifest(svmGVR, resource schema.GroupVersionResource, name string) map[string]any {
	return storagemigrate.SVMManifest(svmGVR, resource, name, "crdforge")
}

// printName is the name --print gives the migration: one per storage
// version, so that applying the same manifest again does nothing, and a
// new storage version makes a new migration.
func printName(crd, storage string) string {
	return fmt.Sprintf("%s-%s", crd, storage)
}
