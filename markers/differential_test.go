package markers

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/internal/diag"
)

// TestCollectAgreesWithControllerTools runs crdforge's collector and
// controller-tools' own on the same sources and compares, node by node,
// which markers each associates with which package, type or field. Only
// markers registered for the node's kind take part: controller-tools skips
// the others silently where crdforge reports them.
func TestCollectAgreesWithControllerTools(t *testing.T) {
	for _, fixture := range []string{"testdata/assoc", "testdata/shapes"} {
		t.Run(fixture, func(t *testing.T) {
			fset := token.NewFileSet()
			roots, err := loader.LoadRootsWithConfig(&packages.Config{Dir: fixture, Fset: fset})
			if err != nil || len(roots) != 1 {
				t.Fatalf("loading %s: %v (%d roots)", fixture, err, len(roots))
			}
			pkg := roots[0]
			regs, err := NewRegistries()
			if err != nil {
				t.Fatal(err)
			}
			both := combined(t, regs)

			ours := map[string]int{}
			set := regs.Collect(pkg, diag.New(fset))
			for node, comments := range set.Comments {
				for _, c := range comments {
					if def := both.Lookup(c.Text, targetOf(node)); def != nil {
						ours[key(fset, node, def.Name)]++
					}
				}
			}

			theirs := map[string]int{}
			found, err := (&ctmarkers.Collector{Registry: both}).MarkersInPackage(pkg)
			if err != nil {
				t.Fatal(err)
			}
			for node, values := range found {
				for name, vals := range values {
					theirs[key(fset, node, name)] += len(vals)
				}
			}

			if len(theirs) < 3 {
				t.Fatalf("controller-tools found only %d markers: the fixture does not exercise the collector", len(theirs))
			}
			for _, k := range union(ours, theirs) {
				if ours[k] != theirs[k] {
					t.Errorf("%s: crdforge collects %d, controller-tools %d", k, ours[k], theirs[k])
				}
			}
		})
	}
}

// combined registers the definitions of regs' two registries, controller-gen's
// markers and crdforge's, in one registry: the markers regs.Collect knows, as
// controller-tools would see them if it knew crdforge's.
func combined(t *testing.T, regs *Registries) *ctmarkers.Registry {
	t.Helper()
	both := &ctmarkers.Registry{}
	for _, reg := range []*ctmarkers.Registry{regs.Crdforge, regs.Kubebuilder} {
		for _, def := range reg.AllDefinitions() {
			if err := both.Register(def); err != nil {
				t.Fatal(err)
			}
		}
	}
	return both
}

// key names a marker on a node: "type Plain: kubebuilder:object:root".
func key(fset *token.FileSet, node ast.Node, name string) string {
	var where string
	switch n := node.(type) {
	case *ast.File:
		where = "package (" + fset.Position(n.Package).Filename[strings.LastIndex(fset.Position(n.Package).Filename, "/")+1:] + ")"
	case *ast.TypeSpec:
		where = "type " + n.Name.Name
	case *ast.Field:
		where = fmt.Sprintf("field at %s", fset.Position(n.Pos()))
		if len(n.Names) > 0 {
			where = "field " + n.Names[0].Name
		}
	default:
		where = fmt.Sprintf("%T at %s", node, fset.Position(node.Pos()))
	}
	return where + ": " + name
}

func union(a, b map[string]int) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
