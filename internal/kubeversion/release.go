// Package kubeversion says which Kubernetes release the objects crdforge
// generates need, and warns where that is newer than the oldest release a
// user targets: a field an older API server does not know is dropped, and
// an API it does not serve is refused, only when the objects are applied.
package kubeversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is a Kubernetes minor release of the 1.x line, such as 1.31.
type Release struct{ Minor int }

// String is "1.<minor>".
func (r Release) String() string { return "1." + strconv.Itoa(r.Minor) }

// Before reports whether r is older than o.
func (r Release) Before(o Release) bool { return r.Minor < o.Minor }

// Oldest is the oldest release crdforge supports and tests (the README's
// "Supported clusters", the test-e2e-oldest tier).
var Oldest = Release{Minor: 31}

// Parse reads a release as users write it: "1.31", "v1.31" or "1.31.4"
// (the patch, which adds no API, is ignored).
func Parse(s string) (Release, error) {
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "v"), ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return Release{}, fmt.Errorf("%q is not a Kubernetes release: want 1.<minor>, such as 1.31", s)
	}
	for _, p := range parts[1:] {
		if _, err := strconv.ParseUint(p, 10, 16); err != nil {
			return Release{}, fmt.Errorf("%q is not a Kubernetes release: want 1.<minor>, such as 1.31", s)
		}
	}
	minor, _ := strconv.Atoi(parts[1])
	return Release{Minor: minor}, nil
}
