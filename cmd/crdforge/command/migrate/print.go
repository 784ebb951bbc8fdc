package migrate

import (
	"context"
	"io"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
)

// Print writes, as YAML, the StorageVersionMigration that migrates the
// objects of the CRD named crd, for a GitOps repository to apply instead
// of crdforge: at the API version the cluster serves, named after the
// storage version (so that applying it again does nothing, and the next
// storage version gets a migration of its own). It changes nothing.
func Print(ctx context.Context, cfg *rest.Config, crd string, w io.Writer) error {
	c, err := newClients(cfg)
	if err != nil {
		return err
	}
	obj, err := readCRD(ctx, c.ext, crd)
	if err != nil {
		return err
	}
	p, err := planFor(obj)
	if err != nil {
		return err
	}
	svmGVR, ok, err := svmResource(c.discovery)
	if err != nil {
		return err
	}
	if !ok {
		return usagef("the API server serves no %s API, so no StorageVersionMigration can migrate %s there: run crdforge migrate --engine client", svmGroup, crd)
	}
	b, err := yaml.Marshal(svmManifest(svmGVR, p.resource, printName(crd, p.storage)))
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
