// Package common holds a shape several APIs share. A Probe keeps the
// address it last reached to itself: crdforge runs with
// --ignore-unexported-fields (a setting of controller-gen's crd generator),
// so no schema reaches that field, and neither a CRD-only run nor
// controller-gen type-checks what a netip.Addr holds.
package common

import "net/netip"

// Probe checks a service.
type Probe struct {
	Path        string `json:"path"`
	lastReached netip.Addr
}
