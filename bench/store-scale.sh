#!/bin/sh
# contend's readers on a fleet-sized store, SQLite and PostgreSQL: a store
# of LABELS x SESSIONS x RUNS runs (default 200 x 100 x 50: 10^6 runs in
# 20,000 sessions, 20 machines) written through contend's store layer
# (build/store-scale), then each reader - list, compare and report of two
# labels, history of one label, fleet summary - timed warm beside its
# peer: the SQL that reads the same rows, run by sqlite3 or psql (the
# floor any reader pays). ROUNDS rounds (default 3), contend and the peer
# alternating; per reader the median of contend's times, the median ratio
# contend/peer and its min-max. Budget (issue: a fleet's store): each
# reader under 1 s on SQLite and 2 s on PostgreSQL, printed beside, never
# asserted. The PostgreSQL server is a throwaway cluster on this machine
# (tests/pg/with-cluster.sh), over its Unix socket. Nothing else may run
# meanwhile (../BENCH rules). SQLITE_ONLY=1 skips PostgreSQL. Root for
# PostgreSQL's cluster.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
LABELS=${LABELS:-200}
SESSIONS=${SESSIONS:-100}
RUNS=${RUNS:-50}
C=${CONTEND:-build/contend}
SS=${STORE_SCALE:-build/store-scale}
[ -x "$C" ] && [ -x "$SS" ] || make build >/dev/null
if [ -z "${SQLITE_ONLY:-}" ] && [ -z "${CT_PG:-}" ]; then
	exec sh tests/pg/with-cluster.sh sh "$0" "$@"
fi
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
uri="postgresql://postgres@/ct_scale?host=${CT_PG_SOCKET:-}&port=${CT_PG_PORT:-}"

now() { date +%s.%N; }
# seconds one command takes, its output thrown away
timed() {
	s=$(now)
	"$@" >/dev/null 2>"$T/err" || { echo "bench: failed: $*: $(head -c 300 "$T/err")" >&2; exit 1; }
	awk -v a="$(now)" -v b="$s" 'BEGIN { print a - b }'
}

# the readers, and the SQL that reads what each reads
readers="list|compare L2 L3|report L2 L3 --format json|history -w cmd -l none --label L1|fleet summary -w cmd -l none"
peer_sql() {
	case $1 in
	list) echo "SELECT s.* FROM sessions s ORDER BY s.id DESC LIMIT 51" ;;
	compare* | report*)
		echo "SELECT r.* FROM runs r JOIN configs c ON c.id = r.config_id WHERE c.label IN ('L2', 'L3')" \
			"AND r.workload = 'cmd' AND r.load = 'none'" ;;
	history*)
		echo "SELECT r.* FROM runs r JOIN sessions s ON s.id = r.session_id JOIN configs c" \
			"ON c.id = s.config_id WHERE c.label = 'L1' AND r.status = 'ok'" ;;
	fleet*)
		echo "SELECT session_id, config_id, load, wall_ns, metrics FROM runs WHERE workload = 'cmd'" \
			"AND workload_params = 'argv=./bench' AND status = 'ok'" ;;
	esac
}

bench() { # bench sqlite|pg TARGET BUDGET
	backend=$1 target=$2 budget=$3
	echo "$readers" | tr '|' '\n' | while IFS= read -r r; do
		sql=$(peer_sql "$r")
		# warm: once each before timing
		# shellcheck disable=SC2086
		timed "$C" $r --db "$target" >/dev/null
		if [ "$backend" = sqlite ]; then timed sqlite3 "$target" "$sql" >/dev/null; else
			timed psql -X -q -At "$target" -c "$sql" >/dev/null; fi
		k=0
		while [ $k -lt "$ROUNDS" ]; do
			k=$((k + 1))
			# shellcheck disable=SC2086
			a=$(timed "$C" $r --db "$target")
			if [ "$backend" = sqlite ]; then b=$(timed sqlite3 "$target" "$sql"); else
				b=$(timed psql -X -q -At "$target" -c "$sql"); fi
			echo "$a $b"
		done | awk -v r="$r" -v be="$backend" -v bud="$budget" '
			{ a[NR] = $1; q[NR] = $1 / $2 }
			function median(v, n,   i, j, t) {
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
			END { lo = hi = q[1]; for (i = 2; i <= NR; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
				m = median(a, NR)
				printf "%-10s %-40s %6.3f s  (budget %s s: %s)  contend/peer %6.2f [%.2f-%.2f]\n",
					be, r, m, bud, m < bud ? "within" : "OVER", median(q, NR), lo, hi }'
	done
}

echo "store-scale: $LABELS labels x $SESSIONS sessions x $RUNS runs; $ROUNDS rounds; $(nproc) CPUs," \
	"$(uname -r), SQLite $(sqlite3 --version | cut -d' ' -f1), load $(cut -d' ' -f1 /proc/loadavg)"
echo "sqlite: $("$SS" "$T/s.db" "$LABELS" "$SESSIONS" "$RUNS"), $(du -m "$T/s.db" | cut -f1) MB"
bench sqlite "$T/s.db" 1
rm -f "${T:?}"/s.db*
if [ -z "${SQLITE_ONLY:-}" ]; then
	command psql -X -q "$CT_PG" -c "CREATE DATABASE ct_scale" >/dev/null
	echo "postgresql $(command psql -X -q -At "$CT_PG" -c 'show server_version'):" \
		"$("$SS" "$uri" "$LABELS" "$SESSIONS" "$RUNS")"
	bench pg "$uri" 2
fi
echo "load at the end $(cut -d' ' -f1 /proc/loadavg)"
