package main

import (
	"os/exec"
	"strings"
	"testing"
)

// notBuilt are import-path prefixes the binary must not build: the API
// server's CRD registry, whose strategy package is also the CRDs' etcd
// storage (internal/crdstrategy does what crdforge needs of it), and what it
// would bring: the etcd client and client-go's typed clientset, informers
// and listers. With the apply configurations they need, a quarter of the
// binary's packages, compiled by every `go install` and every tier that
// builds it.
var notBuilt = []string{
	"k8s.io/apiextensions-apiserver/pkg/registry/",
	"go.etcd.io/",
	"k8s.io/client-go/kubernetes/typed/",
	"k8s.io/client-go/informers",
	"k8s.io/client-go/listers",
}

// The binary builds none of notBuilt.
func TestBinaryBuildsNoStorageOrTypedClients(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for pkg := range strings.Lines(string(out)) {
		pkg = strings.TrimSpace(pkg)
		for _, p := range notBuilt {
			if strings.HasPrefix(pkg, p) {
				t.Errorf("crdforge builds %s", pkg)
				break
			}
		}
	}
}
