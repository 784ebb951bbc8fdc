// Command etcd is the etcd server, built from go.etcd.io/etcd/server/v3 at the
// version k8s.io/kubernetes v1.31.14 was tested with, for envtest.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
