package load

import (
	"bytes"
	"os"
	"path/filepath"

	yaml "go.yaml.in/yaml/v2"
)

// CommittedCRDs is what the CRDs already in the CRD directory say of each
// kind's conversion: the CRDs a cluster was given before this run. A kind
// whose committed CRD converts through a webhook may have objects stored at
// two versions that clients read through it; the run must not quietly
// serve them with strategy None instead (plan/strategyfallback.go).
type CommittedCRDs struct {
	// Files are the CRD directory's YAML files, all read or looked into:
	// inputs of the run (runcache), whether or not the run writes them.
	Files []string
	// webhook maps Kind.group to the file, as the run's directory names
	// it, of a CRD that converts the kind through a webhook.
	webhook map[string]string
}

// Webhook returns the committed CRD file that converts the kind through a
// webhook, relative to the run's directory, or "".
func (c *CommittedCRDs) Webhook(group, kind string) string {
	if c == nil {
		return ""
	}
	return c.webhook[kind+"."+group]
}

// ReadCommittedCRDs reads the CRDs in crdDir (relative to dir, or
// absolute): every *.yaml file there, each of its documents a CRD or not,
// whoever wrote it (crdforge, controller-gen or a hand). A file that cannot
// be read or parsed says nothing: the run writes its CRD over it or refuses
// to, as it would anyway.
func ReadCommittedCRDs(dir, crdDir string) *CommittedCRDs {
	if !filepath.IsAbs(crdDir) {
		crdDir = filepath.Join(dir, crdDir)
	}
	files, _ := filepath.Glob(filepath.Join(crdDir, "*.yaml"))
	c := &CommittedCRDs{Files: files, webhook: map[string]string{}}
	for _, path := range files {
		content, err := os.ReadFile(path)
		// Only a file that names a webhook can convert through one: most
		// CRDs are left unparsed, which a project of hundreds notices.
		if err != nil || !bytes.Contains(content, []byte("Webhook")) {
			continue
		}
		name := path
		if rel, err := filepath.Rel(dir, path); err == nil {
			name = rel
		}
		for _, kind := range webhookKinds(content) {
			c.webhook[kind] = name
		}
	}
	return c
}

// webhookKinds lists, as Kind.group, the kinds of the CRDs in content (YAML,
// one document or several) whose conversion strategy is Webhook.
func webhookKinds(content []byte) []string {
	var out []string
	dec := yaml.NewDecoder(bytes.NewReader(content))
	for {
		var doc struct {
			Kind string `yaml:"kind"`
			Spec struct {
				Group string `yaml:"group"`
				Names struct {
					Kind string `yaml:"kind"`
				} `yaml:"names"`
				Conversion struct {
					Strategy string `yaml:"strategy"`
				} `yaml:"conversion"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			return out // the end, or not YAML
		}
		if doc.Kind == "CustomResourceDefinition" && doc.Spec.Conversion.Strategy == "Webhook" {
			out = append(out, doc.Spec.Names.Kind+"."+doc.Spec.Group)
		}
	}
}
