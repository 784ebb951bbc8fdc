// Command controllergencmd is controller-gen v0.23's main with only its
// `object` and `crd` generators registered: the peer of the scaling
// benchmark (generators/pipeline's BenchmarkScale), run as a process as
// users run `controller-gen object crd paths=./...`. The real main cannot be
// built from this module's module cache: it also registers the
// applyconfiguration generator, whose k8s.io/code-generator this module
// does not require. Everything it runs for those two generators (option
// parsing, one load, the generators, the output rules) is controller-tools'
// own code, as in controller-gen.
package main

import (
	"fmt"
	"os"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

func main() {
	registry, err := optionsRegistry()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	rt, err := genall.FromOptions(registry, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if failed := rt.Run(); failed {
		os.Exit(1)
	}
}

// optionsRegistry registers the generators and output rules as
// controller-gen's init does, so that its command lines parse the same.
func optionsRegistry() (*markers.Registry, error) {
	generators := map[string]genall.Generator{"crd": crd.Generator{}, "object": deepcopy.Generator{}}
	rules := map[string]genall.OutputRule{
		"dir":       genall.OutputToDirectory(""),
		"none":      genall.OutputToNothing,
		"stdout":    genall.OutputToStdout,
		"artifacts": genall.OutputArtifacts{},
	}
	registry := &markers.Registry{}
	register := func(name string, obj any) error {
		defn, err := markers.MakeDefinition(name, markers.DescribesPackage, obj)
		if err != nil {
			return err
		}
		return registry.Register(defn)
	}
	for genName, gen := range generators {
		if err := register(genName, gen); err != nil {
			return nil, err
		}
		for ruleName, rule := range rules {
			if err := register(fmt.Sprintf("output:%s:%s", genName, ruleName), rule); err != nil {
				return nil, err
			}
		}
	}
	for ruleName, rule := range rules {
		if err := register("output:"+ruleName, rule); err != nil {
			return nil, err
		}
	}
	return registry, genall.RegisterOptionsMarkers(registry)
}
