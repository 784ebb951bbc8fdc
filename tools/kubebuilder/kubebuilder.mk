# kubebuilder.mk: builds the kubebuilder CLI from the Go module in
# tools/kubebuilder (its go.mod pins the version) into bin/kubebuilder: no
# install script, no release download, only the Go module proxy. The
# end-to-end suite uses it to scaffold a real kubebuilder project and adopt
# crdforge in it (e2e/kubebuilder_test.go).
#
# Use it from the repository root, either included by the main Makefile
#
#     include tools/kubebuilder/kubebuilder.mk
#     e2e: $(KUBEBUILDER)
#
# or stand-alone:
#
#     make -f tools/kubebuilder/kubebuilder.mk kubebuilder
#
# bin/kubebuilder is a real file target: a second build does nothing unless
# tools/kubebuilder/go.mod or go.sum changed.

# Remember the caller's default goal so that including this fragment before
# any other target does not make kubebuilder the main Makefile's default.
KUBEBUILDER_MK          := $(lastword $(MAKEFILE_LIST))
KUBEBUILDER_SAVED_GOAL  := $(.DEFAULT_GOAL)

KUBEBUILDER_GO          ?= go
KUBEBUILDER_TOOLS_DIR   ?= tools/kubebuilder
KUBEBUILDER_MODULE      := sigs.k8s.io/kubebuilder/v4
KUBEBUILDER             := bin/kubebuilder
KUBEBUILDER_MOD_DEPS    := $(KUBEBUILDER_TOOLS_DIR)/go.mod $(KUBEBUILDER_TOOLS_DIR)/go.sum

.PHONY: kubebuilder
kubebuilder: $(KUBEBUILDER)

# `kubebuilder version` reads its version from the build info (the module
# version go.mod requires): no linker variables to set.
$(KUBEBUILDER): $(KUBEBUILDER_MOD_DEPS)
	@mkdir -p $(@D)
	@echo "building kubebuilder from $(KUBEBUILDER_TOOLS_DIR)/go.mod ($$($(KUBEBUILDER_GO) -C $(KUBEBUILDER_TOOLS_DIR) list -m -f '{{.Version}}' $(KUBEBUILDER_MODULE)))..."
	CGO_ENABLED=0 $(KUBEBUILDER_GO) build -C $(KUBEBUILDER_TOOLS_DIR) -trimpath -ldflags "-s -w" \
		-o $(abspath $@) $(KUBEBUILDER_MODULE)

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(KUBEBUILDER_MK))
.DEFAULT_GOAL := $(KUBEBUILDER_SAVED_GOAL)
endif
