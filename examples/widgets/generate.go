// Package widgets is a three-version API that exercises every kind of change
// crdforge converts by itself: v1alpha1 (deprecated), v1beta1, and v1, the
// storage version and hub. Across them a field is renamed (title →
// displayName), moved into a nested struct (host and port → network), removed
// (legacyID, v1alpha1 only), added (warranty, v1 only), made optional
// (replicas becomes a pointer), and an enum gains a value (XLarge, v1 only);
// a list and a map of structs convert element by element.
package widgets

//go:generate go run github.com/crdforge/crdforge/cmd/crdforge generate ./...
