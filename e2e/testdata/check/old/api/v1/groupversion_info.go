// Package v1 is version v1 of check.crdforge.test.
// +groupName=check.crdforge.test
package v1
