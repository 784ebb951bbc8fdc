# helm.mk: builds the Helm CLI from the Go module in tools/helm (its go.mod
# pins the version) into bin/helm: no install script, no release download,
# only the Go module proxy. The end-to-end suite uses it to lint, template,
# install, upgrade and uninstall the chart `crdforge generate --helm` writes
# (e2e/helm_test.go).
#
# Use it from the repository root, either included by the main Makefile
#
#     include tools/helm/helm.mk
#     test-e2e: $(HELM)
#
# or stand-alone:
#
#     make -f tools/helm/helm.mk helm
#
# The build is kept in the tools store (tools/store.mk), once per machine,
# and bin/helm links to it: a second build does nothing unless
# tools/helm/go.mod or go.sum changed.

# Remember the caller's default goal so that including this fragment before
# any other target does not make helm the main Makefile's default.
HELM_MK          := $(lastword $(MAKEFILE_LIST))
HELM_SAVED_GOAL  := $(.DEFAULT_GOAL)

HELM_GO          ?= go
HELM_TOOLS_DIR   ?= tools/helm
HELM_MODULE      := helm.sh/helm/v4
HELM_PACKAGE     := $(HELM_MODULE)/cmd/helm
HELM             := bin/helm
HELM_MOD_DEPS    := $(HELM_TOOLS_DIR)/go.mod $(HELM_TOOLS_DIR)/go.sum

include $(dir $(HELM_MK))../store.mk
HELM_ENTRY       := $(call tools_entry,helm,$(HELM_MOD_DEPS))

.PHONY: helm $(HELM)
helm: $(HELM)

$(HELM): $(HELM_ENTRY)/helm
	$(call tools_link,helm,$(HELM_ENTRY),$@,$<)

# `helm version` prints the linker variable below; without it Helm says
# "v4-dev" (its own Makefile sets the same variable from the git tag).
$(HELM_ENTRY)/helm:
	@mkdir -p $(@D)
	@echo "building helm from $(HELM_TOOLS_DIR)/go.mod ($$($(HELM_GO) -C $(HELM_TOOLS_DIR) list -m -f '{{.Version}}' $(HELM_MODULE)))..."
	CGO_ENABLED=0 $(HELM_GO) build -C $(HELM_TOOLS_DIR) -trimpath \
		-ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$$($(HELM_GO) -C $(HELM_TOOLS_DIR) list -m -f '{{.Version}}' $(HELM_MODULE))" \
		-o $@.$$$$.tmp $(HELM_PACKAGE) && mv $@.$$$$.tmp $@

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(HELM_MK))
.DEFAULT_GOAL := $(HELM_SAVED_GOAL)
endif
