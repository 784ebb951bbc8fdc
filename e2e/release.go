package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// Release is a Kubernetes minor release. The suite runs on more than one
// (make test-e2e on the newest, make test-e2e-oldest on the oldest the
// README supports), so what differs between them is asked of the binaries
// or the server, never assumed.
type Release struct{ Major, Minor int }

// String is "1.31".
func (r Release) String() string { return fmt.Sprintf("%d.%d", r.Major, r.Minor) }

// AtLeast reports whether r is major.minor or later.
func (r Release) AtLeast(major, minor int) bool {
	return r.Major > major || r.Major == major && r.Minor >= minor
}

var releaseRE = regexp.MustCompile(`v?(\d+)\.(\d+)`)

// ParseRelease reads the release out of a version such as "v1.31.14",
// "Kubernetes v1.37.2" or "1.31".
func ParseRelease(s string) (Release, error) {
	m := releaseRE.FindStringSubmatch(s)
	if m == nil {
		return Release{}, fmt.Errorf("no Kubernetes version in %q", s)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return Release{Major: major, Minor: minor}, nil
}

// BinaryRelease is the release of a Kubernetes binary, from its --version:
// the API server's flags must be chosen before it runs.
func BinaryRelease(bin string) (Release, error) {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return Release{}, fmt.Errorf("%s --version: %w", bin, err)
	}
	return ParseRelease(string(out))
}

// storageMigrationGate is the feature gate of storagemigration.k8s.io
// (KEP-4192), in kube-apiserver and kube-controller-manager alike.
const storageMigrationGate = "StorageVersionMigrator"

// gatedStorageMigration is the storagemigration.k8s.io version r serves
// only with storageMigrationGate on and the version enabled in
// --runtime-config; "" when r serves one by default (1.37 on) or none at
// all (before 1.30). The suite turns it on, as a cluster administrator
// would to migrate with the cluster's migrator.
func gatedStorageMigration(r Release) string {
	switch {
	case r.AtLeast(1, 37) || !r.AtLeast(1, 30):
		return ""
	case r.AtLeast(1, 35):
		return "v1beta1"
	}
	return "v1alpha1"
}

// apiServerArgs are the kube-apiserver flags, beyond envtest's, that r
// needs to serve what the suite uses.
func apiServerArgs(r Release) map[string]string {
	v := gatedStorageMigration(r)
	if v == "" {
		return nil
	}
	return map[string]string{
		"feature-gates":  storageMigrationGate + "=true",
		"runtime-config": "storagemigration.k8s.io/" + v + "=true",
	}
}

// controllerManagerArgs are the kube-controller-manager flags that r needs
// to run the storage version migrator: where the API is gated, so is the
// migrator, which also checks client-go's InformerResourceVersion gate
// (alpha in 1.31). kube-controller-manager takes client-go's gates in its
// own --feature-gates and ignores client-go's KUBE_FEATURE_ variables.
func controllerManagerArgs(r Release) []string {
	if gatedStorageMigration(r) == "" {
		return nil
	}
	return []string{"--feature-gates=" + storageMigrationGate + "=true,InformerResourceVersion=true"}
}

// storageMigrationVersions are the versions of storagemigration.k8s.io,
// newest first.
var storageMigrationVersions = []string{"v1", "v1beta1", "v1alpha1"}

// learnServer asks the server, through discovery, for its release and the
// StorageVersionMigration version it serves.
func (c *Cluster) learnServer() error {
	disc, err := discovery.NewDiscoveryClientForConfig(c.Config)
	if err != nil {
		return err
	}
	info, err := disc.ServerVersion()
	if err != nil {
		return fmt.Errorf("the server's version: %w", err)
	}
	if c.Release, err = ParseRelease(info.GitVersion); err != nil {
		return err
	}
	for _, v := range storageMigrationVersions {
		gv := "storagemigration.k8s.io/" + v
		list, err := disc.ServerResourcesForGroupVersion(gv)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return fmt.Errorf("discovery of %s: %w", gv, err)
		}
		for _, r := range list.APIResources {
			if r.Name == "storageversionmigrations" {
				c.StorageMigration = schema.GroupVersionResource{Group: "storagemigration.k8s.io", Version: v, Resource: r.Name}
				return nil
			}
		}
	}
	return nil
}
