#!/bin/sh
# The harness's cost on a benchmark's own figure: the same fio job (random
# 4k reads, O_DIRECT, in a file on the work directory's filesystem) run
# alone and under `contend run -w cmd --figure-json`, alternated A B, B A
# over PAIRS pairs (default 6) in one run, as ../BENCH rules ask. Prints
# each pair's IOPS both ways, the means and the ratio contend/alone.
# Target: at least 0.98 (contend's monitors, cgroup and reference cost the
# job at most 2% of its IOPS). RUNTIME (default 5 s) is each fio run's;
# DIR (default /var/tmp) holds the 256 MiB file.
set -eu
cd "$(dirname "$0")/.."
C=${CONTEND:-build/contend}
PAIRS=${PAIRS:-6}
RUNTIME=${RUNTIME:-5}
for tool in fio python3 sqlite3; do
	command -v $tool >/dev/null || { echo "bench: $tool is missing" >&2; exit 3; }
done
T=$(mktemp -d "${DIR:-/var/tmp}/contend-bench-figure.XXXXXX")
trap 'rm -rf "${T:?}"' EXIT
job="fio --name=r --rw=randread --bs=4k --size=256M --direct=1 --ioengine=psync --runtime=$RUNTIME --time_based --filename=$T/fio.dat --output-format=json"
fio --name=lay --rw=write --bs=1M --size=256M --filename="$T/fio.dat" >/dev/null

alone() {
	# shellcheck disable=SC2086
	$job | python3 -c 'import json, sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}
under() {
	# shellcheck disable=SC2086
	"$C" run -q --db "$T/r.db" -w cmd -l none -n 1 --no-warmup --dir "$T" -L figure \
		--figure-json 'iops=jobs.0.read.iops:higher:IOPS' -- $job >/dev/null
	sqlite3 "$T/r.db" "select json_extract(metrics, '\$.iops') from runs where status = 'ok' order by id desc limit 1"
}

echo "fio random 4k reads, O_DIRECT, ${RUNTIME} s a run, $PAIRS pairs alternated; $(uname -r), $(date -u '+%F %T') UTC"
echo "pair  alone IOPS  contend IOPS"
for p in $(seq 1 "$PAIRS"); do
	if [ $((p % 2)) = 1 ]; then
		a=$(alone)
		c=$(under)
	else
		c=$(under)
		a=$(alone)
	fi
	printf '%-5s %-11.1f %.1f\n' "$p" "$a" "$c"
	echo "$a $c" >>"$T/pairs"
done
awk '{ a += $1; c += $2; n++ } END { printf "mean  %-11.1f %.1f\nratio contend/alone %.4f (target >= 0.98)\n", a / n, c / n, (c / n) / (a / n) }' "$T/pairs"
