package load

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"
	"testing"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// bodies is a package whose functions hold what a body can: marker
// comments, a local struct type with markers on its fields, a function
// literal, and a comment on the line of the closing brace, each right
// before a type whose markers must stay its own.
var bodies = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.21\n",
	"v1/types.go": `// +groupName=example.com
package v1

func Before() int {
	// +kubebuilder:validation:Minimum=3
	type local struct {
		// +kubebuilder:validation:MaxLength=4
		Name string ` + "`json:\"name\"`" + `
	}
	f := func() {
		// +kubebuilder:validation:Optional
	}
	f()
	return len(local{}.Name) } // +kubebuilder:validation:Maximum=9
// +kubebuilder:object:root=true

// Widget is a kind.
type Widget struct {
	// +kubebuilder:validation:MinLength=1
	Name string ` + "`json:\"name\"`" + `
}

func (w *Widget) Method() {
	// +kubebuilder:validation:Required
}

// +kubebuilder:validation:Enum=a;b
type Mode string
`,
}

// markerDump lists every marker controller-tools' collector finds on the
// types and fields of pkg, one line each.
func markerDump(t *testing.T, pkg *loader.Package) string {
	t.Helper()
	reg := &ctmarkers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		t.Fatal(err)
	}
	col := &ctmarkers.Collector{Registry: reg}
	var lines []string
	err := ctmarkers.EachType(col, pkg, func(info *ctmarkers.TypeInfo) {
		for name, vals := range info.Markers {
			lines = append(lines, fmt.Sprintf("%s %s %v", info.Name, name, vals))
		}
		for _, f := range info.Fields {
			for name, vals := range f.Markers {
				lines = append(lines, fmt.Sprintf("%s.%s %s %v", info.Name, f.Name, name, vals))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgMarkers, err := ctmarkers.PackageMarkers(col, pkg)
	if err != nil {
		t.Fatal(err)
	}
	for name, vals := range pkgMarkers {
		lines = append(lines, fmt.Sprintf("package %s %v", name, vals))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// Parsing ahead drops function bodies, and with them nothing any reader of
// the trees sees: controller-tools' marker collector finds on every type,
// field and the package what it finds in the tree the loader parses whole.
func TestParseAheadDropsBodiesOnly(t *testing.T) {
	dir := writeTree(t, bodies)
	r, err := Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	r.Check()
	ahead := root(t, r, "example.com/m/v1")
	for _, f := range ahead.Syntax {
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && len(fn.Body.List) > 0 {
				t.Errorf("%s still has its body's %d statements", fn.Name.Name, len(fn.Body.List))
			}
		}
	}
	if len(ahead.Errors) > 0 {
		t.Fatalf("errors: %v", ahead.Errors)
	}

	whole, err := loader.LoadRoots(dir + "/v1")
	if err != nil {
		t.Fatal(err)
	}
	got, want := markerDump(t, ahead), markerDump(t, whole[0])
	if got != want {
		t.Errorf("markers with bodies dropped:\n%s\nwith bodies parsed:\n%s", got, want)
	}
	if !strings.Contains(want, "Widget.Name kubebuilder:validation:MinLength") || !strings.Contains(want, "Mode kubebuilder:validation:Enum") {
		t.Errorf("the fixture's markers were not found:\n%s", want)
	}
}
