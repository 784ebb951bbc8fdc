package load

import (
	"slices"
	"testing"
)

func TestParseKubebuilderProject(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          *KubebuilderProject
	}{
		{"config version 3", "domain: x.io\nlayout:\n- go.kubebuilder.io/v4\nprojectName: project\nversion: \"3\"\n",
			&KubebuilderProject{Name: "project", Layout: []string{"go.kubebuilder.io/v4"}}},
		{"config version 2, layout as a string", "layout: go.kubebuilder.io/v3\nprojectName: old\n",
			&KubebuilderProject{Name: "old", Layout: []string{"go.kubebuilder.io/v3"}}},
		{"no layout", "projectName: project\n", nil},
		{"no projectName", "layout:\n- go.kubebuilder.io/v4\n", nil},
		{"not YAML", "layout: [\n", nil},
		{"some other tool's PROJECT", "Project X: plans and notes\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseKubebuilderProject([]byte(tc.content))
			if ok != (tc.want != nil) {
				t.Fatalf("detected = %v, want %v", ok, tc.want != nil)
			}
			if ok && (got.Name != tc.want.Name || !slices.Equal(got.Layout, tc.want.Layout)) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
