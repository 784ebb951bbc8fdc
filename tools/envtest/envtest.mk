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
# envtest_version_ldflags <prefix>: the stamps of the release that
# <prefix>_K8S_VERSION, _MAJOR and _MINOR name (ENVTEST here, ENVTEST_OLDEST
# in tools/envtest-1.31/oldest.mk).
ENVTEST_VERSION_PKGS     := k8s.io/component-base/version k8s.io/client-go/pkg/version
envtest_version_ldflags   = $(foreach p,$(ENVTEST_VERSION_PKGS),\
	-X $(p).gitVersion=$($(1)_K8S_VERSION) \
	-X $(p).gitMajor=$($(1)_K8S_MAJOR) \
	-X $(p).gitMinor=$($(1)_K8S_MINOR) \
	-X $(p).gitTreeState=clean)
ENVTEST_VERSION_LDFLAGS  := $(call envtest_version_ldflags,ENVTEST)

# envtest-assets is what envtest and the demo need; envtest-kcm adds
# kube-controller-manager, for the storage version migrator (envtest does not
# start it, the end-to-end suite does); envtest-all is both. kubectl comes from
# the same release, so that a machine with only Go can run the end-to-end
# suite and the demo. Built from nothing, the four take about 13 minutes on
# 2 cores; with setup-envtest's assets in KUBEBUILDER_ASSETS the main
# Makefile builds none of them.
.PHONY: envtest-assets envtest-kcm envtest-all
envtest-assets:
	$(call envtest_build,kube-apiserver etcd kubectl,ENVTEST)
envtest-kcm:
	$(call envtest_build,kube-controller-manager,ENVTEST)
envtest-all:
	$(call envtest_build,kube-apiserver etcd kubectl kube-controller-manager,ENVTEST)

ENVTEST_KEY_FILES := $(ENVTEST_TOOLS_DIR)/go.mod $(ENVTEST_TOOLS_DIR)/go.sum $(ENVTEST_TOOLS_DIR)/etcd/main.go
include $(dir $(ENVTEST_MK))../store.mk
ENVTEST_STORE_NAME   := envtest
ENVTEST_ENTRY        := $(call tools_entry,$(ENVTEST_STORE_NAME),$(ENVTEST_KEY_FILES),$(ENVTEST_VERSION_LDFLAGS))
ENVTEST_BUILD_MINUTES := 13

# envtest_build builds the binaries named in $(1) that the tools store's
# entry (tools/store.mk) lacks, in one go build: a link is single-threaded,
# and one build overlaps each link with the compiles of the others where a
# build per binary would leave a core idle. Then bin/k8s links to the entry.
# The version stamps are ignored in etcd, which links no Kubernetes package.
# $(2) is the release's variables' prefix: ENVTEST (v1.37.2, this file) or
# ENVTEST_OLDEST (tools/envtest-1.31/oldest.mk), each with its _TOOLS_DIR,
# _K8S_VERSION, _VERSION_LDFLAGS, _ENTRY, _STORE_NAME, _ASSETS_DIR and
# _BUILD_MINUTES.
define envtest_build
	@stale=""; pkgs=""; \
	for b in $(1); do \
		[ -e $($(2)_ENTRY)/$$b ] && continue; \
		stale="$$stale $$b"; \
		case $$b in etcd) pkgs="$$pkgs ./etcd" ;; *) pkgs="$$pkgs k8s.io/kubernetes/cmd/$$b" ;; esac; \
	done; \
	[ -z "$$stale" ] || { \
		echo "building$$stale $($(2)_K8S_VERSION) from Go modules: the control plane takes about $($(2)_BUILD_MINUTES) minutes on 2 cores the first time ($$(nproc) here); KUBEBUILDER_ASSETS=<setup-envtest's directory> skips it..."; \
		tmp=$($(2)_ENTRY).$$$$.tmp; mkdir -p $$tmp $($(2)_ENTRY) && \
		( set -x; CGO_ENABLED=0 $(ENVTEST_GO) build -C $($(2)_TOOLS_DIR) -trimpath -ldflags "-s -w $(strip $($(2)_VERSION_LDFLAGS))" -o $$tmp/ $$pkgs ) && \
		mv $$tmp/* $($(2)_ENTRY)/ && rmdir $$tmp; \
	}
	$(call tools_link,$($(2)_STORE_NAME),$($(2)_ENTRY),$($(2)_ASSETS_DIR),$($(2)_ENTRY))
endef

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(ENVTEST_MK))
.DEFAULT_GOAL := $(ENVTEST_SAVED_GOAL)
endif
