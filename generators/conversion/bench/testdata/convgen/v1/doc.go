// Package v1 is a copy of the widgets v1 (hub) types, the peer that
// conversion-gen converts the v1alpha1 copy to and from, for the conversion
// benchmark in generators/conversion/bench.
package v1
