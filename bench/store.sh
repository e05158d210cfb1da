#!/bin/sh
# Runs stored per second by contend's store, PostgreSQL against a local
# SQLite file, with 1 and 8 writers (build/store-bench: each writer opens
# the store, stores a config and a session, then RUNS runs one transaction
# each, as contend run does). Alternates SQLite and PostgreSQL over ROUNDS
# rounds (default 3; RUNS default 2000 per writer), each on a fresh store,
# as ../BENCH rules ask; prints per round the ratio PostgreSQL/SQLite and
# their medians. The PostgreSQL server is a throwaway cluster on this
# machine (tests/pg/with-cluster.sh) over its Unix socket, with fsync on
# and synchronous_commit on (each commit flushed); SQLite runs WAL with
# synchronous=NORMAL (commits reach the WAL, fsynced at checkpoints).
# Target: none - the figure is capacity for docs/fleet.md. Root.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-2000}
SB=${STORE_BENCH:-build/store-bench}
[ -x "$SB" ] || make build >/dev/null
if [ -z "${CT_PG:-}" ]; then
	CT_PG_FSYNC=on exec sh tests/pg/with-cluster.sh sh "$0" "$@"
fi
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
psql() { command psql -X -q -At "$@"; }
uri="postgresql://postgres@/ct_bench?host=$CT_PG_SOCKET&port=$CT_PG_PORT"

once() { # once sqlite|pg WRITERS: prints runs/s
	if [ "$1" = sqlite ]; then
		rm -f "${T:?}"/s.db*
		target="$T/s.db"
	else
		psql "$CT_PG" -c "DROP DATABASE IF EXISTS ct_bench" -c "CREATE DATABASE ct_bench" 2>/dev/null
		target=$uri
	fi
	"$SB" "$target" "$2" "$RUNS" | awk '{ print $3 }'
}

echo "store-bench: $RUNS runs per writer, $ROUNDS rounds; $(nproc) CPUs, $(uname -r)," \
	"$(psql "$CT_PG" -c 'show server_version'), SQLite $(sqlite3 --version | cut -d' ' -f1)," \
	"load $(cut -d' ' -f1 /proc/loadavg)"
for w in 1 8; do
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		s=$(once sqlite $w)
		p=$(once pg $w)
		echo "$w $r $s $p"
	done
done | awk '
	{ printf "writers %d round %d: SQLite %8.1f runs/s, PostgreSQL %8.1f runs/s, ratio %.3f\n",
		$1, $2, $3, $4, $4 / $3
	  s[$1, ++n[$1]] = $3; p[$1, n[$1]] = $4; q[$1, n[$1]] = $4 / $3 }
	function median(a, w, k,   i, j, t, v) {
		for (i = 1; i <= k; i++) v[i] = a[w, i]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
	}
	END { for (w = 1; w <= 8; w += 7)
		printf "writers %d: median SQLite %.1f runs/s, PostgreSQL %.1f runs/s, ratio %.3f\n",
			w, median(s, w, n[w]), median(p, w, n[w]), median(q, w, n[w]) }'
echo "load at the end $(cut -d' ' -f1 /proc/loadavg)"
