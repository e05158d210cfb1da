#!/bin/sh
# Runs COMMAND with a throwaway PostgreSQL cluster: initdb and pg_ctl as the
# postgres user in a temporary directory, listening on a Unix socket only
# (a free port number names it), trust authentication. COMMAND finds the
# cluster in CT_PG (a conninfo of its postgres database, as the postgres
# role) and CT_PG_SOCKET/CT_PG_PORT. The cluster is stopped and removed when
# COMMAND ends, fails or is interrupted; COMMAND's exit status is ours.
# fsync is off (a throwaway cluster) unless CT_PG_FSYNC=on (bench/store.sh).
#
# usage: tests/pg/with-cluster.sh [--tap] COMMAND [ARG...]
# Without a server installed, or without root: exits 77 (a skip for meson),
# or with --tap runs COMMAND without CT_PG (a TAP test that skips its cases);
# under CT_STRICT=1 (.ci/run) it fails instead.
set -u
tap=""
[ "${1:-}" = --tap ] && tap=1 && shift
[ $# -ge 1 ] || { echo "usage: $0 [--tap] COMMAND [ARG...]" >&2; exit 2; }
noserver() {
	echo "# skip: $1" >&2
	# under CT_STRICT (.ci/run) a skip is a failure
	[ "${CT_STRICT:-}" = 1 ] && echo "Bail out! skipped, which CT_STRICT makes a failure: $1" && exit 1
	shift
	[ -n "$tap" ] && exec "$@"
	exit 77
}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
	noserver "no PostgreSQL server (Debian's postgresql) installed" "$@"
fi
if [ "$(id -u)" != 0 ] || ! id postgres >/dev/null 2>&1; then
	noserver "the cluster is made as the postgres user, which needs root" "$@"
fi

D=$(mktemp -d /tmp/contend-pg.XXXXXX) || exit 1
chmod 755 "$D"
chown postgres "$D"
as_pg() { su postgres -s /bin/sh -c "$*"; }
stop() {
	as_pg "'$bin/pg_ctl' -D '$D/data' -m immediate -w stop" >/dev/null 2>&1
	rm -rf "${D:?}"
}
trap stop EXIT
trap 'exit 130' INT TERM HUP

# a port no one listens on (it only names the socket file)
# (the pid in it: clusters of suites run in pairs start in the same second)
port=$(awk -v p=$$ 'BEGIN { srand(); print 20000 + (int(rand() * 20000) + p) % 20000 }')
while [ -e "$D/.s.PGSQL.$port" ] || ss -Hln 2>/dev/null | grep -q ":$port "; do
	port=$((port + 1))
done
if ! as_pg "'$bin/initdb' -D '$D/data' -U postgres --auth=trust -E UTF8 --locale=C.UTF-8" \
	>"$D/initdb.log" 2>&1; then
	echo "with-cluster: initdb failed:" >&2
	tail -n 5 "$D/initdb.log" >&2
	exit 1
fi
if ! as_pg "'$bin/pg_ctl' -D '$D/data' -l '$D/server.log' -w -t 60 \
	-o \"-k '$D' -p $port -c listen_addresses='' -c max_connections=64 -c fsync=${CT_PG_FSYNC:-off}\" start" \
	>/dev/null 2>&1; then
	echo "with-cluster: the server did not start:" >&2
	tail -n 5 "$D/server.log" >&2
	exit 1
fi
export CT_PG="host=$D port=$port user=postgres dbname=postgres"
export CT_PG_SOCKET="$D" CT_PG_PORT="$port" CT_PG_BIN="$bin"
"$@"
