// Package crontab is the CronTab API of the Kubernetes documentation's
// CustomResourceDefinition versioning page: v1beta1 keeps the address in one
// hostPort field, v1 splits it into host and port.
//
// Regenerate the CRD and deepcopy methods with go generate (or make generate
// from the repository's root).
package crontab

//go:generate go run github.com/crdforge/crdforge/cmd/crdforge generate ./...
