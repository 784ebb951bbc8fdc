package pipeline

import (
	"encoding/json"
	"path/filepath"

	"github.com/crdforge/crdforge/generators/controllertools"
	"github.com/crdforge/crdforge/internal/output"
	"github.com/crdforge/crdforge/internal/samples"
)

// Fingerprint encodes what of a completed cfg decides a run's output,
// flags and the project file's settings alike, for crdforge generate's
// up-to-date check (internal/runcache): two configurations with the same
// fingerprint generate the same files from the same tree. The validation
// record is left out: it changes how long a run takes, not what it writes.
// The files it names are not in it; InputFiles lists them.
func (cfg Config) Fingerprint() ([]byte, error) {
	cfg.ValidationRecord = nil
	return json.Marshal(cfg)
}

// InputFiles are the files, absolute, that a run with cfg reads besides
// the packages it loads: the header files, where the webhook's main and
// Service go, which may be the project's own (a run then writes neither,
// and the CRDs name the project's Service), and the samples it checks.
func (cfg Config) InputFiles() []string {
	out := []string{output.Abs(cfg.Dir, cfg.WebhookMain), output.Abs(cfg.Dir, filepath.Join(cfg.DeployDir, "service.yaml"))}
	for _, f := range []string{cfg.HeaderFile, cfg.CRDHeaderFile} {
		if f != "" {
			out = append(out, output.Abs(cfg.Dir, f))
		}
	}
	if cfg.validatesSamples() {
		out = append(out, samples.Files(cfg.Dir)...)
	}
	return out
}

// InputDirs are the directories, absolute, whose listing a run with cfg
// reads: the samples' (a sample added must be checked).
func (cfg Config) InputDirs() []string {
	if !cfg.validatesSamples() {
		return nil
	}
	return []string{output.Abs(cfg.Dir, samples.Dir)}
}

// OutputDirs are the directories, absolute, where cfg's generators write
// files that are not Go files beside the API (those are in its package
// directories): the CRDs', the webhook main's, its deployment's and the
// RBAC manifest's (the admission manifest's is the deployment's). A file
// appearing there may change a run: one that is the user's, one to delete.
func (cfg Config) OutputDirs() []string {
	return []string{output.Abs(cfg.Dir, cfg.CRDDir), filepath.Dir(output.Abs(cfg.Dir, cfg.WebhookMain)), output.Abs(cfg.Dir, cfg.DeployDir),
		output.Abs(cfg.Dir, controllertools.DefaultRBACDir), output.Abs(cfg.Dir, controllertools.DefaultAdmissionDir)}
}
