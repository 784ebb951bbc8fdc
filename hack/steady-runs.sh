#!/usr/bin/env bash
# steady-runs.sh [BIN...]: eight runs of `crdforge generate --only
# crd,deepcopy,conversion` on two real trees that take the type-error
# explanation (artefacts.go), interleaved with controller-gen's `object crd`
# on the same packages, and per binary the CPU (user+sys) and peak RSS of
# each run and their spread. BIN defaults to a crdforge built from this tree;
# give more (an older build) to compare.
#
#   - cluster-api-provider-ibmcloud v0.11.0, ./...: its main package calls
#     k8s.io/component-base/logs.NewOptions, a variable of another package's
#     function type;
#   - opentelemetry-operator v0.120.0, ./apis/...: hand-written
#     `var _ conversion.Convertible = &T{}` assertions need the hidden
#     DeepCopyObject.
#
# Needs the module proxy on a first run. OpenTelemetry's module is not in the
# checksum database the proxy serves, so it is fetched unchecked.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT

GOBIN=$work/bin go install "sigs.k8s.io/controller-tools/cmd/controller-gen@$(cd "$root" && go list -m -f '{{.Version}}' sigs.k8s.io/controller-tools)"
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	(cd "$root" && go build -o "$work/bin/crdforge" ./cmd/crdforge)
	bins=("$work/bin/crdforge")
fi

fetch() { # module@version dir pattern
	src=$(GONOSUMDB=github.com/open-telemetry go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	cp -r "$src" "$2" && chmod -R u+w "$2"
	(cd "$2" && GONOSUMDB=github.com/open-telemetry GOFLAGS=-mod=mod go list "$3" >/dev/null)
}

measure() { # dir pattern
	echo "## $1 $2"
	for _ in 1 2 3 4 5 6 7 8; do
		for b in "${bins[@]}" "$work/bin/controller-gen"; do
			args=(generate --only crd,deepcopy,conversion "$2")
			[[ $b == *controller-gen ]] && args=(object crd "paths=$2" "output:crd:artifacts:config=$work/cg")
			(cd "$1" && /usr/bin/time -f "$b %U %S %M %e" "$b" "${args[@]}" 2>&1 >/dev/null | tail -1)
		done
	done | awk '{
		k = $1; cpu = $2 + $3; mb = int($4 / 1024); n[k]++; wall[k] += $5
		c[k] = c[k] sprintf(" %.1f", cpu); r[k] = r[k] " " mb
		if (!(k in lo) || cpu < lo[k]) lo[k] = cpu; if (cpu > hi[k]) hi[k] = cpu
		if (!(k in rlo) || mb < rlo[k]) rlo[k] = mb; if (mb > rhi[k]) rhi[k] = mb
	} END {
		for (k in n) printf "%s\n  CPU s:%s (spread %.0f%%)\n  RSS MB:%s (spread %.0f%%)\n  mean wall %.2f s\n",
			k, c[k], (hi[k] / lo[k] - 1) * 100, r[k], (rhi[k] / rlo[k] - 1) * 100, wall[k] / n[k]
	}'
}

fetch sigs.k8s.io/cluster-api-provider-ibmcloud@v0.11.0 "$work/ibmcloud" ./...
fetch github.com/open-telemetry/opentelemetry-operator@v0.120.0 "$work/otel" ./apis/...
measure "$work/ibmcloud" ./...
measure "$work/otel" ./apis/...
