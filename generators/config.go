package generators

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crdforge/crdforge/generators/conversion"
	"github.com/crdforge/crdforge/generators/crd"
	"github.com/crdforge/crdforge/generators/deepcopy"
	"github.com/crdforge/crdforge/generators/deploy"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/generators/webhook"
)

// Defaults of Config, applied by Complete and nowhere else. Paths are
// relative to Config.Dir.
const (
	DefaultPattern     = "./..."
	DefaultCRDDir      = "config/crd/bases"
	DefaultWebhookMain = "cmd/webhook/main.go"
	DefaultDeployDir   = "config/webhook"
)

// Config is what one `crdforge generate` run needs. Leave a field empty for
// its default: Complete applies them all, once, where the run starts.
type Config struct {
	// Dir is the directory patterns and output paths are relative to.
	Dir string
	// Patterns name the packages to load; default ./...
	Patterns []string
	// CRDDir is where CRD YAML goes; default config/crd/bases.
	CRDDir string
	// WebhookMain is where the webhook's main goes; default
	// cmd/webhook/main.go.
	WebhookMain string
	// DeployDir is where the webhook's kustomization goes; default
	// config/webhook.
	DeployDir string
	// Only limits the run to the named generators; empty runs all.
	Only []string
	// Resolve asks for parts of the model that no selected generator reads,
	// for a caller that reads Result.Model itself.
	Resolve model.Options

	// What Complete resolves Only into.
	complete bool
	gens     []Generator
	partial  bool
}

// Complete returns cfg with every default applied, Dir made absolute, and
// Only resolved: checked against the generators' names and turned into the
// generators that run, in their fixed order whatever order Only names them
// in. It is the one place that reads Only. Completing a completed Config
// changes nothing.
func (cfg Config) Complete() (Config, error) {
	if cfg.complete {
		return cfg, nil
	}
	if cfg.Dir == "" {
		return cfg, fmt.Errorf("no directory given")
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return cfg, err
	}
	cfg.Dir = dir
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{DefaultPattern}
	}
	if cfg.CRDDir == "" {
		cfg.CRDDir = DefaultCRDDir
	}
	if cfg.WebhookMain == "" {
		cfg.WebhookMain = DefaultWebhookMain
	}
	if cfg.DeployDir == "" {
		cfg.DeployDir = DefaultDeployDir
	}

	all := generatorsOf(cfg)
	cfg.gens, cfg.partial = all, len(cfg.Only) > 0
	if cfg.partial {
		for _, name := range cfg.Only {
			if !slices.ContainsFunc(all, func(g Generator) bool { return g.Name() == name }) {
				return cfg, fmt.Errorf("unknown generator %q in --only (known: %s)", name, strings.Join(Names(), ", "))
			}
		}
		cfg.gens = slices.DeleteFunc(slices.Clone(all), func(g Generator) bool { return !slices.Contains(cfg.Only, g.Name()) })
	}
	cfg.complete = true
	return cfg, nil
}

// generatorsOf lists every generator, configured by cfg, in the order they
// run.
func generatorsOf(cfg Config) []Generator {
	return []Generator{
		crd.Generator{Dir: cfg.CRDDir},
		deepcopy.Generator{},
		conversion.Generator{},
		webhook.Generator{Main: cfg.WebhookMain},
		deploy.Generator{Dir: cfg.DeployDir, CRDDir: cfg.CRDDir},
	}
}

// Names lists the generators' names, in the order they run.
func Names() []string {
	var names []string
	for _, g := range generatorsOf(Config{}) {
		names = append(names, g.Name())
	}
	return names
}

// modelOptions is what the model must resolve for the generators that run
// and for the caller.
func (cfg Config) modelOptions() model.Options {
	opts := cfg.Resolve
	for _, g := range cfg.gens {
		opts = opts.With(g.Needs())
	}
	return opts
}
