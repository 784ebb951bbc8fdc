// Package v1beta1 is version v1beta1 of check.crdforge.test.
// +groupName=check.crdforge.test
package v1beta1
