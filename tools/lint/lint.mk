# lint.mk: builds golangci-lint from the Go module in tools/lint (its go.mod
# pins the version) into bin/golangci-lint: no install script, no download
# other than the Go module proxy.
#
# Use it from the repository root, either included by the main Makefile
#
#     include tools/lint/lint.mk
#     lint: $(GOLANGCI_LINT)
#     	$(GOLANGCI_LINT) run ./...
#
# or stand-alone:
#
#     make -f tools/lint/lint.mk golangci-lint
#
# The build is kept in the tools store (tools/store.mk), once per machine,
# and bin/golangci-lint links to it: a second build does nothing unless
# tools/lint/go.mod or go.sum changed. The first one compiles a few hundred
# packages and takes several minutes on two cores.

# Remember the caller's default goal so that including this fragment before
# any other target does not make golangci-lint the main Makefile's default.
LINT_MK             := $(lastword $(MAKEFILE_LIST))
LINT_SAVED_GOAL     := $(.DEFAULT_GOAL)

LINT_GO             ?= go
LINT_TOOLS_DIR      ?= tools/lint
LINT_MODULE         := github.com/golangci/golangci-lint/v2
GOLANGCI_LINT       := bin/golangci-lint
LINT_MOD_DEPS       := $(LINT_TOOLS_DIR)/go.mod $(LINT_TOOLS_DIR)/go.sum

include $(dir $(LINT_MK))../store.mk
LINT_ENTRY          := $(call tools_entry,golangci-lint,$(LINT_MOD_DEPS))

.PHONY: golangci-lint $(GOLANGCI_LINT)
golangci-lint: $(GOLANGCI_LINT)

$(GOLANGCI_LINT): $(LINT_ENTRY)/golangci-lint
	$(call tools_link,golangci-lint,$(LINT_ENTRY),$@,$<)

# `golangci-lint version` reads the version from the linker, as the release
# builds set it: take it, and the release time, from what go.mod requires.
$(LINT_ENTRY)/golangci-lint:
	@mkdir -p $(@D)
	@echo "building golangci-lint from $(LINT_TOOLS_DIR)/go.mod (takes a few minutes the first time)..."
	@set -e; \
	ver=$$($(LINT_GO) -C $(LINT_TOOLS_DIR) list -m -f '{{.Version}}' $(LINT_MODULE)); \
	date=$$($(LINT_GO) -C $(LINT_TOOLS_DIR) list -m -f '{{.Time.Format "2006-01-02T15:04:05Z07:00"}}' $(LINT_MODULE)); \
	echo "CGO_ENABLED=0 $(LINT_GO) build -C $(LINT_TOOLS_DIR) -trimpath -o $@ $(LINT_MODULE)/cmd/golangci-lint ($$ver)"; \
	CGO_ENABLED=0 $(LINT_GO) build -C $(LINT_TOOLS_DIR) -trimpath \
		-ldflags "-s -w -X main.version=$${ver#v} -X main.date=$$date" \
		-o $@.$$$$.tmp $(LINT_MODULE)/cmd/golangci-lint && mv $@.$$$$.tmp $@

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(LINT_MK))
.DEFAULT_GOAL := $(LINT_SAVED_GOAL)
endif
