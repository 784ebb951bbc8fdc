package load

import (
	"bytes"
	"os"

	yaml "go.yaml.in/yaml/v2"

	"github.com/crdforge/crdforge/internal/output"
)

// ProjectService is the conversion webhook's Service as a project that
// deploys its webhook itself declares it (Cluster API's config/webhook,
// kubebuilder-shaped without a PROJECT file), in service.yaml where
// crdforge's deploy generator would write its own. crdforge writes no
// deployment there, so its default Service would exist nowhere: the CRDs
// name this one instead.
type ProjectService struct {
	// Path is service.yaml's absolute path.
	Path string
	// Name is the Service's metadata.name; Namespace its metadata.namespace,
	// empty when the file leaves it to kustomize or to kubectl.
	Name, Namespace string
	// Port is the Service's only port, or 443 among several; 0 when it has
	// several and none is 443, which leaves the API server's port unknown.
	Port int32
}

// ReadProjectService reads the Service in the deployment directory's
// service.yaml (path), unless there is none, or it is crdforge's own output
// (or another generator's), or it declares no named Service.
func ReadProjectService(path string) *ProjectService {
	content, err := os.ReadFile(path)
	if err != nil || output.MayReplace(content) {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for {
		var doc struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
			Metadata   struct {
				Name      string `yaml:"name"`
				Namespace string `yaml:"namespace"`
			} `yaml:"metadata"`
			Spec struct {
				Ports []struct {
					Port int32 `yaml:"port"`
				} `yaml:"ports"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			return nil // no Service in it, or not YAML
		}
		if doc.APIVersion != "v1" || doc.Kind != "Service" || doc.Metadata.Name == "" {
			continue
		}
		s := &ProjectService{Path: path, Name: doc.Metadata.Name, Namespace: doc.Metadata.Namespace}
		for _, p := range doc.Spec.Ports {
			if len(doc.Spec.Ports) == 1 || p.Port == 443 {
				s.Port = p.Port
			}
		}
		return s
	}
}
