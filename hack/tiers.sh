#!/usr/bin/env bash
# hack/tiers.sh STEP...: make test's driver. Runs each step in order, stops
# after the first that fails, and prints every target's wall time at the
# end, failed or not, so that CI's log says where the time went. Each line
# also gives the CPU time the target's processes used and what share of the
# machine's cores that kept busy: a target well below 100% waits on
# something (the API server, the network) rather than on the cores.
#
# A step is a make target, or lanes that run at once, separated by commas,
# each one target or several joined by '+' that run in order:
#
#	hack/tiers.sh lint test-e2e,test-compat+test-realworld
#
# runs lint, then test-e2e beside test-compat and then test-realworld, so
# that the cores test-e2e leaves idle while it waits on the API server do
# the others' builds. The lanes' output is streamed, each line marked with
# its lane's first target.
set -uo pipefail
cd "$(dirname "$0")/.."

MAKE=${MAKE:-make}
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cpu_now sets cpu to the user plus system CPU time used so far by this
# shell's finished children, in hundredths of a second, from the second
# line of bash's `times`: a target's share is the difference, rounded once,
# rather than a difference of two totals each rounded down. The builtin
# runs in this shell (a lane's subshell, in a step of lanes) and writes to a
# file of its own: in a pipe or in $(...) it would run in a subshell, which
# has no children of its own.
cpu_now() {
	local file="$work/times.$BASHPID"
	times >"$file"
	cpu=$(awk 'NR == 2 {
		split($0, f, /[ms ]+/)
		printf "%d", (f[1] * 60 + f[2] + f[3] * 60 + f[4]) * 100
	}' "$file")
}

# run_target runs make target and writes its report line to $work/<target>.
run_target() {
	local target=$1 start cpu0 rc secs busy
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
	printf '%-18s %3dm%02ds   cpu %3dm%02ds  %3d%% of %d cores%s\n' \
		"$target" $((secs / 60)) $((secs % 60)) $((cpu / 60)) $((cpu % 60)) "$busy" "$cores" \
		"$([ $rc = 0 ] || echo "  FAILED (exit $rc)")" >"$work/report.$target"
	return $rc
}

# run_lane runs a lane's targets in order, up to the first that fails.
run_lane() {
	local target
	for target in ${1//+/ }; do
		run_target "$target" || return $?
	done
}

# run_step runs a step's lanes at once (one lane: in this shell, as it is)
# and returns the status of the first lane, in the step's order, that
# failed.
run_step() {
	local step=$1 lane pids=() rc=0 status
	if [[ $step != *,* ]]; then
		run_lane "$step"
		return $?
	fi
	for lane in ${step//,/ }; do
		(
			run_lane "$lane" 2>&1 | sed -u "s/^/[${lane%%+*}] /"
			exit "${PIPESTATUS[0]}"
		) &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid"
		status=$?
		[ $rc != 0 ] || rc=$status
	done
	return $rc
}

# disk_free prints the space left where go test builds (the temporary
# directory: test binaries, control planes' etcd data) and where Go keeps
# its caches. A full disk shows in a log as anything but itself (an API
# server timing out, a lane killed by SIGPIPE once its log's writer
# fails), so the log says how much there was, before and after.
disk_free() {
	local dirs=("${TMPDIR:-/tmp}" "$(go env GOCACHE 2>/dev/null)" "$(go env GOMODCACHE 2>/dev/null)")
	df -Ph "${dirs[@]}" 2>/dev/null | awk 'NR > 1 && !seen[$1]++ {
		printf "disk: %s free of %s on %s (temporary files, Go caches)\n", $4, $2, $6
	}'
}

disk_free
rc=0
for step in "$@"; do
	run_step "$step"
	rc=$?
	[ $rc = 0 ] || break
done
echo "==> wall time per tier"
for step in "$@"; do
	for target in ${step//[,+]/ }; do
		[ ! -f "$work/report.$target" ] || cat "$work/report.$target"
	done
done
disk_free
exit $rc
