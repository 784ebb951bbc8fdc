package e2e

import (
	"slices"
	"testing"
)

func TestParseRelease(t *testing.T) {
	for in, want := range map[string]Release{
		"Kubernetes v1.31.14\n": {1, 31}, "v1.37.2": {1, 37}, "1.30": {1, 30}, "v2.0.0-alpha.1": {2, 0},
	} {
		if got, err := ParseRelease(in); err != nil || got != want {
			t.Errorf("ParseRelease(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseRelease("Kubernetes"); err == nil {
		t.Error("ParseRelease found a release in no version")
	}
}

// The flags that turn the storage version migrator on where it is gated:
// 1.30 to 1.34 serve v1alpha1, 1.35 and 1.36 v1beta1, each only with the
// gate on; 1.37 serves v1 by default, and before 1.30 there is none.
func TestStorageMigrationFlags(t *testing.T) {
	for _, c := range []struct {
		release Release
		version string
	}{
		{Release{1, 29}, ""}, {Release{1, 30}, "v1alpha1"}, {Release{1, 31}, "v1alpha1"}, {Release{1, 34}, "v1alpha1"},
		{Release{1, 35}, "v1beta1"}, {Release{1, 36}, "v1beta1"}, {Release{1, 37}, ""}, {Release{2, 0}, ""},
	} {
		server := apiServerArgs(c.release)
		kcm := controllerManagerArgs(c.release)
		if c.version == "" {
			if server != nil || kcm != nil {
				t.Errorf("%s: flags %v %v, want none", c.release, server, kcm)
			}
			continue
		}
		if server["runtime-config"] != "storagemigration.k8s.io/"+c.version+"=true" || server["feature-gates"] != "StorageVersionMigrator=true" {
			t.Errorf("%s: kube-apiserver %v, want %s served behind its gate", c.release, server, c.version)
		}
		if !slices.Equal(kcm, []string{"--feature-gates=StorageVersionMigrator=true,InformerResourceVersion=true"}) {
			t.Errorf("%s: kube-controller-manager %v", c.release, kcm)
		}
	}
}

// TestClusterServesStorageMigration: the suite's API server serves the
// StorageVersionMigration API its release has, the one migrate picks:
// behind its gate, which the harness turns on, before 1.37.
func TestClusterServesStorageMigration(t *testing.T) {
	needCluster(t)
	want := gatedStorageMigration(cluster.Release)
	switch {
	case !cluster.Release.AtLeast(1, 30):
		t.Skipf("Kubernetes %s has no storagemigration.k8s.io", cluster.Release)
	case want == "":
		want = "v1"
	}
	if got := cluster.StorageMigration.Version; got != want {
		t.Errorf("Kubernetes %s serves storagemigration.k8s.io %q, want %q", cluster.Release, got, want)
	}
}
