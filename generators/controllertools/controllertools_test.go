package controllertools

import (
	"path/filepath"
	"testing"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdforge/crdforge/generators/load"
	"github.com/crdforge/crdforge/generators/model"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/markers"
)

// loadCase is the model these generators read of a golden case: its roots
// and the marker collector, and its kubebuilder project.
func loadCase(t *testing.T, name string) *model.Model {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", name))
	ld, err := load.Packages(dir, []string{"./..."})
	if err != nil {
		t.Fatal(err)
	}
	regs, err := markers.NewRegistries()
	if err != nil {
		t.Fatal(err)
	}
	return &model.Model{Dir: dir, Fset: ld.Fset, Roots: ld.Roots, Kubebuilder: ld.Kubebuilder,
		Collector: &ctmarkers.Collector{Registry: regs.Kubebuilder}, Checker: ld.Checker}
}

// Both generators write in a kubebuilder project by default (Auto), and
// outside one only when switched On: a project without kubebuilder's
// Makefile may keep its RBAC and admission manifests by hand.
func TestWritesInAKubebuilderProjectOrWhenOn(t *testing.T) {
	m := loadCase(t, "kubebuilderrbac")
	if m.Kubebuilder == nil {
		t.Fatal("the case's PROJECT file is not read")
	}
	project := m.Kubebuilder
	for _, tc := range []struct {
		sw        Switch
		inProject bool
		want      int
	}{
		{Auto, true, 2},
		{Auto, false, 0},
		{On, false, 2},
		{On, true, 2},
		{Off, true, 0},
	} {
		m.Kubebuilder = nil
		if tc.inProject {
			m.Kubebuilder = project
		}
		diags := diag.New(m.Fset)
		files := RBAC{Switch: tc.sw, RoleName: DefaultRoleName, Dir: DefaultRBACDir}.Generate(m, diags)
		files = append(files, Admission{Switch: tc.sw, Dir: DefaultAdmissionDir}.Generate(m, diags)...)
		if diags.HasErrors() {
			t.Fatalf("switch %v: %v", tc.sw, diags.Items())
		}
		if len(files) != tc.want {
			t.Errorf("switch %v, kubebuilder project %v: %d files, want %d", tc.sw, tc.inProject, len(files), tc.want)
		}
		for _, f := range files {
			if want := []string{filepath.Join(DefaultRBACDir, roleFile), filepath.Join(DefaultAdmissionDir, admissionFile)}; f.Path != want[0] && f.Path != want[1] {
				t.Errorf("switch %v: a file at %s, want %v", tc.sw, f.Path, want)
			}
		}
	}
}
