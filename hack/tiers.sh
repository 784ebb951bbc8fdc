#!/usr/bin/env bash
# hack/tiers.sh TARGET...: make test's driver. Runs each make target in
# order, stops at the first that fails, and prints every target's wall time
# at the end, failed or not, so that CI's log says where the time went.
set -uo pipefail
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
report=()
rc=0
for target in "$@"; do
	echo "==> make $target"
	start=$(date +%s)
	"$MAKE" --no-print-directory "$target"
	rc=$?
	secs=$(($(date +%s) - start))
	report+=("$(printf '%-16s %3dm%02ds%s' "$target" $((secs / 60)) $((secs % 60)) "$([ $rc = 0 ] || echo "  FAILED (exit $rc)")")")
	[ $rc = 0 ] || break
done
echo "==> wall time per tier"
printf '%s\n' "${report[@]}"
exit $rc
