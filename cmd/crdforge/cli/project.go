package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	yaml "go.yaml.in/yaml/v3"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/settings"
)

// ProjectFile is where a project sets crdforge generate's flags once, such
// as controller-gen's options: a YAML map in the directory crdforge runs
// in, from flag names (without --) to values, for example
//
//	max-desc-len: 0
//	header-file: hack/boilerplate.go.txt
//	year: "2026"
//	only: [crd, deepcopy]
//
// A flag given on the command line wins over the file. Paths are relative to
// the directory, as on the command line.
const ProjectFile = settings.ProjectFile

// projectError is a problem in the project file, already positioned as
// file:line:col: message.
type projectError []string

func (e projectError) Error() string { return strings.Join(e, "\n") }

// applyProjectFile sets, from dir's project file when there is one, every
// flag of f that binds pipeline.Config (bindConfigFlags) and that the
// command line left unset. Every problem is reported, each at its key or
// value.
func applyProjectFile(f *pflag.FlagSet, dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, ProjectFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return projectError{fmt.Sprintf("%s: %v", ProjectFile, err)}
	}
	if len(doc.Content) == 0 {
		return nil // an empty file
	}
	top := doc.Content[0]
	at := func(n *yaml.Node, format string, a ...any) string {
		return fmt.Sprintf("%s:%d:%d: %s", ProjectFile, n.Line, n.Column, fmt.Sprintf(format, a...))
	}
	if top.Kind != yaml.MappingNode {
		return projectError{at(top, "want a map from flag names of crdforge generate to values")}
	}
	known := pflag.NewFlagSet("", pflag.ContinueOnError)
	bindConfigFlags(known, &pipeline.Config{})
	var names []string
	known.VisitAll(func(fl *pflag.Flag) { names = append(names, fl.Name) })

	var errs projectError
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i], top.Content[i+1]
		name := key.Value
		if name == "check" {
			continue // crdforge check's settings (checkConfig)
		}
		if !slices.Contains(names, name) {
			errs = append(errs, at(key, "unknown key %q", name)+"\n  = help: the keys are flags of crdforge generate: "+strings.Join(names, ", "))
			continue
		}
		var value string
		switch val.Kind {
		case yaml.ScalarNode:
			value = val.Value
		case yaml.SequenceNode:
			var items []string
			for _, item := range val.Content {
				items = append(items, item.Value)
			}
			value = strings.Join(items, ",")
		default:
			errs = append(errs, at(val, "%s: want a value or a list", name))
			continue
		}
		if f.Changed(name) {
			continue // the command line wins
		}
		if err := f.Set(name, value); err != nil {
			errs = append(errs, at(val, "%s: %v", name, err))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// projectConfig is the pipeline.Config that dir's project file alone
// makes, for commands other than generate. A problem in the file is printed
// and ends the run with ExitErrors.
func projectConfig(dir string, stderr io.Writer) (pipeline.Config, error) {
	cfg := pipeline.Config{Dir: dir}
	f := pflag.NewFlagSet("", pflag.ContinueOnError)
	bindConfigFlags(f, &cfg)
	if err := reportProjectFile(applyProjectFile(f, dir), stderr); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// reportProjectFile prints the problems of the project file, if err holds
// them, and turns them into ExitErrors.
func reportProjectFile(err error, stderr io.Writer) error {
	var perr projectError
	if !errors.As(err, &perr) {
		return err
	}
	for _, line := range perr {
		printErr(stderr, line)
	}
	return exitError{ExitErrors}
}
