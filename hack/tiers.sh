#!/usr/bin/env bash
# hack/tiers.sh TARGET...: make test's driver. Runs each make target in
# order, stops at the first that fails, and prints every target's wall time
# at the end, failed or not, so that CI's log says where the time went. Each
# line also gives the CPU time the target's processes used and what share of
# the machine's cores that kept busy: a tier well below 100% waits on
# something (the API server, the network) rather than on the cores.
set -uo pipefail
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

# cpu_now sets cpu to the user plus system CPU time used so far by this
# shell's finished children, in hundredths of a second, from the second
# line of bash's `times`: a tier's share is the difference, rounded once,
# rather than a difference of two totals each rounded down. The builtin
# runs in this shell and writes to a file: in a pipe or in $(...) it would
# run in a subshell, which has no children of its own.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
cpu_now() {
	times >"$times_file"
	cpu=$(awk 'NR == 2 {
		split($0, f, /[ms ]+/)
		printf "%d", (f[1] * 60 + f[2] + f[3] * 60 + f[4]) * 100
	}' "$times_file")
}

report=()
rc=0
for target in "$@"; do
	echo "==> make $target"
	start=$(date +%s)
	cpu_now
	cpu0=$cpu
	"$MAKE" --no-print-directory "$target"
	rc=$?
	secs=$(($(date +%s) - start))
	cpu_now
	cpu=$(((cpu - cpu0 + 50) / 100))
	busy=$((secs > 0 ? 100 * cpu / (secs * cores) : 0))
	report+=("$(printf '%-16s %3dm%02ds   cpu %3dm%02ds  %3d%% of %d cores%s' \
		"$target" $((secs / 60)) $((secs % 60)) $((cpu / 60)) $((cpu % 60)) "$busy" "$cores" \
		"$([ $rc = 0 ] || echo "  FAILED (exit $rc)")")")
	[ $rc = 0 ] || break
done
echo "==> wall time per tier"
printf '%s\n' "${report[@]}"
exit $rc
