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
# The binaries are real file targets: a second `make envtest-assets` does
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
ENVTEST_KUBE_APISERVER   := $(ENVTEST_ASSETS_DIR)/kube-apiserver
ENVTEST_ETCD             := $(ENVTEST_ASSETS_DIR)/etcd
ENVTEST_KUBECTL          := $(ENVTEST_ASSETS_DIR)/kubectl
ENVTEST_KCM              := $(ENVTEST_ASSETS_DIR)/kube-controller-manager
ENVTEST_MOD_DEPS         := $(ENVTEST_TOOLS_DIR)/go.mod $(ENVTEST_TOOLS_DIR)/go.sum

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
# kube-controller-manager, for the storage version migrator. Built from
# nothing, the four take about 13 minutes on 2 cores; with setup-envtest's
# assets in KUBEBUILDER_ASSETS the main Makefile builds none of them.
.PHONY: envtest-assets envtest-kcm
envtest-assets: $(ENVTEST_KUBE_APISERVER) $(ENVTEST_ETCD) $(ENVTEST_KUBECTL)
envtest-kcm: $(ENVTEST_KCM)

$(ENVTEST_KUBE_APISERVER): $(ENVTEST_MOD_DEPS)
	@mkdir -p $(@D)
	@echo "building kube-apiserver $(ENVTEST_K8S_VERSION) from Go modules: the control plane takes about 13 minutes on 2 cores the first time ($$(nproc) here); KUBEBUILDER_ASSETS=<setup-envtest's directory> skips it..."
	$(ENVTEST_GO_BUILD) -ldflags "-s -w $(strip $(ENVTEST_VERSION_LDFLAGS))" \
		-o $(abspath $@) k8s.io/kubernetes/cmd/kube-apiserver

$(ENVTEST_ETCD): $(ENVTEST_MOD_DEPS) $(ENVTEST_TOOLS_DIR)/etcd/main.go
	@mkdir -p $(@D)
	@echo "building etcd (the version k8s.io/kubernetes $(ENVTEST_K8S_VERSION) uses)..."
	$(ENVTEST_GO_BUILD) -ldflags "-s -w" -o $(abspath $@) ./etcd

# kubectl of the same release, so that a machine with only Go can run the
# end-to-end suite and the demo; they prefer it to one on PATH.
$(ENVTEST_KUBECTL): $(ENVTEST_MOD_DEPS)
	@mkdir -p $(@D)
	@echo "building kubectl $(ENVTEST_K8S_VERSION)..."
	$(ENVTEST_GO_BUILD) -ldflags "-s -w $(strip $(ENVTEST_VERSION_LDFLAGS))" \
		-o $(abspath $@) k8s.io/kubernetes/cmd/kubectl

# kube-controller-manager of the same release: envtest does not start it, the
# end-to-end suite does (e2e.StartControllerManager) for the controller that
# runs StorageVersionMigrations (crdforge migrate --engine cluster).
$(ENVTEST_KCM): $(ENVTEST_MOD_DEPS)
	@mkdir -p $(@D)
	@echo "building kube-controller-manager $(ENVTEST_K8S_VERSION) (only the storage version migrator's tests need it)..."
	$(ENVTEST_GO_BUILD) -ldflags "-s -w $(strip $(ENVTEST_VERSION_LDFLAGS))" \
		-o $(abspath $@) k8s.io/kubernetes/cmd/kube-controller-manager

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(ENVTEST_MK))
.DEFAULT_GOAL := $(ENVTEST_SAVED_GOAL)
endif
