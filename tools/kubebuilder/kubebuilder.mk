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
# The build is kept in the tools store (tools/store.mk), once per machine,
# and bin/kubebuilder links to it: a second build does nothing unless
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

include $(dir $(KUBEBUILDER_MK))../store.mk
KUBEBUILDER_ENTRY       := $(call tools_entry,kubebuilder,$(KUBEBUILDER_MOD_DEPS))

.PHONY: kubebuilder $(KUBEBUILDER)
kubebuilder: $(KUBEBUILDER)

$(KUBEBUILDER): $(KUBEBUILDER_ENTRY)/kubebuilder
	$(call tools_link,kubebuilder,$(KUBEBUILDER_ENTRY),$@,$<)

# `kubebuilder version` reads its version from the build info (the module
# version go.mod requires): no linker variables to set.
$(KUBEBUILDER_ENTRY)/kubebuilder:
	@mkdir -p $(@D)
	@echo "building kubebuilder from $(KUBEBUILDER_TOOLS_DIR)/go.mod ($$($(KUBEBUILDER_GO) -C $(KUBEBUILDER_TOOLS_DIR) list -m -f '{{.Version}}' $(KUBEBUILDER_MODULE)))..."
	CGO_ENABLED=0 $(KUBEBUILDER_GO) build -C $(KUBEBUILDER_TOOLS_DIR) -trimpath -ldflags "-s -w" \
		-o $@.$$$$.tmp $(KUBEBUILDER_MODULE) && mv $@.$$$$.tmp $@

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(KUBEBUILDER_MK))
.DEFAULT_GOAL := $(KUBEBUILDER_SAVED_GOAL)
endif
