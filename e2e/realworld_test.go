package e2e

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/crdforge/crdforge/internal/controllergen"
	"github.com/crdforge/crdforge/runtime/conversiontest"
)

// realWorldAPI is a multi-version API that nobody here wrote, as published
// in a Go module at an exact version.
type realWorldAPI struct {
	name            string
	module, version string
	// dirs are the module's directories copied into the test's module, with
	// its go.mod and go.sum; nil copies the whole module.
	dirs []string
	// args are crdforge generate's flags for this API, as its README
	// advises them.
	args []string
	// prepare edits the copy as its project's own tooling would, before
	// crdforge runs.
	prepare func(t *testing.T, dir string)
	// roundTrip runs the generated round-trip tests. Without it they are
	// only compiled: they exercise the project's hand-written conversions,
	// whose losses are the project's business (see realWorldAPIs).
	roundTrip bool
	// internalHub says the API's kinds convert through an unversioned
	// internal package with conversion-gen: crdforge must write no
	// conversion, and leave conversion-gen's files as they are.
	internalHub bool
	// beforeOwnTests edits the copy after crdforge ran, before ownTests:
	// tests that load the project's CRDs from a path of its own get
	// crdforge's there.
	beforeOwnTests func(t *testing.T, dir string)
	// webhook names CRD files, in config/crd/bases, whose kinds convert
	// through crdforge's webhook: strategy Webhook, not the None a kind
	// keeps when a conversion needs a function nobody has written.
	webhook []string
	// ownTests are packages whose own tests (the generated round trips
	// aside) run against crdforge's output: the project's conversion
	// tests, which call the Convert_ functions crdforge now writes.
	ownTests []string
}

// realWorldAPIs are fetched through the Go module proxy at test time, never
// copied into this repository.
var realWorldAPIs = []realWorldAPI{
	{
		// Four versions of one group. v1beta1's types are aliases of v1's
		// (type GatewaySpec = v1.GatewaySpec), so v1beta1 imports v1, and
		// ReferenceGrant's storage version is v1beta1: v1 must be its hub.
		// Every conversion is mechanical.
		name: "gateway-api", module: "sigs.k8s.io/gateway-api", version: "v1.5.0",
		dirs:      []string{"apis"},
		prepare:   approveGatewayAPI,
		roundTrip: true,
	},
	{
		// Ten kinds; AlertmanagerConfig has v1alpha1 (storage, hand-written
		// Hub) and v1beta1 (hand-written ConvertTo and ConvertFrom). Those
		// conversions lose data on random input (they carry routes as raw
		// JSON, and drop fields v1beta1 lacks): the generated round-trip
		// tests report it, so here they are only compiled.
		name: "prometheus-operator", module: "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring", version: "v0.80.0",
	},
	{
		// Flux's source-controller API: three versions of five kinds and no
		// conversion code at all (Flux serves them without a webhook):
		// every conversion is crdforge's.
		name: "flux-source-controller", module: "github.com/fluxcd/source-controller/api", version: "v1.4.1",
		// Three fields, one per version, drop an explicit zero for their
		// default, where the schema admits the zero: HelmChart's
		// `Version string` with omitempty and default "*". Flux's own
		// fields to fix; until then they are warnings.
		args:      []string{"--allow-dropped-zeros"},
		roundTrip: true,
	},
	{
		// v1alpha1's hand-written ConvertTo and ConvertFrom assert the hub
		// type in their bodies, and both versions declare
		// `var _ GenericStore = &SecretStore{}`, an interface embedding
		// runtime.Object: DeepCopyObject is in zz_generated.deepcopy.go,
		// which the load hides. The conversions marshal through JSON and
		// lose fields on random input: the round-trip tests only compile.
		name: "external-secrets", module: "github.com/external-secrets/external-secrets", version: "v0.10.7",
		dirs: []string{"apis"},
		// Eight fields drop an explicit zero for their default, where the
		// schema admits the zero: the Kubernetes provider's
		// `RemoteNamespace string` with omitempty and default "default",
		// among others. Warnings until the project fixes them.
		args: []string{"--allow-dropped-zeros"},
	},
	{
		// Flux's notification-controller API: Alert and Provider in
		// v1beta1, v1beta2 and v1beta3 (storage), Receiver in v1beta1,
		// v1beta2 and v1 (storage), no conversion code. v1beta2's and
		// v1beta3's kinds hold v1's CrossNamespaceObjectReference, so
		// converting v1beta1's Alert to v1beta3 calls the Convert_ that
		// crdforge generates for Receiver's v1beta1 and v1.
		name: "flux-notification-controller", module: "github.com/fluxcd/notification-controller/api", version: "v1.6.0",
		roundTrip: true,
		webhook: []string{
			"notification.toolkit.fluxcd.io_alerts.yaml",
			"notification.toolkit.fluxcd.io_providers.yaml",
			"notification.toolkit.fluxcd.io_receivers.yaml",
		},
	},
	{
		// conversion-gen output beside hand-written Convert_ functions and
		// ConvertTo/ConvertFrom that call them (v1beta1 to the v1beta2
		// hub); its own conversion tests run on crdforge's Convert_.
		name: "kueue", module: "sigs.k8s.io/kueue", version: "v0.15.0",
		dirs:     []string{"apis/kueue", "pkg/util/tas"},
		ownTests: []string{"./apis/kueue/v1beta1"},
		// v1beta1's AdmissionCheckSpec.RetryDelayMinutes, deprecated, is
		// gone from v1beta2, and kueue's hand-written Convert_ drops it:
		// the generated TestReaches_ reports that, as it should, until the
		// field is marked as living in v1beta1 only, as an adopter would.
		prepare: markKueueRetryDelay,
	},
	{
		// A Cluster API provider's group: conversion-gen output, and
		// hand-written ConvertTo/ConvertFrom on the kinds and on their
		// lists, which call Convert_v1beta1_EKSConfigList_To_... (so the
		// lists are paired as conversion-gen pairs them). Its own
		// TestFuzzyConversion runs on crdforge's Convert_; the generated
		// round trips only compile: the hand-written ConvertFrom stores
		// the hub in an annotation of its source, as Cluster API's do.
		name: "cluster-api-provider-aws", module: "sigs.k8s.io/cluster-api-provider-aws/v2", version: "v2.7.1",
		dirs:     []string{"bootstrap/eks/api"},
		ownTests: []string{"./bootstrap/eks/api/v1beta1"},
	},
	{
		// Longhorn's v1beta1 (schemaless, hand-written ConvertTo and
		// ConvertFrom through jinzhu/copier, five kinds) and v1beta2 (the
		// hub, 22 kinds). Its deepcopy was deepcopy-gen's: v1beta1's
		// BackingImageSpec holds a map[string]struct{}, which controller-
		// tools' deepcopy cannot copy; crdforge copies that type itself
		// (testdata/unnamedstruct). The copier conversions drop what
		// v1beta1 lacks: the round trips only compile.
		name: "longhorn", module: "github.com/longhorn/longhorn-manager", version: "v1.7.2",
		dirs: []string{"k8s/pkg/apis"},
	},
	{
		// Karpenter's v1 (storage) and v1beta1 of NodePool and NodeClaim.
		// v1 converts itself with knative-style ConvertTo(ctx,
		// apis.Convertible) and imports v1beta1, the hub: crdforge writes
		// no ConvertTo or ConvertFrom beside those, only the Convert_
		// functions, and says so (testdata/foreignconvert). The API
		// packages import three small packages of the module; their tests
		// need its test framework, so they are left out.
		name: "karpenter", module: "sigs.k8s.io/karpenter", version: "v1.0.8",
		dirs:    []string{"pkg/apis", "pkg/operator/injection", "pkg/operator/options", "pkg/utils/env"},
		prepare: removeTests,
		// Two fields, one per version, drop an explicit zero for their
		// default, where the schema admits the zero: NodePool's
		// `Budgets []Budget` with omitempty and default
		// [{"nodes":"10%"}], which a client's [] becomes. Warnings until
		// the project fixes them.
		args: []string{"--allow-dropped-zeros"},
	},
	{
		// Kyverno's policies: ClusterPolicy and Policy in v1 (storage) and
		// v2beta1, served with conversion None and no conversion code. A
		// precondition is raw JSON in v1 and a struct in v2beta1, which
		// only a hand-written function converts: the two kinds keep
		// strategy None (testdata/nonefallback); CEL preconditions are
		// admissionregistration's v1alpha1 MatchCondition in one and v1's
		// in the other, which convert as they are (testdata/graduated).
		// Its other kinds' conversions are crdforge's, round trips
		// included. The API packages import seven small packages of the
		// module; their tests need much more, so they are left out.
		name: "kyverno", module: "github.com/kyverno/kyverno", version: "v1.12.5",
		dirs: []string{"api/kyverno", "api/policyreport", "ext/wildcard", "pkg/engine/variables/regex", "pkg/logging",
			"pkg/pss/utils", "pkg/toggle", "pkg/utils/data", "pkg/utils/kube"},
		prepare:   removeTests,
		roundTrip: true,
	},
	{
		// Open Cluster Management's cluster group: ManagedClusterSet and
		// ManagedClusterSetBinding in v1beta1 and v1beta2, no conversion
		// code, deepcopy-gen's package-wide switch, and helpers taking
		// listers as exported interfaces, which get no deepcopy methods
		// (testdata/listers). ManagedClusterSet's SelectorType enum
		// renamed a value, which crdforge refuses to store unconverted:
		// its round trips fail on random values, so they only compile.
		name: "open-cluster-management", module: "open-cluster-management.io/api", version: "v0.11.0",
		dirs:    []string{"cluster"},
		prepare: storeV1beta2ClusterSets,
	},
	{
		// Gatekeeper's ConstraintTemplate: v1 (storage), v1beta1 and
		// v1alpha1 each convert through the unversioned internal package
		// pkg/core/templates with conversion-gen, and the project's
		// hand-written code calls those functions and RegisterConversions.
		// crdforge leaves conversion-gen's files and strategy None as they
		// are (testdata/internalhub), so there are no round trips of
		// crdforge's. Its own tests (conversions, and storage through the
		// API server of the CRD in deploy/crds.yaml, crdforge's here) run.
		// The module has no tagged release: this is the proxy's latest
		// pseudo-version.
		name: "gatekeeper", module: "github.com/open-policy-agent/frameworks/constraint", version: "v0.0.0-20260616163050-e1eaa1bf6d62",
		dirs:           []string{"pkg/apis/templates", "pkg/core/templates", "pkg/schema", "pkg/client/drivers/rego/schema"},
		internalHub:    true,
		beforeOwnTests: gatekeeperCRDs,
		ownTests:       []string{"./pkg/apis/templates/..."},
	},
	{
		// cert-manager's six kinds in v1alpha2, v1alpha3, v1beta1 and v1
		// (storage), no conversion code in pkg/apis: the project converts
		// them with conversion-gen in pkg/internal/apis/<group>/<version>
		// (+k8s:conversion-gen-external-types), which its CRD run over
		// pkg/apis does not load. The version packages' doc.go still name
		// pkg/apis/certmanager and pkg/apis/acme with +k8s:conversion-gen,
		// packages that declare no type: conversion-gen writes an empty
		// RegisterConversions there, so the conversions are crdforge's,
		// through v1, and every kind converts through its webhook.
		// Challenge's type enum changed its values (http-01 became
		// HTTP-01), which only a hand-written Convert_ maps and crdforge
		// refuses to store unconverted: the round trips only compile.
		name: "cert-manager", module: "github.com/jetstack/cert-manager", version: "v1.6.3",
		dirs: []string{"pkg/apis"},
		webhook: []string{
			"acme.cert-manager.io_challenges.yaml",
			"acme.cert-manager.io_orders.yaml",
			"cert-manager.io_certificaterequests.yaml",
			"cert-manager.io_certificates.yaml",
			"cert-manager.io_clusterissuers.yaml",
			"cert-manager.io_issuers.yaml",
		},
	},
}

// storeV1beta2ClusterSets removes +kubebuilder:storageversion from Open
// Cluster Management's v1beta1 cluster sets: both versions carry it, and
// the project's own CRD files store v1beta2 (it runs controller-gen on one
// version at a time).
func storeV1beta2ClusterSets(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "cluster", "v1beta1", "types_managedclusterset*.go"))
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(string(b), "\n") {
			if l == "// +kubebuilder:storageversion" {
				removed++
				continue
			}
			out = append(out, l)
		}
		if err := os.WriteFile(f, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if removed != 2 {
		t.Fatalf("removed %d +kubebuilder:storageversion markers from v1beta1's cluster sets, want 2: the layout changed", removed)
	}
}

// wroteConversions reports whether crdforge generate's output says it wrote
// a conversion file.
func wroteConversions(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "wrote ") && strings.HasSuffix(line, "zz_generated.conversion.go") {
			return true
		}
	}
	return false
}

// gatekeeperCRDs puts crdforge's ConstraintTemplate CRD where Gatekeeper's
// test suites load it from (deploy/crds.yaml, which the copy leaves out).
func gatekeeperCRDs(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config", "crd", "bases", "templates.gatekeeper.sh_constrainttemplates.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deploy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deploy", "crds.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// removeTests deletes the copy's test files, whose imports reach far beyond
// the directories copied.
func removeTests(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(p, "_test.go") {
			err = os.Remove(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRealWorldAPIs tries crdforge as a new user would on real multi-version
// APIs, each copied from its module into a module of its own with its
// controller-gen output in place: crdforge generate ./... exits 0 (and so
// takes over the zz_generated files and writes everything else); with the
// runtime module required and tidied in, the module builds and vets, its
// generated round-trip tests with it (and they pass where the conversions
// are crdforge's); and every CRD equals controller-gen's, run here as a library
// over the same packages, but for what crdforge does on purpose (version
// order, the conversion stanza).
//
// It needs no control plane. The first run downloads the modules and their
// requirements through the proxy; without the proxy it skips, or fails
// when CRDFORGE_E2E_REQUIRED is set.
func TestRealWorldAPIs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: downloads and builds real API modules")
	}
	root := repoRoot
	if root == "" {
		var err error
		if root, err = RepoRoot(); err != nil {
			t.Fatal(err)
		}
	}
	// Bounded by go test's -timeout: a first run into an empty build cache
	// compiles every project's dependencies from nothing.
	ctx := UntilDeadline(t)
	tmp := t.TempDir()
	cf := crdforge
	if cf == "" {
		var err error
		if cf, err = BuildCrdforge(ctx, root, filepath.Join(tmp, "bin")); err != nil {
			t.Fatal(err)
		}
	}
	// Some projects' test packages start a control plane with envtest in
	// TestMain, even when no test runs: they get the real one.
	if assets, err := AssetsDir(root); err == nil {
		t.Setenv("KUBEBUILDER_ASSETS", assets)
	}
	// The round trips prove crdforge's conversions of real types lossless
	// on 2,000 random objects each way, as the golden cases' do
	// (TestGoldenGoCompiles); the default 10,000 is for the projects' own
	// go test, and here would take a minute of CPU on kyverno's policies.
	t.Setenv(conversiontest.IterationsEnv, "2000")
	for _, api := range realWorldAPIs {
		t.Run(api.name, func(t *testing.T) {
			// Two at a time (go test's -parallel is GOMAXPROCS): one
			// project's single-threaded steps (tidy, links, its own tests)
			// overlap another's compiles.
			t.Parallel()
			dir := filepath.Join(tmp, api.name)
			copyModule(ctx, t, api, dir)
			if api.prepare != nil {
				api.prepare(t, dir)
			}
			p := &kbProject{t: t, ctx: ctx, dir: dir}
			p.mustRun("go", "mod", "edit",
				"-require=github.com/crdforge/crdforge/runtime@v0.0.0-00010101000000-000000000000",
				"-replace=github.com/crdforge/crdforge/runtime="+filepath.Join(root, "runtime"))
			generate := append(append([]string{"generate"}, api.args...), "./...")
			out := p.mustRun(cf, generate...)
			if wrote := wroteConversions(out); wrote == api.internalHub {
				if wrote {
					t.Errorf("crdforge generate replaced conversion-gen's conversions through the internal package:\n%s", tail(out, 4000))
				} else {
					t.Errorf("crdforge generate wrote no conversions:\n%s", tail(out, 4000))
				}
			}
			// The generated webhook main imports the generator's own module
			// (the examples' end-to-end tests build and run it); a project
			// keeps it in a module of its own.
			if err := os.RemoveAll(filepath.Join(dir, "cmd", "webhook")); err != nil {
				t.Fatal(err)
			}
			p.mustRun("go", "mod", "tidy")
			StopIfFetching(t)
			// Tidying may raise the module's requirements to the runtime's
			// (k8s.io v0.34: prometheus-operator's are v0.32), and with them
			// the schemas of the core types its CRDs embed: generate again,
			// as a user would, and the output is then stable.
			p.mustRun(cf, generate...)
			if err := os.RemoveAll(filepath.Join(dir, "cmd", "webhook")); err != nil {
				t.Fatal(err)
			}
			for _, name := range api.webhook {
				b, err := os.ReadFile(filepath.Join(dir, "config", "crd", "bases", name))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), "\n    strategy: Webhook\n") {
					t.Errorf("%s: the kind does not convert through the webhook", name)
				}
			}
			p.mustRun("go", "build", "./...")
			// go vet type-checks every package with its tests, the generated
			// round trips among them; linking test binaries that run
			// nothing would add no check. The tests after it run with
			// -vet=off: go test's vet would type-check every dependency
			// again for the facts of a subset of the same analyzers.
			p.mustRun("go", "vet", "./...")
			if api.roundTrip {
				p.mustRun("go", "test", "-count=1", "-vet=off", "-run", "^TestRoundTrip_", "./...")
			}
			if api.beforeOwnTests != nil {
				api.beforeOwnTests(t, dir)
			}
			if len(api.ownTests) > 0 {
				p.mustRun("go", append([]string{"test", "-count=1", "-vet=off", "-skip", "^(Test|Fuzz)RoundTrip_"}, api.ownTests...)...)
			}
			sameCRDsAsControllerGen(t, dir)
		})
	}
}

// copyModule fetches api's module through the proxy and copies it, or its
// dirs with go.mod and go.sum, into dir, writable.
func copyModule(ctx context.Context, t *testing.T, api realWorldAPI, dir string) {
	t.Helper()
	gotDir := moduleDir(ctx, t, api.module, api.version)
	dirs := api.dirs
	if dirs == nil {
		dirs = []string{"."}
	} else {
		dirs = append(slices.Clone(dirs), "go.mod", "go.sum")
	}
	for _, d := range dirs {
		src := filepath.Join(gotDir, d)
		err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			rel, err := filepath.Rel(gotDir, p)
			if err != nil {
				return err
			}
			content, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, content, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// approveGatewayAPI gives every Gateway API kind the api-approved.kubernetes.io
// annotation that the API server requires of a *.k8s.io group, as the
// project's own CRD generator adds it. Without it controller-gen's CRDs are
// refused by the API server, and crdforge, which validates each CRD as the
// API server would, says so at the kind.
// markKueueRetryDelay marks v1beta1's RetryDelayMinutes, which v1beta2
// dropped, +crdforge:nocounterpart.
func markKueueRetryDelay(t *testing.T, dir string) {
	t.Helper()
	f := filepath.Join(dir, "apis", "kueue", "v1beta1", "admissioncheck_types.go")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	const field = "\tRetryDelayMinutes *int64"
	if !strings.Contains(string(b), field) {
		t.Fatalf("%s no longer declares %q", f, field)
	}
	b = []byte(strings.Replace(string(b), field, "\t// +crdforge:nocounterpart\n"+field, 1))
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func approveGatewayAPI(t *testing.T, dir string) {
	t.Helper()
	const marker = `// +kubebuilder:metadata:annotations="api-approved.kubernetes.io=https://github.com/kubernetes-sigs/gateway-api/pull/3328"`
	files, err := filepath.Glob(filepath.Join(dir, "apis", "*", "*_types.go"))
	if err != nil {
		t.Fatal(err)
	}
	approved := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		var out []string
		for _, l := range lines {
			out = append(out, l)
			if strings.HasPrefix(l, "// +kubebuilder:resource:") {
				out = append(out, marker)
				approved++
			}
		}
		if err := os.WriteFile(f, []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if approved == 0 {
		t.Fatal("no +kubebuilder:resource marker found in Gateway API's types: the layout changed")
	}
}

// sameCRDsAsControllerGen compares the CRDs crdforge wrote to
// config/crd/bases with controller-gen's over ./... of dir.
func sameCRDsAsControllerGen(t *testing.T, dir string) {
	t.Helper()
	theirs, err := controllergen.CRDs(dir, crd.Generator{})
	if err != nil {
		t.Fatal(err)
	}
	ours, err := filepath.Glob(filepath.Join(dir, "config", "crd", "bases", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range ours {
		if filepath.Base(f) != "kustomization.yaml" {
			names = append(names, filepath.Base(f))
		}
	}
	var want []string
	for name := range theirs {
		want = append(want, name)
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("crdforge wrote CRDs %v, controller-gen %v", names, want)
	}
	for _, name := range want {
		w, err := controllergen.DecodeCRD(theirs[name])
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "config", "crd", "bases", name))
		if err != nil {
			t.Fatal(err)
		}
		g, err := controllergen.DecodeCRD(b)
		if err != nil {
			t.Fatal(err)
		}
		if wn, gn := controllergen.Normalize(w), controllergen.Normalize(g); wn != gn {
			t.Errorf("%s differs from controller-gen's:\n%s", name, firstDiffLine(wn, gn))
		}
	}
}

// firstDiffLine shows where two texts first differ, with some context.
func firstDiffLine(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		if i >= len(wl) || i >= len(gl) || wl[i] != gl[i] {
			lo := max(0, i-3)
			return "controller-gen:\n" + strings.Join(wl[lo:min(len(wl), i+4)], "\n") +
				"\ncrdforge:\n" + strings.Join(gl[lo:min(len(gl), i+4)], "\n")
		}
	}
	return "(no line differs)"
}
