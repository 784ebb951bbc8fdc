# store.mk: where the tools the .mk files beside it build are kept. Each
# build goes into TOOLS_STORE, once per machine rather than once per clone,
# under a key made of what it reads: its tools module's go.mod and go.sum,
# any source of its own, and the Go version. bin/<tool> is a link to the
# stored build. A fresh clone of the same versions links in milliseconds
# what it would otherwise link again from the build cache (a minute of CPU
# for the control plane, as setup-envtest keeps its assets per machine);
# a changed go.mod is a new key, built once. Entries of a tool unused for 30
# days go when a new one of it is stored.
#
# Included by each tool's .mk (once, however many include it).

ifndef TOOLS_STORE_MK
TOOLS_STORE_MK := $(lastword $(MAKEFILE_LIST))

# The user's cache directory, as Go's os.UserCacheDir finds it on Linux.
TOOLS_STORE ?= $(or $(XDG_CACHE_HOME),$(if $(HOME),$(HOME)/.cache),$(CURDIR)/bin/.cache)/crdforge/tools

TOOLS_SHA256     := $(shell command -v sha256sum >/dev/null 2>&1 && echo sha256sum || echo 'shasum -a 256')
TOOLS_GO_VERSION := $(shell $(or $(GO),go) env GOVERSION)

# content_key <files>, <more>: 16 hex digits of a hash of the contents of
# <files>, of <more> (flags, versions) and of the Go version.
content_key = $(shell { echo '$(TOOLS_GO_VERSION) $(2)'; cat $(1); } | $(TOOLS_SHA256) | cut -c1-16)

# tools_entry <tool>, <files>, <more>: the stored directory of a build of
# <tool> that reads <files>, with <more> in its key.
tools_entry = $(TOOLS_STORE)/$(1)-$(call content_key,$(2),$(3))

# tools_link <tool>, <entry>, <link>, <target>: points <link> at <target>,
# in <entry> or <entry> itself (replacing a directory an older make built
# at <link>), marks the entry used, and trims <tool>'s entries unused for 30
# days.
define tools_link
	@mkdir -p $(dir $(3)) && \
	if [ -d $(3) ] && [ ! -L $(3) ]; then rm -rf $(3); fi && \
	ln -sfn $(4) $(3) && touch -c $(2) && \
	find $(TOOLS_STORE) -mindepth 1 -maxdepth 1 -name '$(1)-*' ! -name '$(notdir $(2))' -mtime +30 -exec rm -rf {} +
endef

endif
