#!/bin/sh
# Runs each libFuzzer target of BUILD for SECONDS from a copy of its
# committed corpus (tests/fuzz/corpus/NAME), as many at once as there are
# CPUs: exit 1 when one crashed, leaked or failed a check, with the input
# that did it kept in a crash-* file.
# usage: tests/fuzz/run.sh BUILD [SECONDS]
set -eu
build=${1:?usage: tests/fuzz/run.sh BUILD [SECONDS]}
secs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
# undefined behaviour is a failure like a crash, not a line in the log
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
work=$(mktemp -d /var/tmp/contend-fuzz.XXXXXX)
trap 'rm -rf "${work:?}"' EXIT
# one target: its verdict line, 0 or 1 (kept in $work/NAME.rc)
fuzz_one() {
	t=$1
	mkdir -p "$work/$t"
	cp "$here/corpus/$t"/* "$work/$t/"
	if "$build/tests/fuzz/fuzz-$t" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$work/crash-$t-" "$work/$t" >"$work/$t.log" 2>&1; then
		runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/$t.log")
		echo "fuzz-$t: ${runs:-?} executions in ${secs} s, no crash" >"$work/$t.out"
		echo 0 >"$work/$t.rc"
	else
		echo "fuzz-$t: FAILED" >"$work/$t.out"
		tail -40 "$work/$t.log" >>"$work/$t.out"
		echo 1 >"$work/$t.rc"
	fi
}
# a target per CPU at a time (each fuzzer is one process)
targets="numbers knob store hyperfine fio"
jobs=$(nproc 2>/dev/null || echo 1)
n=0
for t in $targets; do
	fuzz_one "$t" &
	n=$((n + 1))
	[ $((n % jobs)) -eq 0 ] && wait
done
wait
status=0
for t in $targets; do
	cat "$work/$t.out"
	if [ "$(cat "$work/$t.rc")" != 0 ]; then
		for c in "$work/crash-$t-"*; do
			[ -e "$c" ] && cp "$c" . && echo "input kept in ./$(basename "$c")"
		done
		status=1
	fi
done
exit $status
