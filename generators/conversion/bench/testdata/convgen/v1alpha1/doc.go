// Package v1alpha1 is a copy of the widgets v1alpha1 types that conversion-gen
// converts to and from the v1 copy, its "internal" peer, for the conversion
// benchmark in generators/conversion/bench.
//
// +k8s:conversion-gen=github.com/crdforge/crdforge/generators/conversion/bench/testdata/convgen/v1
package v1alpha1
