#!/usr/bin/env bash
# webhook-benchtable.sh: BENCHMARKS.md's table of the conversion webhook
# handlers, before and after, measured in one run on this machine.
#
# It builds two test binaries of examples/widgets with this tree's
# benchmark files: "before" from the tree at $BASE (git archive), and
# "after" from the working tree (uncommitted changes included); runs
# BenchmarkConversionReview with each, taking turns, $COUNT times; prints the
# load average before and after (the machine should be quiet), benchstat's
# comparison of crdforge's rows when benchstat is found, and the table
# (examples/widgets/benchtable): medians per object, crdforge against
# controller-runtime and the floors, and the goals each ratio is held to.
#
# Environment (defaults): BASE (51303e0, before issue 11's handler-overhead
# work), COUNT (6), BENCHTIME (1s), BENCH (BenchmarkConversionReview: a
# narrower pattern runs some rows only), OUT (a new temporary directory: the
# binaries and the raw results, kept), LOCK (unset; a file to flock around
# each single run, so that a shared machine's other heavy jobs wait for it
# and it for them, run by run rather than for the whole alternation),
# BENCHSTAT (benchstat on PATH, else /tmp/benchstat).
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
base=${BASE:-51303e0}
count=${COUNT:-6}
benchtime=${BENCHTIME:-1s}
bench=${BENCH:-BenchmarkConversionReview}
out=${OUT:-$(mktemp -d -t webhook-benchtable.XXXXXX)}
benchstat=${BENCHSTAT:-$(command -v benchstat || echo /tmp/benchstat)}

mkdir -p "$out/before-src"
rm -f "$out/before.txt" "$out/after.txt"
git -C "$root" archive "$base" | tar -x -C "$out/before-src"
cp "$root"/examples/widgets/{webhook,copyfloor}_bench_test.go "$out/before-src/examples/widgets/"
# A tree with generated codecs has the floor through them in a file of its
# own, kept: it calls the codecs as that tree's webhook module defines them.
(cd "$out/before-src/examples/widgets" && go test -c -o "$out/before.test" .)
(cd "$root/examples/widgets" && go test -c -o "$out/after.test" .)

run() { # run NAME: one run of the NAME binary, appended to NAME.txt
	local cmd=("$out/$1.test" -test.run '^$' -test.bench "$bench" -test.benchtime "$benchtime" -test.benchmem)
	if [ -n "${LOCK:-}" ]; then
		flock "$LOCK" "${cmd[@]}" >>"$out/$1.txt"
	else
		"${cmd[@]}" >>"$out/$1.txt"
	fi
}

echo "before: $base; after: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo ' with uncommitted changes'); results in $out"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$count"); do
	run before
	run after
	echo "run $i of $count done; load average $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -x "$benchstat" ]; then
	"$benchstat" -filter '/handler:crdforge' "$out/before.txt" "$out/after.txt" || true
fi
(cd "$root" && go run ./examples/widgets/benchtable "$out/before.txt" "$out/after.txt")
