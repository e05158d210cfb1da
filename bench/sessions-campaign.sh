#!/bin/bash
# Issue 35's campaign (docs/studies/sessions-campaign.md): do two sessions of
# one config get a verdict against each other, and is a real difference
# still found across sessions?
#
#   1. contend calibrate --sessions 4 (the machine's spread of sessions);
#   2. six sessions s1..s6 of one config, GAP seconds apart (default 45);
#      every pair compared before (--within-session: the runs decide) and
#      after (the machine's spread of sessions weighs in);
#   3. a known slowdown, a busy loop pinned on CPU 1 beside the compile:
#      three sessions 'base' and three 'slow' in turn (base, slow, base ...),
#      compared three against three (the sessions decide), and each 'slow'
#      session against each of s1..s6 one a side.
#
# Run it on a quiet machine as root (nothing else running: the point is the
# machine's own drift). OUT (default a new directory under /var/tmp) keeps
# the store and every compare's verdict line; the summary goes to stdout.
# OPTS overrides the workload options (default: kbuild --quick, none, 6 runs).
set -u
cd "$(dirname "$0")/.."
C=${CONTEND:-build/contend}
GAP=${GAP:-45}
OPTS=${OPTS:--w kbuild --quick -l none -n 6}
OUT=${OUT:-$(mktemp -d /var/tmp/contend-campaign.XXXXXX)}
mkdir -p "$OUT" || exit 3
export CONTEND_DB=$OUT/r.db
rm -f "${CONTEND_DB:?}"
busy=
trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null' EXIT

# the verdict of a compare's first verdict line, and its drift warning
verdict() {
	local out line
	out=$("$C" compare "$@" 2>&1)
	line=$(grep -E "^[a-z]+ +[^ ]+ vs [^ ]+: " <<<"$out" | head -1)
	grep -q "^warning: .* drifted" <<<"$out" && line="$line [drift warning]"
	case $line in
	*": worse"*) v=worse ;;
	*": better"*) v=better ;;
	*": no significant difference"*) v=same ;;
	*) v="? ($line)" ;;
	esac
	echo "$v | ${line#*: }"
}

session() { # LABEL [busy]
	if [ "${2:-}" = busy ]; then
		taskset -c 1 sh -c 'while :; do :; done' &
		busy=$!
	fi
	"$C" run -q $OPTS -L "$1" >"$OUT/$1.$(date +%s).txt" 2>&1 || echo "session $1 failed: see $OUT" >&2
	if [ -n "$busy" ]; then
		kill "$busy"
		wait "$busy" 2>/dev/null
		busy=
	fi
}

echo "campaign: $OPTS, sessions $GAP s apart, commit $(git rev-parse --short HEAD 2>/dev/null), $(date -u '+%F %T') UTC"
"$C" calibrate -q $OPTS -L cal --sessions 4 >"$OUT/cal.txt" 2>&1 || echo "calibrate failed: see $OUT/cal.txt" >&2
awk "/within CoV/,/^\$/" "$OUT/cal.txt"
for i in 1 2 3 4 5 6; do
	session "s$i"
	sleep "$GAP"
done
for k in 1 2 3; do
	session base
	sleep "$GAP"
	session slow busy
	[ $k -lt 3 ] && sleep "$GAP"
done
echo "ended $(date -u '+%T') UTC"

nb=0 na=0 np=0
for i in 1 2 3 4 5 6; do
	for j in 1 2 3 4 5 6; do
		[ "$i" -lt "$j" ] || continue
		b=$(verdict "s$i" "s$j" --within-session)
		a=$(verdict "s$i" "s$j")
		echo "s$i s$j | before: $b | after: $a" >>"$OUT/pairs.txt"
		np=$((np + 1))
		[ "${b%% *}" = same ] || nb=$((nb + 1))
		[ "${a%% *}" = same ] || na=$((na + 1))
	done
done
echo "same config, $np pairs called different: before (--within-session) $nb, after $na"

sids() { # the sessions of a label
	sqlite3 "$CONTEND_DB" "select distinct r.session_id from runs r join configs c on c.id = r.config_id where c.label = '$1' order by 1"
}
nf=0 nd=0
for i in 1 2 3 4 5 6; do
	for id in $(sids slow); do
		v=$(verdict "s$i" slow --sessions "$(sids "s$i"),$id")
		echo "s$i slow(session $id) | $v" >>"$OUT/slow.txt"
		[ "${v%% *}" = worse ] && nf=$((nf + 1))
		case $v in *"[drift warning]"*) nd=$((nd + 1)) ;; esac
	done
done
echo "one busy CPU, one session a side: found worse in $nf of 18 pairs ($nd with the drift warning)"
echo "three a side: $(verdict base slow)"
sqlite3 "$CONTEND_DB" "select c.label, r.session_id, round(avg(r.wall_ns) / 1e9, 3), count(*) from runs r join configs c on c.id = r.config_id where r.status = 'ok' and r.load = 'none' group by r.session_id order by r.session_id" >"$OUT/means.txt"
echo "session means (label|session|mean s|runs):" $(tr '\n' ' ' <"$OUT/means.txt")
echo "kept in $OUT"
