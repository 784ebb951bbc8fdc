package check

import (
	"fmt"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// versionFindings reports what changed in spec.versions as a whole.
func versionFindings(old, nw *apiextensionsv1.CustomResourceDefinition) []Finding {
	var out []Finding
	find := func(c *apiextensionsv1.CustomResourceDefinition, name string) *apiextensionsv1.CustomResourceDefinitionVersion {
		i := slices.IndexFunc(c.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool { return v.Name == name })
		if i < 0 {
			return nil
		}
		return &c.Spec.Versions[i]
	}
	oldStorage, newStorage := storageVersion(old), storageVersion(nw)

	// Without the cluster's status.storedVersions (a git or file
	// baseline), the baseline's storage version is the one version
	// objects are surely stored at. With it, crdify's storedVersionRemoval
	// speaks for every stored version.
	if len(old.Status.StoredVersions) == 0 && oldStorage != "" && find(nw, oldStorage) == nil {
		out = append(out, Finding{Rule: "storageVersionRemoved", CRD: old.Name, Version: oldStorage, Baseline: true,
			Message: fmt.Sprintf("version %s, the baseline's storage version, removed: objects are stored at it; keep it until crdforge migrate %s has moved them to %s and cleaned status.storedVersions", oldStorage, old.Name, newStorage)})
	}
	for _, ov := range old.Spec.Versions {
		if !ov.Served {
			continue
		}
		nv := find(nw, ov.Name)
		switch {
		case nv == nil:
			out = append(out, Finding{Rule: "servedVersionRemoved", CRD: old.Name, Version: ov.Name, Baseline: true,
				Message: fmt.Sprintf("served version %s removed: its clients get 404 Not Found", ov.Name)})
		case !nv.Served:
			out = append(out, Finding{Rule: "servedVersionRemoved", CRD: old.Name, Version: ov.Name,
				Message: fmt.Sprintf("version %s no longer served: its clients get 404 Not Found", ov.Name)})
		}
	}
	if oldStorage != "" && newStorage != "" && oldStorage != newStorage {
		out = append(out, Finding{Rule: "storageVersionChanged", CRD: old.Name, Version: newStorage,
			Message: fmt.Sprintf("storage version changed : %s -> %s: once this is applied, run crdforge migrate %s so that %s can leave status.storedVersions", oldStorage, newStorage, old.Name, oldStorage)})
	}
	for _, nv := range nw.Spec.Versions {
		ov := find(old, nv.Name)
		if ov == nil || ov.Deprecated || !nv.Deprecated || (nv.DeprecationWarning != nil && *nv.DeprecationWarning != "") {
			continue
		}
		out = append(out, Finding{Rule: "deprecatedWithoutWarning", CRD: old.Name, Version: nv.Name,
			Message: fmt.Sprintf("version %s deprecated without a warning text: clients get the API server's generic one; say what to use instead (+kubebuilder:deprecatedversion:warning=...)", nv.Name)})
	}
	return out
}

func storageVersion(c *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// infoFindings reports what users see change without anything breaking:
// kubectl's columns, field selectors, short names and categories.
func infoFindings(old, nw *apiextensionsv1.CustomResourceDefinition) []Finding {
	var out []Finding
	if !slices.Equal(old.Spec.Names.ShortNames, nw.Spec.Names.ShortNames) {
		out = append(out, Finding{Rule: "shortNames", CRD: old.Name,
			Message: fmt.Sprintf("short names changed : %q -> %q", old.Spec.Names.ShortNames, nw.Spec.Names.ShortNames)})
	}
	if !slices.Equal(old.Spec.Names.Categories, nw.Spec.Names.Categories) {
		out = append(out, Finding{Rule: "categories", CRD: old.Name,
			Message: fmt.Sprintf("categories changed : %q -> %q", old.Spec.Names.Categories, nw.Spec.Names.Categories)})
	}
	for _, nv := range nw.Spec.Versions {
		i := slices.IndexFunc(old.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool { return v.Name == nv.Name })
		if i < 0 {
			continue
		}
		ov := old.Spec.Versions[i]
		if !equality.Semantic.DeepEqual(ov.AdditionalPrinterColumns, nv.AdditionalPrinterColumns) {
			out = append(out, Finding{Rule: "printerColumns", CRD: old.Name, Version: nv.Name,
				Message: fmt.Sprintf("printer columns changed : %v -> %v", columnNames(ov.AdditionalPrinterColumns), columnNames(nv.AdditionalPrinterColumns))})
		}
		if !equality.Semantic.DeepEqual(ov.SelectableFields, nv.SelectableFields) {
			out = append(out, Finding{Rule: "selectableFields", CRD: old.Name, Version: nv.Name,
				Message: fmt.Sprintf("selectable fields changed : %v -> %v", selectable(ov.SelectableFields), selectable(nv.SelectableFields))})
		}
	}
	return out
}

func columnNames(cs []apiextensionsv1.CustomResourceColumnDefinition) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Name+"="+c.JSONPath)
	}
	return out
}

func selectable(fs []apiextensionsv1.SelectableField) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.JSONPath)
	}
	return out
}
