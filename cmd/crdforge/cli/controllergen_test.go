package cli

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/crdforge/crdforge/generators/pipeline"
	"github.com/crdforge/crdforge/internal/controllergen"
	"github.com/crdforge/crdforge/internal/diag"
	"github.com/crdforge/crdforge/internal/output"
)

// TestCRDsMatchControllerGen is a differential test of controller-gen's
// options: for each case that sets them through its flags file, it runs
// controller-tools' own crd generator (the version in go.mod, as a library,
// as controller-gen's main runs it) with the same options, and requires
// crdforge's CRDs to equal its output but for what crdforge does on purpose:
// versions in priority order, the conversion stanza, cert-manager's
// annotation.
func TestCRDsMatchControllerGen(t *testing.T) {
	for _, name := range []string{
		"dangerous", "unexported", "maxdesclen", "embeddedmeta", "header",
		// a license header (with " YEAR" and no year) before every CRD
		"crdheader",
		// deprecated versions with and without a warning, an unserved one
		"deprecation",
		// oneOf-style, CEL, enum, externalDocs, resource, printer-column,
		// subresource, default, format, pattern, list-type, embedded,
		// preserve-unknown-fields and nullable markers
		"validation",
		// several kinds in one group, two of them in two versions
		"multikind",
		// an older version whose types are aliases of the newer one's
		"aliases",
		// Cluster API's shape: hand-written conversions over conversion-gen's
		"takeover",
		// two API directories as two patterns, which controller-gen too is given
		"patterns",
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			cfg := caseConfig(t, dir) // from its flags file or .crdforge.yaml

			cfg.Only = []string{"crd"}
			res, err := pipeline.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diags.Items() {
				if d.Severity != diag.Warning { // warnings are the golden case's (want/warnings.txt)
					t.Fatalf("crdforge: %s", d.Format(dir))
				}
			}
			type file struct {
				*apiextensionsv1.CustomResourceDefinition
				raw []byte
			}
			ours := map[string]file{}
			for _, f := range res.Files {
				ours[filepath.Base(f.Path)] = file{decodeCRD(t, f.Content), f.Content}
			}
			var headerFile string
			if cfg.CRDHeaderFile != "" {
				headerFile = filepath.Join(dir, cfg.CRDHeaderFile) // controller-gen reads it from its working directory
			}
			theirs, err := controllergen.CRDs(dir, crd.Generator{
				AllowDangerousTypes:        &cfg.AllowDangerousTypes,
				IgnoreUnexportedFields:     &cfg.IgnoreUnexportedFields,
				MaxDescLen:                 cfg.MaxDescLen,
				GenerateEmbeddedObjectMeta: &cfg.GenerateEmbeddedObjectMeta,
				HeaderFile:                 headerFile,
				Year:                       cfg.Year,
			}, cfg.Patterns...)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := slices.Sorted(maps.Keys(ours)), slices.Sorted(maps.Keys(theirs)); !slices.Equal(got, want) {
				t.Fatalf("crdforge wrote %v, controller-gen %v", got, want)
			}
			for file, b := range theirs {
				// The text before the first document: controller-gen's
				// header, which crdforge writes the same, followed by its
				// own header line.
				if want, got := controllergen.Header(b), controllergen.Header(ours[file].raw); got != want+output.YAMLHeader+"\n" {
					t.Errorf("%s starts with\n%s\nwant controller-gen's header and crdforge's line:\n%s%s", file, got, want, output.YAMLHeader)
				}
				want := controllergen.Normalize(decodeCRD(t, b))
				got := controllergen.Normalize(ours[file].CustomResourceDefinition)
				if got != want {
					t.Errorf("%s differs from controller-gen's:\n%s", file, firstDiff(want, got))
				}
			}
		})
	}
}

// decodeCRD reads the one CRD of a YAML file.
func decodeCRD(t *testing.T, b []byte) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	c, err := controllergen.DecodeCRD(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestManifestsMatchControllerGen is a differential test of the rbac and
// admission generators: on each case, crdforge's config/rbac/role.yaml and
// config/webhook/manifests.yaml are byte for byte what controller-tools'
// own rbac and webhook generators (the version in go.mod, as controller-gen
// runs them for kubebuilder's `controller-gen rbac:roleName=manager-role
// webhook paths="./..."`) write, and exist exactly when theirs do.
func TestManifestsMatchControllerGen(t *testing.T) {
	for _, name := range []string{
		// markers in the controllers and webhooks, outside the API: rules
		// merged, a Role per namespace, a second ClusterRole by roleName,
		// a named ValidatingWebhookConfiguration
		"kubebuilderrbac",
		// a kubebuilder project without any: neither file
		"kubebuilder",
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join(testdataDir, name))
			cfg := caseConfig(t, dir)
			cfg.Only = []string{"rbac", "admission"}
			res, err := pipeline.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range res.Diags.Items() {
				if d.Severity != diag.Warning {
					t.Fatalf("crdforge: %s", d.Format(dir))
				}
			}
			ours := map[string][]byte{}
			for _, f := range res.Files {
				rel, err := filepath.Rel(dir, filepath.Join(dir, f.Path))
				if err != nil {
					t.Fatal(err)
				}
				ours[filepath.ToSlash(rel)] = f.Content
			}
			theirs, err := controllergen.Manifests(dir, "manager-role", cfg.Patterns...)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range slices.Sorted(maps.Keys(theirs)) {
				if got, ok := ours[p]; !ok {
					t.Errorf("controller-gen writes %s, crdforge does not", p)
				} else if string(got) != string(theirs[p]) {
					t.Errorf("%s differs from controller-gen's\n crdforge:\n%s\n controller-gen:\n%s", p, got, theirs[p])
				}
			}
			for _, p := range slices.Sorted(maps.Keys(ours)) {
				if _, ok := theirs[p]; !ok {
					t.Errorf("crdforge writes %s, controller-gen does not", p)
				}
			}
			if name == "kubebuilderrbac" && len(theirs) != 2 {
				t.Errorf("controller-gen wrote %d files, want role.yaml and manifests.yaml: the case lost its markers", len(theirs))
			}
		})
	}
}
