# envtest.mk: builds the control-plane binaries controller-runtime's envtest
# needs (a real kube-apiserver and etcd) from Go modules only: no docker, no
# downloads other than the Go module proxy.
#
# Use it from the repository root, either included by the main Makefile
#
#     include tools/envtest/envtest.mk
#     test: envtest-assets
#     	KUBEBUILDER_ASSETS=$(abspath $(ENVTEST_ASSETS_DIR)) go test ./...
#
# or stand-alone:
#
#     make -f tools/envtest/envtest.mk envtest-assets
#
# The binaries are kept in the tools store (tools/store.mk), once per
# machine, and bin/k8s links to them: a second `make envtest-assets` builds
# nothing unless tools/envtest/go.mod, go.sum or etcd/main.go changed.
# envtest reads the directory from KUBEBUILDER_ASSETS (give it an absolute
# path: go test runs each package in its own directory).

# Remember the caller's default goal so that including this fragment before
# any other target does not make envtest-assets the main Makefile's default.
ENVTEST_MK               := $(lastword $(MAKEFILE_LIST))
ENVTEST_SAVED_GOAL       := $(.DEFAULT_GOAL)

ENVTEST_GO               ?= go
ENVTEST_TOOLS_DIR        ?= tools/envtest
ENVTEST_K8S_VERSION      := v1.37.2
ENVTEST_K8S_MAJOR        := 1
ENVTEST_K8S_MINOR        := 37
ENVTEST_ASSETS_DIR       := bin/k8s

# Version stamping as kubernetes' hack/lib/version.sh does it, so that
# `kube-apiserver --version` and /version report v1.37.2.
ENVTEST_VERSION_PKGS     := k8s.io/component-base/version k8s.io/client-go/pkg/version
ENVTEST_VERSION_LDFLAGS  := $(foreach p,$(ENVTEST_VERSION_PKGS),\
	-X $(p).gitVersion=$(ENVTEST_K8S_VERSION) \
	-X $(p).gitMajor=$(ENVTEST_K8S_MAJOR) \
	-X $(p).gitMinor=$(ENVTEST_K8S_MINOR) \
	-X $(p).gitTreeState=clean)

ENVTEST_GO_BUILD := CGO_ENABLED=0 $(ENVTEST_GO) build -C $(ENVTEST_TOOLS_DIR) -trimpath

# envtest-assets is what envtest and the demo need; envtest-kcm adds
# kube-controller-manager, for the storage version migrator (envtest does not
# start it, the end-to-end suite does); envtest-all is both. kubectl comes from
# the same release, so that a machine with only Go can run the end-to-end
# suite and the demo. Built from nothing, the four take about 13 minutes on
# 2 cores; with setup-envtest's assets in KUBEBUILDER_ASSETS the main
# Makefile builds none of them.
.PHONY: envtest-assets envtest-kcm envtest-all
envtest-assets:
	$(call envtest_build,kube-apiserver etcd kubectl)
envtest-kcm:
	$(call envtest_build,kube-controller-manager)
envtest-all:
	$(call envtest_build,kube-apiserver etcd kubectl kube-controller-manager)

ENVTEST_KEY_FILES := $(ENVTEST_TOOLS_DIR)/go.mod $(ENVTEST_TOOLS_DIR)/go.sum $(ENVTEST_TOOLS_DIR)/etcd/main.go
include $(dir $(ENVTEST_MK))../store.mk
ENVTEST_ENTRY     := $(call tools_entry,envtest,$(ENVTEST_KEY_FILES),$(ENVTEST_VERSION_LDFLAGS))

# envtest_build builds the binaries named in $(1) that the tools store's
# entry (tools/store.mk) lacks, in one go build: a link is single-threaded,
# and one build overlaps each link with the compiles of the others where a
# build per binary would leave a core idle. Then bin/k8s links to the entry.
# The version stamps are ignored in etcd, which links no Kubernetes package.
define envtest_build
	@stale=""; pkgs=""; \
	for b in $(1); do \
		[ -e $(ENVTEST_ENTRY)/$$b ] && continue; \
		stale="$$stale $$b"; \
		case $$b in etcd) pkgs="$$pkgs ./etcd" ;; *) pkgs="$$pkgs k8s.io/kubernetes/cmd/$$b" ;; esac; \
	done; \
	[ -z "$$stale" ] || { \
		echo "building$$stale $(ENVTEST_K8S_VERSION) from Go modules: the control plane takes about 13 minutes on 2 cores the first time ($$(nproc) here); KUBEBUILDER_ASSETS=<setup-envtest's directory> skips it..."; \
		tmp=$(ENVTEST_ENTRY).$$$$.tmp; mkdir -p $$tmp $(ENVTEST_ENTRY) && \
		( set -x; $(ENVTEST_GO_BUILD) -ldflags "-s -w $(strip $(ENVTEST_VERSION_LDFLAGS))" -o $$tmp/ $$pkgs ) && \
		mv $$tmp/* $(ENVTEST_ENTRY)/ && rmdir $$tmp; \
	}
	$(call tools_link,envtest,$(ENVTEST_ENTRY),$(ENVTEST_ASSETS_DIR),$(ENVTEST_ENTRY))
endef

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(ENVTEST_MK))
.DEFAULT_GOAL := $(ENVTEST_SAVED_GOAL)
endif
