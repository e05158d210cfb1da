#!/bin/bash
# One session a side at the time scale of the comparison (docs/studies/
# gap-campaign.md): do two sessions of one config, compared as two labels
# (as kernel A and kernel B are), pass the gate at every gap a user
# compares at, once the machine's spread is measured over that time - and
# is a real slowdown still found?
#
#   - a covering calibration, as the README prescribes it: contend
#     calibrate --sessions 4 --every 21m (its sessions 10, 31, 52 and 73
#     minutes in: pairs up to 63 minutes apart, past the 61 minutes of
#     three steps of the 20-minute campaign);
#   - four A/A campaigns, the sessions of each its gap apart (from the end
#     of one to the start of the next): seven sessions 20 min apart (0 to
#     2 h), six 5 min apart, six 1 min apart, six 20 s apart, fitted
#     between the calibration's sessions so that no two sessions overlap;
#   - a known slowdown: three sessions 'base' and three 'slow' (a busy
#     loop pinned on CPU 1 beside the compile) in turn;
#   - then every ordered pair of each campaign gated, contend compare sI sJ
#     --fail-on-regression 0 (exit 1 a false gate, 2 a refusal: the spread
#     does not cover the pair's gap), and base against slow.
#
# Two hours. Run it on a quiet machine as root (nothing else running: the
# point is the machine's own drift). OUT (default a new directory under
# /var/tmp) keeps the store, every session's output and every gate's
# verdict line; the summary goes to stdout. OPTS overrides the workload
# options (default: kbuild --quick, none, 6 runs). SCALE (default 1)
# multiplies every time, for a short trial of the script itself;
# SLOW_ONLY=1 measures the known slowdown alone (four minutes); BUSY_NICE
# sets the busy loop's nice value (-20: the compile about 1.9 times as
# long, 7 December).
set -u
cd "$(dirname "$0")/.."
C=${CONTEND:-build/contend}
OPTS=${OPTS:--w kbuild --quick -l none -n 6}
SCALE=${SCALE:-1}
OUT=${OUT:-$(mktemp -d /var/tmp/contend-campaign.XXXXXX)}
mkdir -p "$OUT" || exit 3
export CONTEND_DB=$OUT/r.db
[ "${1:-}" = --session ] || rm -f "${CONTEND_DB:?}"
busy= cal=
trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null; [ -n "$cal" ] && kill "$cal" 2>/dev/null' EXIT

sec() { awk -v s="$1" -v k="$SCALE" 'BEGIN { printf "%d", s * k }'; }
T0=${T0:-$(date +%s)}
export T0 OUT OPTS SCALE
# at SECONDS: wait until SECONDS (scaled) after the start
at() {
	local t=$((T0 + $(sec "$1"))) now
	now=$(date +%s)
	[ "$now" -lt "$t" ] && sleep $((t - now))
}
session() { # LABEL [busy]
	if [ "${2:-}" = busy ]; then
		# at a higher priority than the compile's jobs (BUSY_NICE,
		# default -20, the highest), so that the loop takes CPU 1
		# from them (at the default one, sharing it with them, it
		# took a tenth of the compile's time: no known slowdown)
		nice -n "${BUSY_NICE:--20}" taskset -c 1 sh -c 'while :; do :; done' &
		busy=$!
	fi
	# shellcheck disable=SC2086
	"$C" run -q $OPTS -L "$1" >"$OUT/$1.txt" 2>&1 || echo "session $1 failed: see $OUT/$1.txt" >&2
	if [ -n "$busy" ]; then
		kill "$busy"
		wait "$busy" 2>/dev/null
		busy=
	fi
}

# one session, run again by the script itself under the lock (flock
# takes a command)
if [ "${1:-}" = --session ]; then
	session "$2" "${3:-}"
	exit 0
fi

# the gate between two labels: pass, fail (a false gate) or refused
gate() {
	local rc=0
	"$C" compare "$1" "$2" --fail-on-regression 0 >"$OUT/gate.out" 2>"$OUT/gate.err" || rc=$?
	echo "$1 $2 exit $rc | $(grep -E "^[a-z]+ +[^ ]+ vs [^ ]+: " "$OUT/gate.out" | head -1) | $(head -c 300 "$OUT/gate.err")" >>"$OUT/gates.txt"
	return $rc
}
# SLOW_ONLY=1: the known slowdown alone - three sessions 'base' and three
# 'slow' in turn, then the gate three a side
if [ "${SLOW_ONLY:-}" = 1 ]; then
	echo "slowdown: $OPTS, commit $(git rev-parse --short HEAD 2>/dev/null), $(date -u '+%F %T') UTC"
	for k in 1 2 3; do
		session base
		session slow busy
	done
	rc=0
	gate base slow || rc=$?
	echo "three a side, a busy CPU beside the compile: exit $rc ($([ $rc = 1 ] && echo found || echo not found)): $(grep '^base slow' "$OUT/gates.txt" | cut -d'|' -f2)"
	sqlite3 "$CONTEND_DB" "select c.label, r.session_id, round(avg(r.wall_ns) / 1e9, 3), count(*) from runs r join configs c on c.id = r.config_id where r.status = 'ok' and r.load = 'none' group by r.session_id order by r.session_id"
	exit 0
fi

echo "campaign: $OPTS, commit $(git rev-parse --short HEAD 2>/dev/null), $(date -u '+%F %T') UTC, scale $SCALE"
# the calibration: four sessions 21 min apart, from 10 min in
(
	at 600
	# shellcheck disable=SC2086
	"$C" calibrate $OPTS -L cal --sessions 4 --every "$(sec 1260)s" >"$OUT/cal.txt" 2>&1 ||
		echo "calibrate failed: see $OUT/cal.txt" >&2
) &
cal=$!
# the campaigns: chains of sessions, each chain's sessions its pause apart
# (from the end of one to the start of the next), started so that no two
# sessions meet (minutes in, a session taking under a minute): 20 min
# from 0; 1 min from 41.5, 20 s from 53, the slowdown from 62.5, 5 min
# from 83; the calibration's at 10, 31, 52 and 73. A lock keeps any two
# of them from overlapping should one run long.
chain() { # START_MIN PAUSE_S N PREFIX
	local i
	at "$(awk -v m="$1" 'BEGIN { print m * 60 }')"
	for i in $(seq 1 "$3"); do
		flock "$OUT/lock" "$0" --session "$4-$i"
		[ "$i" -lt "$3" ] && sleep "$(sec "$2")"
	done
}
chain 0 1200 7 g20m &
chain 41.5 60 6 g1m &
chain 53 20 6 g20s &
(
	at "$(awk 'BEGIN { print 62.5 * 60 }')"
	for k in 1 2 3; do
		flock "$OUT/lock" "$0" --session base
		flock "$OUT/lock" "$0" --session slow busy
	done
) &
chain 83 300 6 g5m &
wait $(jobs -p | grep -vx "$cal")
wait "$cal"
cal=
echo "ended $(date -u '+%T') UTC"
awk '/within CoV/,/^$/' "$OUT/cal.txt"

for g in 20s 1m 5m 20m; do
	n=$(ls "$OUT"/g"$g"-*.txt 2>/dev/null | wc -l)
	pass=0 fail=0 refused=0
	for i in $(seq 1 "$n"); do
		for j in $(seq 1 "$n"); do
			[ "$i" = "$j" ] && continue
			rc=0
			gate "g$g-$i" "g$g-$j" || rc=$?
			case $rc in 0) pass=$((pass + 1)) ;; 1) fail=$((fail + 1)) ;; *) refused=$((refused + 1)) ;; esac
		done
	done
	echo "gap $g: $n sessions, $((pass + fail + refused)) ordered pairs: $fail false gates, $pass passed, $refused refused (not covered)"
done
rc=0
gate base slow || rc=$?
echo "three a side, a busy CPU beside the compile: exit $rc ($([ $rc = 1 ] && echo found || echo not found)): $(grep '^base slow' "$OUT/gates.txt" | cut -d'|' -f2)"
sqlite3 "$CONTEND_DB" "select c.label, r.session_id, round(avg(r.wall_ns) / 1e9, 3), count(*), strftime('%H:%M:%S', s.started_at / 1000000000, 'unixepoch') from runs r join configs c on c.id = r.config_id join sessions s on s.id = r.session_id where r.status = 'ok' and r.load = 'none' group by r.session_id order by s.started_at" >"$OUT/means.txt"
echo "session means (label|session|mean s|runs|start UTC):"
cat "$OUT/means.txt"
"$C" calibrate --show $OPTS >"$OUT/show.txt" 2>&1
cat "$OUT/show.txt"
echo "kept in $OUT"
