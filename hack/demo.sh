#!/usr/bin/env bash
# make demo: generate examples/crontab, then run its generated conversion
# webhook against a real kube-apiserver and play the seed scenario with
# kubectl (e2e/cmd/demo). Needs only Go; the first run builds
# kube-apiserver and etcd from Go modules (a few minutes).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
MAKE=${MAKE:-make}

echo "==> building crdforge (bin/crdforge)"
"$GO" build -o bin/crdforge ./cmd/crdforge

# KUBEBUILDER_ASSETS (setup-envtest's directory, say) is used as it is;
# else the control plane is built from Go modules into bin/k8s, once.
if [ -z "${KUBEBUILDER_ASSETS:-}" ]; then
	echo "==> building the control plane: kube-apiserver, etcd and kubectl into bin/k8s (make envtest-assets)"
	"$MAKE" --no-print-directory -f tools/envtest/envtest.mk envtest-assets
	export KUBEBUILDER_ASSETS=$PWD/bin/k8s
fi

echo "==> crdforge generate ./... in examples/crontab"
(cd examples/crontab && ../../bin/crdforge generate ./...)

# The demo uses the assets' kubectl when they have one, else kubectl on PATH.

echo "==> building the demo (e2e/cmd/demo)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GO" build -o "$tmp/demo" ./e2e/cmd/demo

# Not exec: the trap removes the binary afterwards. The demo stops what it
# starts itself, on success, failure and Ctrl-C.
"$tmp/demo" -crdforge bin/crdforge
