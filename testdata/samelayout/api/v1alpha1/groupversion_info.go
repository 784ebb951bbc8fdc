// Package v1alpha1 is version v1alpha1 of beacons.example.com. It declares
// its own copies of common's status types (the module that published them
// moved on), which convert into common's by being read as them; and
// Condition and ObjectMeta, as conversion-gen has it, pair with metav1's
// namesakes too, whose autoConvert_ functions its hand-written code calls.
// +kubebuilder:object:generate=true
// +groupName=beacons.example.com
package v1alpha1
