#!/usr/bin/env bash
# hack/toolexec-log.sh: a -toolexec wrapper that profiles a build, a test
# tier or the whole gate. Each tool the go command runs (compile, link, vet,
# asm, cgo) runs as it would, and appends one line to $TOOLEXEC_LOG: the
# time, the tool's path (which names the Go toolchain), its CPU time (user
# and system), the package, its first source file (whose module cache path
# names the module's version) and the go command's working directory (the
# project a test built). The tests pass -toolexec on to the go commands they
# run (e2e.GoFlags), so one log covers every project of a gate:
#
#	GOFLAGS=-toolexec=$PWD/hack/toolexec-log.sh TOOLEXEC_LOG=/tmp/tools.log bash .ci/run
#	hack/toolexec-report.py /tmp/tools.log
#
# The go command asks each tool for its version (-V=full) to key the build
# cache: that call goes through untouched, so the keys are those of a build
# without the wrapper.
tool=$1
shift
case " $* " in *" -V=full "*) exec "$tool" "$@" ;; esac
"$tool" "$@"
rc=$?
log=${TOOLEXEC_LOG:-/tmp/toolexec.log}
# times reports this shell's children, the tool alone; in a pipe or $(...)
# it would report a subshell's, which has none.
times >"$log.$$"
cpu=$(sed -n 2p "$log.$$")
rm -f "$log.$$"
pkg=- src= prev=
for a in "$@"; do
	[ "$prev" = -p ] && pkg=$a
	case $a in *.go) [ -z "$src" ] && src=$a ;; esac
	prev=$a
done
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date +%s)" "$tool" "$cpu" "$pkg" "${src:--}" "$(readlink "/proc/$PPID/cwd")" >>"$log"
exit $rc
