package load

import (
	"cmp"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v2"
	"golang.org/x/mod/modfile"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// KubebuilderProject is the PROJECT file that kubebuilder keeps at the root
// of a project it scaffolded. Its presence means config/ is kubebuilder's
// kustomize tree (config/webhook/service.yaml, config/crd/kustomization.yaml,
// ...), written once and then the user's: crdforge fits into it rather than
// generating its own deployment there.
type KubebuilderProject struct {
	// Path is the PROJECT file's absolute path; Pos is its first line, in
	// the load's file set, where diagnostics about the project point.
	Path string
	Pos  token.Pos
	// Name is projectName: kubebuilder's kustomize namePrefix is Name + "-".
	Name string
	// Layout is the project's plugin layout, such as go.kubebuilder.io/v4.
	Layout []string
	// StandaloneWebhook is true when the project's go.mod requires
	// crdforge's webhook module (WebhookModule): the user picked crdforge's
	// standalone webhook over the manager's, so its main is generated.
	// Without that requirement the main would not build, and by default a
	// kubebuilder project's conversions go through the manager.
	StandaloneWebhook bool
	// conversionWebhooks are the kinds (Kind.group) that `kubebuilder
	// create webhook --conversion` scaffolded a conversion webhook for.
	conversionWebhooks map[string]bool
}

// ConversionWebhook reports whether kubebuilder scaffolded a conversion
// webhook for the kind: the project means it to convert.
func (p *KubebuilderProject) ConversionWebhook(group, kind string) bool {
	return p.conversionWebhooks[kind+"."+group]
}

// WebhookModule is the module of crdforge's conversion webhook, which a
// generated webhook main imports.
const WebhookModule = "github.com/crdforge/crdforge/webhook"

// ProjectFile is the name of kubebuilder's project file.
const ProjectFile = "PROJECT"

// readKubebuilderProject looks for kubebuilder's PROJECT file in dir, then
// at the root of the roots' module. A PROJECT file counts only when it is
// YAML with a layout and a projectName, as kubebuilder writes it (config
// version 3; version 2 wrote layout as one string).
func readKubebuilderProject(dir string, roots []*loader.Package, fset *token.FileSet) *KubebuilderProject {
	candidates := []string{filepath.Join(dir, ProjectFile)}
	var goMod string
	for _, r := range roots {
		if r.Module != nil && r.Module.Dir != "" {
			candidates = append(candidates, filepath.Join(r.Module.Dir, ProjectFile))
			goMod = r.Module.GoMod
			break
		}
	}
	for _, p := range candidates {
		content, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		proj, ok := parseKubebuilderProject(content)
		if !ok {
			continue
		}
		proj.Path = p
		f := fset.AddFile(p, -1, len(content))
		f.SetLinesForContent(content)
		proj.Pos = f.Pos(0)
		proj.StandaloneWebhook = requiresModule(goMod, WebhookModule)
		return proj
	}
	return nil
}

// requiresModule reports whether the go.mod file at goMod requires module
// path. A go.mod that cannot be read or parsed requires nothing here: the
// load that just succeeded used it, so that does not happen in practice.
func requiresModule(goMod, path string) bool {
	if goMod == "" {
		return false
	}
	content, err := os.ReadFile(goMod)
	if err != nil {
		return false
	}
	mf, err := modfile.ParseLax(goMod, content, nil)
	if err != nil {
		return false
	}
	for _, r := range mf.Require {
		if r.Mod.Path == path {
			return true
		}
	}
	return false
}

// parseKubebuilderProject reads the fields crdforge needs from a PROJECT
// file, and reports whether it is one.
func parseKubebuilderProject(content []byte) (*KubebuilderProject, bool) {
	var raw struct {
		Layout      any    `yaml:"layout"`
		ProjectName string `yaml:"projectName"`
		Domain      string `yaml:"domain"`
		Resources   []struct {
			Group    string `yaml:"group"`
			Domain   string `yaml:"domain"`
			Kind     string `yaml:"kind"`
			Webhooks struct {
				Conversion bool `yaml:"conversion"`
			} `yaml:"webhooks"`
		} `yaml:"resources"`
	}
	if err := yaml.Unmarshal(content, &raw); err != nil || raw.ProjectName == "" {
		return nil, false
	}
	proj := &KubebuilderProject{Name: raw.ProjectName, conversionWebhooks: map[string]bool{}}
	for _, r := range raw.Resources {
		if !r.Webhooks.Conversion {
			continue
		}
		// kubebuilder's full group: the group, then the domain, either
		// possibly empty.
		group := r.Group
		if domain := cmp.Or(r.Domain, raw.Domain); domain != "" {
			group = strings.TrimPrefix(group+"."+domain, ".")
		}
		proj.conversionWebhooks[r.Kind+"."+group] = true
	}
	switch l := raw.Layout.(type) {
	case string:
		proj.Layout = []string{l}
	case []any:
		for _, e := range l {
			if s, ok := e.(string); ok && s != "" {
				proj.Layout = append(proj.Layout, s)
			}
		}
	}
	if len(proj.Layout) == 0 || proj.Layout[0] == "" {
		return nil, false
	}
	return proj, true
}
