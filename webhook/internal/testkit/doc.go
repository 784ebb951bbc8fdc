// Package testkit holds the fixtures that the runtime's tests share: a test
// PKI and the kubelet's way of updating a Secret volume, a log buffer,
// polling, metric reads, HTTP response reads, and the Box kind with three
// versions. Only tests import it.
package testkit
