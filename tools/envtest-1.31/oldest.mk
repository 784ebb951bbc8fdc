# oldest.mk: the control plane of the oldest Kubernetes release crdforge
# supports (the README's "Supported clusters"): kube-apiserver,
# kube-controller-manager and kubectl v1.31.14, and etcd v3.5.14, the one
# that release was tested with, built from Go modules as
# ../envtest/envtest.mk builds v1.37.2, with its recipe (envtest_build).
# make test-e2e-oldest runs the end-to-end suite on it.
#
# Included by the main Makefile after ../envtest/envtest.mk. The binaries are
# kept in the tools store (../store.mk) beside v1.37.2's, and bin/k8s-1.31
# links to them.

ENVTEST_OLDEST_MK            := $(lastword $(MAKEFILE_LIST))
ENVTEST_OLDEST_TOOLS_DIR     := $(patsubst %/,%,$(dir $(ENVTEST_OLDEST_MK)))
ENVTEST_OLDEST_K8S_VERSION   := v1.31.14
ENVTEST_OLDEST_K8S_MAJOR     := 1
ENVTEST_OLDEST_K8S_MINOR     := 31
ENVTEST_OLDEST_ASSETS_DIR    := bin/k8s-1.31
ENVTEST_OLDEST_VERSION_LDFLAGS := $(call envtest_version_ldflags,ENVTEST_OLDEST)
# From an empty build cache the four took 409 s of user and 88 s of system
# CPU (GOGC=400, as the Makefile builds): about 6 minutes on 2 idle cores.
ENVTEST_OLDEST_BUILD_MINUTES := 6

# The store's name has no version in it: when the oldest release moves on,
# the new one's entry trims the old one's (tools_link).
ENVTEST_OLDEST_STORE_NAME    := oldest-k8s
ENVTEST_OLDEST_KEY_FILES     := $(ENVTEST_OLDEST_TOOLS_DIR)/go.mod $(ENVTEST_OLDEST_TOOLS_DIR)/go.sum $(ENVTEST_OLDEST_TOOLS_DIR)/etcd/main.go
ENVTEST_OLDEST_ENTRY         := $(call tools_entry,$(ENVTEST_OLDEST_STORE_NAME),$(ENVTEST_OLDEST_KEY_FILES),$(ENVTEST_OLDEST_VERSION_LDFLAGS))

# envtest-oldest-all: the four binaries the end-to-end suite runs (the storage
# version migrator's tests need kube-controller-manager).
.PHONY: envtest-oldest-all
envtest-oldest-all:
	$(call envtest_build,kube-apiserver etcd kubectl kube-controller-manager,ENVTEST_OLDEST)
