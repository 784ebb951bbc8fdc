# crdforge's Makefile. The README's two commands are `make demo` and
# `make test`; both work on a fresh machine that has only Go.

GO       ?= go
CRDFORGE := bin/crdforge
EXAMPLES := $(patsubst %/,%,$(wildcard examples/*/))

.DEFAULT_GOAL := build
.PHONY: build generate manifests verify test test-unit test-e2e test-e2e-oldest test-realworld test-compat fuzz-apis fetch fetch-modules fetch-e2e fetch-realworld fetch-compat lint lint-basic lint-go bench bench-scale bench-webhook-memory demo clean

# envtest-assets builds a real kube-apiserver and etcd from Go modules into
# bin/k8s (once; later runs do nothing). This tool and the three below are
# kept once per machine, in the tools store (tools/store.mk), and bin/
# links to them.
include tools/envtest/envtest.mk

# envtest-oldest-all builds the same from the oldest Kubernetes release the
# README supports (v1.31.14) into bin/k8s-1.31, for make test-e2e-oldest.
include tools/envtest-1.31/oldest.mk

# golangci-lint, built from tools/lint/go.mod into bin/golangci-lint (once;
# later runs do nothing until that go.mod changes).
include tools/lint/lint.mk

# The kubebuilder CLI, built from tools/kubebuilder/go.mod into
# bin/kubebuilder (once; later runs do nothing until that go.mod changes):
# the end-to-end suite scaffolds a real kubebuilder project with it.
include tools/kubebuilder/kubebuilder.mk

# The Helm CLI, built from tools/helm/go.mod into bin/helm (once; later runs
# do nothing until that go.mod changes): the end-to-end suite lints,
# templates, installs, upgrades and uninstalls the generated chart with it.
include tools/helm/helm.mk

# cert-manager's controller and CA injector, built from
# tools/certmanager/go.mod into bin/certmanager (once; later runs do nothing
# until that module changes), with cert-manager's CRDs beside it: the
# end-to-end suite renews the webhook's serving certificate with them. A
# test tool, not shipped.
include tools/certmanager/certmanager.mk

# Built every time: go's build cache makes an unchanged build instant.
build:
	$(GO) build -o $(CRDFORGE) ./cmd/crdforge

# generate regenerates everything generated that is committed: the help of
# crdforge's markers, the reference pages docs/markers.md and
# docs/commands.md (from that help and the commands; after helpgen, which
# they read), and each example's CRDs and deepcopy methods (through the
# //go:generate line in each example).
generate:
	$(GO) tool helpgen generate:headerFile=./markers/helpgen.header.txt paths=./markers
	$(GO) run ./cmd/crdforge/cli/docgen -dir docs
	$(GO) generate ./examples/...

# manifests regenerates only the examples' CRDs.
manifests: build
	@for ex in $(EXAMPLES); do (cd $$ex && $(abspath $(CRDFORGE)) generate --only crd ./...) || exit 1; done

# verify regenerates into a temporary copy of the tree and fails on any
# difference with the committed files.
verify:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$$tmp" && \
	if ! $(MAKE) -s -C "$$tmp" generate >"$$tmp/../$$(basename $$tmp).log" 2>&1; then \
		cat "$$tmp/../$$(basename $$tmp).log"; rm -f "$$tmp/../$$(basename $$tmp).log"; exit 1; fi; \
	rm -f "$$tmp/../$$(basename $$tmp).log"; stale=0; \
	for f in $$(cd "$$tmp" && find . -type f | sed 's|^\./||' | sort); do \
		old="$$f"; [ -f "$$f" ] || old=/dev/null; \
		diff -u --label "a/$$f" --label "b/$$f" "$$old" "$$tmp/$$f" || stale=1; \
	done; \
	if [ $$stale = 1 ]; then echo "verify: generated files are out of date; run make generate" >&2; exit 1; fi; \
	echo "verify: generated files are up to date"

# GO_NEXT is the Go release after the machine's own: generated code and the
# lean modules must build and pass their tests with both. GOTOOLCHAIN
# fetches it through the module proxy the first time (make fetch-compat).
GO_NEXT := go1.27.4

# The control plane the end-to-end tiers run against: KUBEBUILDER_ASSETS
# when you set it (setup-envtest's directory: kube-apiserver, etcd,
# kubectl), and then nothing is built; else bin/k8s, built from Go modules
# the first time, with kube-controller-manager for the storage version
# migrator's tests (which skip where there is none).
ifdef KUBEBUILDER_ASSETS
E2E_ASSETS      := $(KUBEBUILDER_ASSETS)
E2E_ASSETS_DEPS :=
else
E2E_ASSETS      := $(abspath $(ENVTEST_ASSETS_DIR))
E2E_ASSETS_DEPS := envtest-all
endif

# Every go command make runs builds with -trimpath, and the tests pass it
# on to the go commands they run (e2e.GoFlags). Tests build projects in
# temporary directories, and without -trimpath the build cache keys each
# package on its directory, and every run would compile those projects
# again. (Added once: the makes that hack/tiers.sh runs inherit it.)
ifeq ($(filter -trimpath,$(GOFLAGS)),)
export GOFLAGS += -trimpath
endif

# Nor does anything make builds carry debug information, unless you set
# -gcflags or -ldflags in GOFLAGS: no DWARF from the compiler
# (-gcflags=all=-dwarf=false) or the linker (-ldflags=-w). The gate debugs
# nothing, and its CPU is mostly compiles: k8s.io/api/... into an empty
# build cache took 12% less CPU without DWARF, and a link 50% less
# (BENCHMARKS.md). The tests pass both on (e2e.GoFlags), or the projects
# they build would compile every package again. make bench and its kin
# build as users do, with debug information.
NODEBUG_GOFLAGS := -gcflags=all=-dwarf=false -ldflags=-w
ifeq ($(filter -gcflags=% -ldflags=%,$(GOFLAGS)),)
export GOFLAGS += $(NODEBUG_GOFLAGS)
endif
bench bench-scale bench-webhook-memory: export GOFLAGS := $(filter-out $(NODEBUG_GOFLAGS),$(GOFLAGS))

# Every go command make runs, and all it runs in turn (the compiler, the
# linker, vet, the tests and the go commands they run), collects garbage at
# GOGC=400 unless you set GOGC: compiling k8s.io/api/... from an empty build
# cache took a fifth to a quarter less CPU than at Go's default of 100
# (80-86 s against 106-121 s of user time, BENCHMARKS.md), for about half as
# much memory again per compile (0.7 GB at most). GOMEMLIMIT bounds what that
# costs the largest processes, the links of the control plane's binaries.
# Neither is part of the build cache's keys. make bench measures with
# Go's defaults (or yours): a webhook runs with those.
BENCH_GOGC       := $(or $(GOGC),100)
BENCH_GOMEMLIMIT := $(or $(GOMEMLIMIT),off)
export GOGC ?= 400
export GOMEMLIMIT ?= 4GiB

# One build configuration for everything make builds: the tools (the
# control plane, kubebuilder, helm, cert-manager, golangci-lint) are static
# binaries, built with cgo off, and so are crdforge, its tests and the
# projects they build, unless you set CGO_ENABLED. Otherwise, on a machine
# with a C compiler, every package that imports net (client-go and all
# above it) compiled twice, once per setting; on one without, Go turns cgo
# off by itself and nothing changes.
export CGO_ENABLED ?= 0

# test-unit, test-e2e and test-realworld reach no network: they run with
# GOPROXY=off once their fetch step has filled the module cache. The e2e
# package serves the go commands its tests run in modules of their own (the
# README's `go mod tidy`) from the module cache (e2e.ServeFromModuleCache).
# test-compat still uses the module proxy: GOTOOLCHAIN fetches Go 1.27.
# -count=1: tests that run the go command read files go test does not
# track, so a cached result could be stale.
OFFLINE := GOPROXY=off GOFLAGS="$(GOFLAGS) -count=1"
# A fetch step's stamp is kept in the module cache it fills, under a key of
# the contents of the files it depends on (content_key, tools/store.mk): a
# clean clone on a machine whose cache has what it records fetches
# nothing, and go clean -modcache removes the stamps with the modules.
FETCHED            := $(shell $(GO) env GOMODCACHE)/cache/crdforge/fetched
FETCH_E2E_INPUTS   := go.mod README.md tools/kubebuilder/go.mod tools/helm/go.mod e2e/newcomer_test.go e2e/kubebuilder_test.go e2e/gettingstarted_test.go e2e/helmpage_test.go e2e/pagerun_test.go e2e/markdown.go docs/getting-started.md
FETCHED_E2E        := $(FETCHED)-e2e-$(call content_key,$(FETCH_E2E_INPUTS))
FETCHED_REALWORLD  := $(FETCHED)-realworld-$(call content_key,go.mod e2e/realworld_test.go)
TIER    := GOFLAGS="$(GOFLAGS) -count=1"

# test is the gate (CI's .ci/run, the README's command), in two steps.
# First the tools test-e2e, test-e2e-oldest and test-realworld need (the
# control plane, kubebuilder, helm, cert-manager), with lint and verify
# beside them: the tools' links run on one core. Then three lanes at once:
# the e2e tiers, which wait on the API server most of their time (and build
# the oldest release's control plane meanwhile); test-realworld; test-unit
# and test-compat. The last two lanes compile; each gets about a core, and
# no lane is left alone at the end with the other core idle (a cold run
# with test-realworld after the e2e tiers, in their lane, took over 90
# minutes). Each target is timed; the times are printed at the end.
test:
	@./hack/tiers.sh e2e-prerequisites,lint+verify test-e2e+test-e2e-oldest,test-realworld,test-unit+test-compat

# test-unit is the inner loop: the unit and golden tests of the three
# modules (-short), generated goldens compiled and their round trips run,
# random APIs drawn from a fixed set of seeds (internal/apigen);
# no network, no control plane, no tool to build. Vetting is lint's
# (golangci-lint's govet, go vet's analyzers, over the same modules): go
# test's own vet would type-check every dependency again for the facts of a
# subset of them.
test-unit: fetch-modules
	$(OFFLINE) $(GO) test -short -vet=off -timeout 45m ./...
	cd runtime && $(OFFLINE) $(GO) test -short -vet=off ./...
	cd webhook && $(OFFLINE) $(GO) test -short -vet=off ./...

# fuzz-apis draws new random APIs (internal/apigen) for FOR (default 10m)
# and holds crdforge's output for each to its promise, as test-unit does
# for a fixed set of seeds: each batch prints its seeds and how they
# fared, a failing seed to replay with CRDFORGE_APIGEN_SEEDS=<seed> and
# keep as a golden case.
fuzz-apis: fetch-modules
	CRDFORGE_APIGEN_FOR=$(or $(FOR),10m) $(OFFLINE) $(GO) test -v -timeout 0 -run '^TestRandomAPIs$$' ./internal/apigen/

# test-e2e is everything that needs the real control plane, kubebuilder or
# the storage version migrator: the e2e package, the real-world APIs aside.
# Its parallel tests (e2e/env_test.go says which) run E2E_PARALLEL at a
# time: they wait far more than they compute.
E2E_PARALLEL := 4
test-e2e: e2e-prerequisites
	cd tools/envtest/smoke && KUBEBUILDER_ASSETS=$(E2E_ASSETS) $(OFFLINE) $(GO) test -vet=off ./...
	CRDFORGE_E2E_REQUIRED=1 KUBEBUILDER_ASSETS=$(E2E_ASSETS) $(OFFLINE) $(GO) test -timeout 60m -parallel $(E2E_PARALLEL) -skip '^TestRealWorldAPIs$$' ./e2e/

# test-e2e-oldest is the end-to-end suite (but the real-world APIs and the
# other tests that talk to no API server: serverIndependent) on the oldest
# Kubernetes release the README supports, built from Go modules into
# bin/k8s-1.31, whatever KUBEBUILDER_ASSETS says: the suite's tests ask the
# server what it serves (e2e/release.go).
E2E_OLDEST_ASSETS := $(abspath $(ENVTEST_OLDEST_ASSETS_DIR))
test-e2e-oldest: e2e-oldest-prerequisites
	CRDFORGE_E2E_SERVER_TESTS_ONLY=1 CRDFORGE_E2E_REQUIRED=1 KUBEBUILDER_ASSETS=$(E2E_OLDEST_ASSETS) $(OFFLINE) $(GO) test -timeout 60m -parallel $(E2E_PARALLEL) -skip '^TestRealWorldAPIs$$' ./e2e/

.PHONY: e2e-oldest-prerequisites
e2e-oldest-prerequisites:
	@$(MAKE) --no-print-directory -j3 envtest-oldest-all $(KUBEBUILDER) $(HELM) $(CERTMANAGER) $(FETCHED_E2E)

# e2e-prerequisites makes what test-e2e needs (the control plane,
# kubebuilder, helm, cert-manager) three at a time: on a fresh
# machine one tool's module downloads and single-threaded links overlap
# another's compiles; once built, each is a no-op.
.PHONY: e2e-prerequisites
e2e-prerequisites:
	@$(MAKE) --no-print-directory -j3 $(E2E_ASSETS_DEPS) $(KUBEBUILDER) $(HELM) $(CERTMANAGER) $(FETCHED_E2E)

# test-realworld is crdforge on real multi-version APIs nobody here wrote,
# fetched through the module proxy at exact versions. From an empty build
# cache it compiles every project's Kubernetes libraries, beside
# test-compat doing the same, for 24 to 32 minutes on 2 cores: its timeout
# is well above that, inside CI's 90 minutes (BENCHMARKS.md).
test-realworld: $(FETCHED_REALWORLD)
	CRDFORGE_E2E_REQUIRED=1 KUBEBUILDER_ASSETS=$(E2E_ASSETS) $(OFFLINE) $(GO) test -timeout 60m -run '^TestRealWorldAPIs$$' ./e2e/

# test-compat proves the README's claims about versions: the adoption
# matrix (each Kubernetes minor, with the local Go and GO_NEXT), the lean
# modules' tests (adoption included) on both Go releases, and the goldens'
# generated code vetted and tested with GO_NEXT (the generator, a tool,
# needs only the local Go: README). With
# the local Go it runs only the lean modules' tests that -short skips
# (LONG_TESTS): test-unit runs the others.
RUNTIME_LONG_TESTS := . -run '^(TestAdoptionRaisesNoVersion|TestExamplesRoundTripOnTheOldestVersions)$$'
WEBHOOK_LONG_TESTS := . ./internal/server -run '^(TestAdoptionRaisesNoVersion|TestLoadStaysUnderTheMemoryLimit|TestServerLoad|TestServerLosesNoKeepAliveRequestAcrossShutdown)$$'
test-compat:
	CRDFORGE_GO_NEXT=$(GO_NEXT) CRDFORGE_E2E_REQUIRED=1 $(TIER) $(GO) test -timeout 60m ./compat/
	cd runtime && $(TIER) $(GO) test $(RUNTIME_LONG_TESTS) && GOTOOLCHAIN=$(GO_NEXT) $(TIER) $(GO) test ./...
	cd webhook && $(TIER) $(GO) test $(WEBHOOK_LONG_TESTS) && GOTOOLCHAIN=$(GO_NEXT) $(TIER) $(GO) test ./...
	CRDFORGE_GOLDEN_TOOLCHAIN=$(GO_NEXT) $(TIER) $(GO) test -short -run '^TestGoldenGoCompiles$$' ./cmd/crdforge/cli/
	GOTOOLCHAIN=$(GO_NEXT) $(TIER) $(GO) test -short ./examples/...
	cd tools/dockerfile && $(TIER) $(GO) test ./...

# The fetch targets fill the module cache ahead of the tiers. A test that
# downloads modules, run with CRDFORGE_FETCH set, takes its steps up to the
# last that does, then stops.
fetch: fetch-modules fetch-e2e fetch-realworld fetch-compat

# $(FETCHED_<TIER>) records that fetch-<tier> filled the module cache for
# what the tier's tests download; a change to those tests, the README or
# the versions they use is a new key. The tools fetch-e2e needs are made
# first, order only: otherwise e2e-prerequisites' make -j3 built each of
# them at once in itself and in fetch-e2e's make.
$(FETCHED_E2E): | $(KUBEBUILDER) $(HELM)
	$(MAKE) --no-print-directory fetch-e2e
	@mkdir -p $(@D) && touch $@
$(FETCHED_REALWORLD):
	$(MAKE) --no-print-directory fetch-realworld
	@mkdir -p $(@D) && touch $@

fetch-modules:
	$(GO) mod download
	cd runtime && $(GO) mod download
	cd webhook && $(GO) mod download
	cd tools/dockerfile && $(GO) mod download
	cd tools/kubeconform && $(GO) mod download
	cd tools/envtest/smoke && $(GO) mod download

fetch-e2e: fetch-modules $(KUBEBUILDER) $(HELM)
	CRDFORGE_FETCH=1 CRDFORGE_E2E_REQUIRED=1 $(GO) test -count=1 -timeout 30m -run '^(TestKubebuilderProject|TestREADMEUsingCrdforge|TestGettingStarted|TestHelmPage)$$' ./e2e/

fetch-realworld: fetch-modules
	CRDFORGE_FETCH=1 CRDFORGE_E2E_REQUIRED=1 $(GO) test -count=1 -timeout 30m -run '^TestRealWorldAPIs$$' ./e2e/

fetch-compat: fetch-modules
	GOTOOLCHAIN=$(GO_NEXT) $(GO) mod download
	CRDFORGE_FETCH=1 CRDFORGE_GO_NEXT=$(GO_NEXT) CRDFORGE_E2E_REQUIRED=1 $(GO) test -count=1 -timeout 40m ./compat/
	cd runtime && CRDFORGE_FETCH=1 $(GO) test -count=1 -run 'Adoption|OldestVersions' ./...
	cd webhook && CRDFORGE_FETCH=1 $(GO) test -count=1 -run 'Adoption' ./...

# lint checks formatting, then runs golangci-lint (.golangci.yml) over the
# main module and the lean runtime module (runtime/, what generated API code
# imports) and webhook module (webhook/, what a generated main imports); the
# tools/ modules are build scripts, not linted. Its govet is go vet: the
# same analyzers, which golangci-lint's default list copies from cmd/vet,
# so go vet itself would type-check every package and its dependencies a
# second time for nothing. The first run builds golangci-lint beside the
# gofmt check.
lint:
	@$(MAKE) --no-print-directory -j2 lint-basic $(GOLANGCI_LINT)
	@$(MAKE) --no-print-directory lint-go

lint-basic:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

lint-go: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...
	cd runtime && $(abspath $(GOLANGCI_LINT)) run ./...
	cd webhook && $(abspath $(GOLANGCI_LINT)) run ./...

# bench compares, on synthetic API trees of 10, 100 and 400 kinds, crdforge's
# CRD and deepcopy generation with controller-gen (in process), and the full
# crdforge generate with controller-gen plus conversion-gen, and a run that
# changes nothing with controller-gen's (as processes);
# then the webhook handler and the conversions. BENCHMARKS.md records them.
bench:
	GOGC=$(BENCH_GOGC) GOMEMLIMIT=$(BENCH_GOMEMLIMIT) $(GO) test ./generators/pipeline/ -run '^$$' -bench 'BenchmarkGenerate' -benchtime 5x -count 1 -timeout 60m
	GOGC=$(BENCH_GOGC) GOMEMLIMIT=$(BENCH_GOMEMLIMIT) $(GO) test ./generators/conversion/bench/ -run '^$$' -bench BenchmarkConvert -benchmem -count 1
	GOGC=$(BENCH_GOGC) GOMEMLIMIT=$(BENCH_GOMEMLIMIT) $(GO) test ./examples/widgets/ -run '^$$' -bench 'BenchmarkConversionReview|BenchmarkCodec' -benchtime 1s -count 1

# bench-scale runs issue 56's scaling benchmark: a first full crdforge
# generate beside controller-gen object crd, as processes, on synthetic API
# groups of 10, 15, 50 and 200 kinds in three versions (600 too with
# CRDFORGE_BENCH_600=1; CRDFORGE_BENCH_BASE=<a crdforge binary> runs an
# earlier build beside them), the medians of 3 runs: wall time, peak RSS,
# generated lines per kind and version; then the generated webhook's build
# and binary beside the reflection codec's (BENCHMARKS.md). Not part of make
# test, whose test-unit holds those lines to a budget
# (TestGeneratedLinesPerKindWithinBudget).
bench-scale:
	GOGC=$(BENCH_GOGC) GOMEMLIMIT=$(BENCH_GOMEMLIMIT) $(GO) test ./generators/pipeline/ -run '^$$' -bench '^BenchmarkScale$$' -benchtime 3x -count 1 -timeout 120m

# bench-webhook-memory measures the peak RSS of crdforge's generated webhook
# (examples/crontab's, as deployed: a 128 MiB container limit) beside
# controller-runtime's conversion handler on the same types, each a process
# of its own over TLS, under 1, 4, 16 and 64 clients sending 3 MiB
# ConversionReviews for 10 s each (about 2.5 minutes; BENCHMARKS.md). The
# servers run with neither GOGC nor GOMEMLIMIT, as deployed, whatever this
# make's are; they apply to the clients alone. Not part of make test.
bench-webhook-memory:
	cd examples/crontab && GOGC=$(BENCH_GOGC) GOMEMLIMIT=$(BENCH_GOMEMLIMIT) $(GO) test . -run '^$$' -bench BenchmarkWebhookPeakRSS -benchtime 1x -count 1 -v -timeout 30m

# demo builds crdforge and a real control plane, generates the crontab
# example, runs its webhook against kube-apiserver and plays the CronTab
# scenario (write at one version, read at another) with kubectl, then
# tears everything down.
demo:
	@./hack/demo.sh

# demo-life walks a version's whole life (docs/version-life.md) on a
# real control plane with kube-controller-manager's storage version
# migrator: new-version, storage moved, migrate with each engine, status at
# each step, the old version unserved and removed; -v prints every step.
.PHONY: demo-life
demo-life: $(E2E_ASSETS_DEPS)
	KUBEBUILDER_ASSETS=$(E2E_ASSETS) $(GO) test ./e2e/ -count=1 -run 'TestVersionLife' -v

clean:
	rm -rf bin testdata/_scratch testdata/_bench
