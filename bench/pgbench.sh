#!/bin/bash
# contend's -w pgbench against the same pgbench command run by hand, in the
# same run: a cluster made here as contend makes its own (initdb as the
# postgres user, a Unix socket only, shared_buffers, maintenance_work_mem,
# work_mem and max_connections as contend sets them, the server in a memory
# cgroup with the same limit, given to contend with --pg-mem-limit), the
# same scale, clients and duration; before each run by hand, as contend
# does: a fresh copy of the built database (CREATE DATABASE ... TEMPLATE,
# a file copy), a CHECKPOINT, the cluster's files dropped from the page
# cache. ROUNDS rounds (default 3) alternate the sides, RUNS runs each
# (default 2), and compare pgbench's own printed tps: contend's stored
# tps_pgbench over the hand's. Target: at least 0.97.
# Then -w oltp --buffered beside -w pgbench under the same memory limit:
# their tps side by side (a comparison, not a target: one is a database).
# As root. A first look: ROUNDS=1 RUNS=1 DUR=10.
set -euo pipefail
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-2}
SCALE=${SCALE:-20}
DUR=${DUR:-30}
CLIENTS=${CLIENTS:-$((4 * $(nproc)))}
[ "$(id -u)" = 0 ] || { echo "bench: run as root (the server runs as postgres, in a cgroup)" >&2; exit 3; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "bench: no PostgreSQL server (apt-get install postgresql)" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 is missing (apt-get install sqlite3)" >&2; exit 3; }
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
chmod 711 "$T"
export CONTEND_JOURNAL_DIR="$T/journal"
# contend's default limit for these parameters: shared buffers (16 MiB),
# 4 MiB a client and 8 more processes, a quarter of the data (16 MiB a scale)
LIMIT=$(((16 + 4 * (CLIENTS + 8)) * 1048576 + SCALE * 16 * 1048576 / 4))
load0=$(cut -d' ' -f1 /proc/loadavg)

D="$T/hand"
mkdir -m 700 "$D"
chown postgres "$D"
if [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ]; then
	CG=/sys/fs/cgroup/memory/bench-pgbench-$$
	mkdir "$CG"
	echo "$LIMIT" >"$CG/memory.limit_in_bytes"
else
	CG=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)/bench-pgbench-$$
	mkdir "$CG"
	echo "$LIMIT" >"$CG/memory.max"
fi
as_pg() { su postgres -s /bin/sh -c "$*"; }
cleanup() {
	as_pg "'$bin/pg_ctl' -D '$D/data' -m fast -w stop" >/dev/null 2>&1 || true
	rmdir "$CG" 2>/dev/null || true
	rm -rf "${T:?}"
}
trap cleanup EXIT
as_pg "'$bin/initdb' -D '$D/data' -U postgres --auth=trust -E UTF8 --locale=C" >"$T/initdb.log" 2>&1
cat >>"$D/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$D'
port = 5432
shared_buffers = 16384kB
max_connections = $((CLIENTS + 10))
maintenance_work_mem = 16MB
work_mem = 1MB
logging_collector = off
EOF
sh -c "echo \$\$ >'$CG/cgroup.procs' && exec su postgres -s /bin/sh -c \"'$bin/pg_ctl' -D '$D/data' -l '$D/server.log' -w -t 300 start\"" >/dev/null
psql() { command psql -X -q -h "$D" -p 5432 -U postgres "$@"; }
psql -d postgres -c "CREATE DATABASE base"
"$bin/pgbench" -i -q -s "$SCALE" -h "$D" -p 5432 -U postgres base >"$T/init.log" 2>&1
psql -d base -c "VACUUM ANALYZE"
psql -d postgres -c CHECKPOINT

hand() { # one run by hand: pgbench's printed tps
	psql -d postgres -c "DROP DATABASE IF EXISTS run WITH (FORCE)"
	psql -d postgres -c "CREATE DATABASE run TEMPLATE base STRATEGY FILE_COPY"
	psql -d postgres -c CHECKPOINT
	python3 -c '
import os, sys
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        try:
            fd = os.open(os.path.join(root, f), os.O_RDONLY | os.O_NOFOLLOW)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        except OSError:
            pass' "$D/data"
	(cd "$D" && "$bin/pgbench" -n -h "$D" -p 5432 -U postgres -c "$CLIENTS" -j "$CLIENTS" -T "$DUR" -P 1 \
		-l --log-prefix="$D/txlog" run 2>/dev/null) | awk '/^tps = / { print $3 }'
	rm -f "$D"/txlog.*
}
side() { # side contend|hand ROUND: RUNS runs' printed tps, one a line
	if [ "$1" = hand ]; then
		for _ in $(seq 1 "$RUNS"); do hand; done
	else
		"$CONTEND" run -q --db "$T/r.db" -w pgbench --pg-scale "$SCALE" --pg-clients "$CLIENTS" \
			--duration "${DUR}s" --pg-mem-limit "$LIMIT" -n "$RUNS" --dir "$T" -L "c$2" >/dev/null
		sqlite3 "$T/r.db" "SELECT json_extract(metrics, '\$.tps_pgbench') FROM runs
			WHERE session_id = (SELECT max(id) FROM sessions) AND status = 'ok'"
	fi
}
for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then order="contend hand"; else order="hand contend"; fi
	for s in $order; do side "$s" "$r" >"$T/$s$r"; done
done
"$CONTEND" run -q --db "$T/r.db" -w oltp --buffered --mem-limit "$LIMIT" \
	--data-size "$((SCALE * 16))M" --duration "${DUR}s" -n "$RUNS" --dir "$T" -L oltp >/dev/null
oltp=$(sqlite3 "$T/r.db" "SELECT json_extract(metrics, '\$.tps') FROM runs r JOIN configs c
	ON c.id = r.config_id WHERE c.label = 'oltp' AND r.status = 'ok'" | paste -sd' ')
python3 - "$T" "$ROUNDS" "$RUNS" "$load0" "$oltp" "$SCALE" "$CLIENTS" "$DUR" "$LIMIT" <<'PY'
import os, statistics as st, sys
d, rounds, runs, load0, oltp, scale, clients, dur, limit = sys.argv[1:10]
rs = []
for r in range(1, int(rounds) + 1):
    c = [float(x) for x in open(f"{d}/contend{r}")]
    h = [float(x) for x in open(f"{d}/hand{r}")]
    rs.append(st.mean(c) / st.mean(h))
    print(f"round {r}: contend {st.mean(c):.1f} tps ({len(c)} runs), by hand {st.mean(h):.1f} tps "
          f"({len(h)} runs); ratio {rs[-1]:.3f}")
print(f"pgbench's printed tps, contend / by hand: median {st.median(rs):.3f} "
      f"({min(rs):.3f}-{max(rs):.3f}; target at least 0.97)")
o = [float(x) for x in oltp.split()]
allc = [float(x) for r in range(1, int(rounds) + 1) for x in open(f"{d}/contend{r}")]
print(f"under the same {int(limit) / 1048576:.0f} MiB limit: -w pgbench {st.mean(allc):.1f} tps "
      f"(scale {scale}, {clients} clients), -w oltp --buffered {st.mean(o):.1f} tps "
      f"(data {int(scale) * 16} MiB) - a comparison, not a target")
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, {dur} s runs, "
      f"load average {load0} at start, {os.getloadavg()[0]:.2f} at end")
PY
