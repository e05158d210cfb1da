#!/bin/sh
# Each libFuzzer target for RUNS executions (default 10^7) from its
# committed corpus, built by `make test-fuzz` (build-fuzz: clang,
# ASan+UBSan, fuzzer coverage throughout). Prints per target the
# executions, the seconds they took, executions per second, the corpus it
# grew to and the crashes (0, or the run stops and says where the input is).
# usage: bench/fuzz.sh [RUNS]   (BUILD=build-fuzz to point elsewhere)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10000000}
build=${BUILD:-build-fuzz}
[ -x "$build/tests/fuzz/fuzz-numbers" ] || make test-fuzz FUZZ_TIME=1 >/dev/null
# undefined behaviour is a failure like a crash, not a line in the log
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
work=$(mktemp -d /var/tmp/contend-fuzz.XXXXXX)
trap 'rm -rf "${work:?}"' EXIT
printf '%-13s %12s %8s %10s %7s %8s\n' target executions seconds execs/s corpus crashes
for t in numbers knob store hyperfine fio; do
	mkdir -p "$work/$t"
	cp tests/fuzz/corpus/$t/* "$work/$t/"
	t0=$(date +%s.%N)
	if "$build/tests/fuzz/fuzz-$t" -runs="$runs" -print_final_stats=1 \
		-artifact_prefix="$work/crash-$t-" "$work/$t" >"$work/$t.log" 2>&1; then
		crashes=0
	else
		crashes=1
	fi
	t1=$(date +%s.%N)
	n=$(awk '/stat::number_of_executed_units/ { print $2 }' "$work/$t.log")
	awk -v t="fuzz-$t" -v n="$n" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		-v c="$(ls "$work/$t" | wc -l)" -v x="$crashes" \
		'BEGIN { printf "%-13s %12s %8.1f %10.0f %7s %8s\n", t, n, s, n / s, c, x }'
	if [ $crashes != 0 ]; then
		tail -30 "$work/$t.log"
		cp "$work/crash-$t-"* . 2>/dev/null || true
		exit 1
	fi
done
