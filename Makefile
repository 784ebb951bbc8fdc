# crdforge's Makefile. The README's two commands are `make demo` and
# `make test`; both work on a fresh machine that has only Go.

GO       ?= go
CRDFORGE := bin/crdforge
EXAMPLES := $(patsubst %/,%,$(wildcard examples/*/))

.DEFAULT_GOAL := build
.PHONY: build generate manifests verify test unit e2e lint lint-basic lint-go bench demo clean envtest-smoke

# envtest-assets builds a real kube-apiserver and etcd from Go modules into
# bin/k8s (once; later runs do nothing).
include tools/envtest/envtest.mk

# golangci-lint, built from tools/lint/go.mod into bin/golangci-lint (once;
# later runs do nothing until that go.mod changes).
include tools/lint/lint.mk

# The kubebuilder CLI, built from tools/kubebuilder/go.mod into
# bin/kubebuilder (once; later runs do nothing until that go.mod changes):
# the end-to-end suite scaffolds a real kubebuilder project with it.
include tools/kubebuilder/kubebuilder.mk

# Built every time: go's build cache makes an unchanged build instant.
build:
	$(GO) build -o $(CRDFORGE) ./cmd/crdforge

# generate regenerates everything generated that is committed: the help of
# crdforge's markers, and each example's CRDs and deepcopy methods (through
# the //go:generate line in each example).
generate:
	$(GO) tool helpgen generate:headerFile=./markers/helpgen.header.txt paths=./markers
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
# fetches it through the module proxy the first time.
GO_NEXT := go1.27.4

# test runs everything: lint, the generated-output check, the unit and
# golden tests of all three modules with the machine's Go, then every Go
# test with GO_NEXT: the end-to-end suite against a real kube-apiserver and
# etcd (the assets are built first, once), the adoption matrix (compat/,
# which builds projects with both Go releases) and the rest.
test: lint verify envtest-smoke $(KUBEBUILDER)
	$(GO) test -short ./...
	cd runtime && $(GO) test ./...
	cd webhook && $(GO) test ./...
	GOTOOLCHAIN=$(GO_NEXT) CRDFORGE_GO_NEXT=$(GO_NEXT) CRDFORGE_E2E_REQUIRED=1 KUBEBUILDER_ASSETS=$(abspath $(ENVTEST_ASSETS_DIR)) $(GO) test -timeout 60m ./...
	cd runtime && GOTOOLCHAIN=$(GO_NEXT) $(GO) test ./...
	cd webhook && GOTOOLCHAIN=$(GO_NEXT) $(GO) test ./...
	cd tools/dockerfile && $(GO) test ./...

# e2e runs only the end-to-end suite: every example's generated CRDs and
# webhook against a real kube-apiserver and etcd.
e2e: envtest-assets $(KUBEBUILDER)
	CRDFORGE_E2E_REQUIRED=1 KUBEBUILDER_ASSETS=$(abspath $(ENVTEST_ASSETS_DIR)) $(GO) test ./e2e/ -count=1 -v

# envtest-smoke starts the real control plane through controller-runtime's
# envtest and talks to it.
envtest-smoke: envtest-assets
	cd tools/envtest/smoke && KUBEBUILDER_ASSETS=$(abspath $(ENVTEST_ASSETS_DIR)) $(GO) test -count=1 ./...

# unit runs the Go tests of both modules; the end-to-end suite skips unless
# the assets exist.
unit:
	$(GO) test ./...
	cd runtime && $(GO) test ./...
	cd webhook && $(GO) test ./...

# lint checks formatting, runs go vet, then golangci-lint (.golangci.yml)
# over the main module and the lean runtime module (runtime/, what generated
# API code imports) and webhook module (webhook/, what a generated main
# imports); the tools/ modules are build scripts, not linted.
lint: lint-basic lint-go

lint-basic:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd runtime && $(GO) vet ./...
	cd webhook && $(GO) vet ./...

lint-go: $(GOLANGCI_LINT)
	$(GOLANGCI_LINT) run ./...
	cd runtime && $(abspath $(GOLANGCI_LINT)) run ./...
	cd webhook && $(abspath $(GOLANGCI_LINT)) run ./...

# bench compares, on synthetic API trees of 10, 100 and 400 kinds, crdforge's
# CRD and deepcopy generation with controller-gen (in process), and the full
# crdforge generate with controller-gen plus conversion-gen (as processes);
# then the webhook handler and the conversions. BENCHMARKS.md records them.
bench:
	$(GO) test ./generators/ -run '^$$' -bench 'BenchmarkGenerate' -benchtime 5x -count 1 -timeout 60m
	$(GO) test ./generators/conversion/bench/ -run '^$$' -bench BenchmarkConvert -benchmem -count 1
	$(GO) test ./examples/widgets/ -run '^$$' -bench 'BenchmarkConversionReview|BenchmarkCodec' -benchtime 1s -count 1

# demo builds crdforge and a real control plane, generates the crontab
# example, runs its webhook against kube-apiserver and plays the seed
# documents' scenario with kubectl, then tears everything down.
demo:
	@./hack/demo.sh

# demo-life walks a version's whole life (README, "A version's life") on a
# real control plane with kube-controller-manager's storage version
# migrator: new-version, storage moved, migrate with each engine, status at
# each step, the old version unserved and removed; -v prints every step.
.PHONY: demo-life
demo-life: envtest-assets
	KUBEBUILDER_ASSETS=$(abspath $(ENVTEST_ASSETS_DIR)) $(GO) test ./e2e/ -count=1 -run 'TestVersionLife' -v

clean:
	rm -rf bin testdata/_scratch testdata/_bench
