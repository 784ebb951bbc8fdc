// Package cronjob is the CronJob API of the kubebuilder book's tutorial, in
// the two versions of its "multi-version" chapter: v1 keeps the schedule as
// one cron string, v2 splits it into a struct with a field per cron field
// (minute, hour, day of month, month, day of week). v1 is the storage version
// and the hub; the conversion of the schedule is hand-written in
// api/v2/conversion.go, and crdforge generates the rest.
//
// Regenerate the CRD, deepcopy methods and conversions with go generate (or
// make generate from the repository's root).
package cronjob

//go:generate go run github.com/crdforge/crdforge/cmd/crdforge generate ./...
