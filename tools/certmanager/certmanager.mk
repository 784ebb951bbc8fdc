# certmanager.mk: builds tools/certmanager (cert-manager's controller and CA
# injector, from cert-manager's library packages at the version its go.mod
# pins) into bin/certmanager, with cert-manager's CRDs of the same version
# beside the build (bin/certmanager's directory, crds/). A test tool, not
# shipped: the end-to-end suite runs it against envtest's API server to
# renew the webhook's serving certificate (e2e/certrenewal_test.go).
#
# Use it from the repository root, either included by the main Makefile
#
#     include tools/certmanager/certmanager.mk
#     test-e2e: $(CERTMANAGER)
#
# or stand-alone:
#
#     make -f tools/certmanager/certmanager.mk certmanager
#
# The build is kept in the tools store (tools/store.mk), once per machine,
# and bin/certmanager links to it: a second build does nothing unless
# tools/certmanager's go.mod, go.sum or Go files changed. Before building it
# checks that no ACME DNS provider, Vault or Venafi SDK is linked in (go
# list -deps): those are what the cmd/ modules would bring, and they would
# double the build.

# Remember the caller's default goal so that including this fragment before
# any other target does not make certmanager the main Makefile's default.
CERTMANAGER_MK          := $(lastword $(MAKEFILE_LIST))
CERTMANAGER_SAVED_GOAL  := $(.DEFAULT_GOAL)

CERTMANAGER_GO          ?= go
CERTMANAGER_TOOLS_DIR   ?= tools/certmanager
CERTMANAGER_MODULE      := github.com/cert-manager/cert-manager
CERTMANAGER             := bin/certmanager
CERTMANAGER_KEY_FILES   := $(CERTMANAGER_TOOLS_DIR)/go.mod $(CERTMANAGER_TOOLS_DIR)/go.sum $(wildcard $(CERTMANAGER_TOOLS_DIR)/*.go)
# Import paths the build must not reach: cloud DNS SDKs (ACME DNS-01),
# Vault, Venafi.
CERTMANAGER_KEPT_OUT    := github.com/aws/|github.com/Azure/azure-sdk|google.golang.org/api/|cloud.google.com/|github.com/digitalocean/|github.com/akamai/|github.com/hashicorp/vault|github.com/Venafi/|/pkg/issuer/acme/dns|/pkg/issuer/vault|/pkg/issuer/venafi

include $(dir $(CERTMANAGER_MK))../store.mk
CERTMANAGER_ENTRY       := $(call tools_entry,certmanager,$(CERTMANAGER_KEY_FILES))

.PHONY: certmanager $(CERTMANAGER)
certmanager: $(CERTMANAGER)

$(CERTMANAGER): $(CERTMANAGER_ENTRY)/certmanager
	$(call tools_link,certmanager,$(CERTMANAGER_ENTRY),$@,$<)

$(CERTMANAGER_ENTRY)/certmanager:
	@mkdir -p $(@D)
	@echo "building cert-manager's controller and cainjector from $(CERTMANAGER_TOOLS_DIR)/go.mod ($$($(CERTMANAGER_GO) -C $(CERTMANAGER_TOOLS_DIR) list -m -f '{{.Version}}' $(CERTMANAGER_MODULE)))..."
	@kept=$$($(CERTMANAGER_GO) -C $(CERTMANAGER_TOOLS_DIR) list -deps . | grep -E '$(CERTMANAGER_KEPT_OUT)'); \
	if [ -n "$$kept" ]; then echo "$(CERTMANAGER_TOOLS_DIR) links what it must leave out:"; echo "$$kept"; exit 1; fi
	rm -rf $(@D)/crds && mkdir -p $(@D)/crds && \
	cp $$($(CERTMANAGER_GO) -C $(CERTMANAGER_TOOLS_DIR) list -m -f '{{.Dir}}' $(CERTMANAGER_MODULE))/deploy/crds/*.yaml $(@D)/crds/ && \
	chmod u+w $(@D)/crds/*.yaml
	CGO_ENABLED=0 $(CERTMANAGER_GO) build -C $(CERTMANAGER_TOOLS_DIR) -trimpath -ldflags "-s -w" \
		-o $@.$$$$.tmp . && mv $@.$$$$.tmp $@

# Included: give the default goal back (empty means "the next target").
ifneq ($(firstword $(MAKEFILE_LIST)),$(CERTMANAGER_MK))
.DEFAULT_GOAL := $(CERTMANAGER_SAVED_GOAL)
endif
