#!/bin/sh
# The PostgreSQL store through the real binary, in a throwaway cluster
# (tests/pg/with-cluster.sh): run, list, compare and report work on it;
# two contends migrate an empty database at once; eight write at once and
# nothing is lost; a writer SIGKILLed mid-run leaves whole runs and a
# session list shows interrupted; a dropped connection and a server restart
# between runs are survived; a server that never answers is given up on; a
# role that may only SELECT reads and cannot run; push copies a SQLite
# store's sessions once, and a second push copies nothing; compare over two
# machines' sessions shows the machine.
. "$CT_TESTLIB"
plan 39

if [ -z "${CT_PG:-}" ]; then
	for i in $(seq 39); do skip "postgresql" "no server (run under tests/pg/with-cluster.sh)"; done
	exit 0
fi
export PGOPTIONS="-c client_min_messages=warning"
psql() { command psql -X -q -At "$@"; }
mkdb() { psql "$CT_PG" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1"; }
uri() { echo "postgresql://postgres@/$1?host=$CT_PG_SOCKET&port=$CT_PG_PORT"; }
q() { psql "$(uri "$1")" -c "$2"; }

# run, list, compare and report, the URI in CONTEND_DB
mkdb ct_cli
export CONTEND_DB="$(uri ct_cli)"
for l in a b; do
	run run -w selftest --scale 0.05 -l none,null -n 4 --no-warmup --delay 0 -L $l
	expect_rc "run into PostgreSQL ($l): exit 0" 0
done
[ "$(q ct_cli "select count(*) from runs where status = 'ok'")" = 16 ] &&
	ok "16 runs in the database" || not_ok "16 runs in the database" "$(q ct_cli 'select count(*) from runs')"
run list
expect_rc "list: exit 0" 0
expect_out "list shows both sessions" "^2 .* b .*complete"
run compare a b
expect_rc "compare: exit 0" 0
expect_out "compare gives a verdict" "b vs a:"
run report a b --format json
expect_rc "report --format json: exit 0" 0
expect_out "report shows both configs" '"label": "b"'
cur=$(sed -n 's/^#define CT_STORE_SCHEMA //p' "$CT_FIXTURES/../../src/store/internal.h")
[ "$(q ct_cli "select value from contend_meta where key = 'schema_version'")" = "$cur" ] &&
	ok "schema version $cur in contend_meta" || not_ok "schema version $cur in contend_meta"

# two contends migrate one empty database at the same moment
mkdb ct_mig
pids=""
for j in 1 2; do
	"$CONTEND" run -w selftest --scale 0.02 -l none -n 2 --no-warmup -L m$j --db "$(uri ct_mig)" \
		-q >"$T/m$j.out" 2>"$T/m$j.err" &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
[ $bad = 0 ] && ok "two contends creating one database: both exit 0" ||
	not_ok "two contends creating one database: both exit 0" "$(cat "$T/m1.err" "$T/m2.err")"
[ "$(q ct_mig "select count(*) from runs")" = 4 ] && ok "both stored their runs" ||
	not_ok "both stored their runs" "$(q ct_mig 'select count(*) from runs')"

# eight writers at once: every session complete, every run stored
mkdb ct_eight
pids=""
for j in 1 2 3 4 5 6 7 8; do
	"$CONTEND" run -w selftest --scale 0.05 -l none,null -n 3 --no-warmup --delay 0.1s -L w$j \
		--db "$(uri ct_eight)" -q >"$T/w$j.out" 2>"$T/w$j.err" &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
[ $bad = 0 ] && ok "eight writers: all exit 0" || not_ok "eight writers: all exit 0" "$(cat "$T"/w*.err)"
[ "$(q ct_eight "select count(*) from sessions where status = 'complete'")" = 8 ] &&
	ok "eight writers: 8 sessions complete" || not_ok "eight writers: 8 sessions complete"
[ "$(q ct_eight "select count(*) from runs where status = 'ok'")" = 48 ] &&
	ok "eight writers: 48 of 48 runs stored" ||
	not_ok "eight writers: 48 of 48 runs stored" "$(q ct_eight 'select count(*) from runs')"
[ "$(q ct_eight "select count(distinct uuid) from sessions")" = 8 ] &&
	ok "eight writers: 8 distinct session UUIDs" || not_ok "eight writers: 8 distinct session UUIDs"

# a writer SIGKILLed mid-run: whole runs only, and list calls it interrupted
mkdb ct_kill
"$CONTEND" run -w selftest --scale 0.3 -l none,null -n 20 --no-warmup -L k --db "$(uri ct_kill)" \
	-q >"$T/k.out" 2>&1 &
kp=$!
i=0
while [ "$(q ct_kill "select count(*) from runs" 2>/dev/null || echo 0)" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -KILL $kp
wait $kp 2>/dev/null
wait_until 5 no_leftovers && ok "killed writer: nothing left running" || not_ok "killed writer: nothing left running" "$(leftovers)"
n=$(q ct_kill "select count(*) from runs")
[ "$n" -ge 2 ] && [ "$(q ct_kill "select count(*) from runs where wall_ns > 0 and reason = '' and status = 'ok'")" = "$n" ] &&
	ok "killed writer: its $n stored runs are whole" || not_ok "killed writer: its stored runs are whole" "$(q ct_kill 'select id, status, wall_ns from runs')"
run list --db "$(uri ct_kill)"
expect_out "killed writer: list shows the session interrupted" "interrupted"
[ "$(q ct_kill "select status from sessions")" = interrupted ] &&
	ok "killed writer: marked interrupted in the database" || not_ok "killed writer: marked interrupted in the database"

# the server drops contend's connection between runs (pg_terminate_backend),
# later restarts: the session goes on with every run stored, and says so
mkdb ct_drop
"$CONTEND" run -w selftest --scale 0.3 -l none -n 16 --no-warmup -L d --db "$(uri ct_drop)" \
	-q >"$T/d.out" 2>"$T/d.err" &
dp=$!
stored() { # stored N: waits until N runs are in ct_drop (at most 20 s)
	i=0
	while [ "$(q ct_drop "select count(*) from runs" 2>/dev/null || echo 0)" -lt "$1" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
stored 2
term=$(q ct_drop "select count(pg_terminate_backend(pid)) from pg_stat_activity
	where datname = 'ct_drop' and pid <> pg_backend_pid()")
stored 5
su postgres -s /bin/sh -c "'$CT_PG_BIN/pg_ctl' -D '$CT_PG_SOCKET/data' -l '$CT_PG_SOCKET/server.log' -m fast -w restart" >"$T/restart" 2>&1 ||
	not_ok "the server restarts" "$(cat "$T/restart")"
rc=0
wait $dp || rc=$?
expect_rc "connection dropped, then the server restarted: the session exits 0" 0
[ "$term" = 1 ] && [ "$(q ct_drop "select count(*) from runs where status = 'ok'")" = 16 ] &&
	[ "$(q ct_drop "select status from sessions")" = complete ] &&
	ok "connection dropped and restarted: 16 runs of 16 stored, the session complete" ||
	not_ok "connection dropped and restarted: 16 runs of 16 stored, the session complete" \
		"terminated $term" "$(q ct_drop 'select count(*) from runs')" "$(cat "$T/d.err")"
grep -q "the connection to the results store was lost and made again (2 times)" "$T/d.err" &&
	ok "the session says its connection was made again, twice" ||
	not_ok "the session says its connection was made again, twice" "$(cat "$T/d.err")"

# a server that accepts the connection and never answers (a hung host): the
# connection fails after contend's default bound instead of waiting forever
python3 -c 'import socket, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
print(s.getsockname()[1], flush=True)
time.sleep(120)' >"$T/mute.port" &
mp=$!
i=0
while [ ! -s "$T/mute.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
rc=0
(unset PGCONNECT_TIMEOUT; timeout 60 "$CONTEND" list --db "postgresql://ct@127.0.0.1:$(cat "$T/mute.port")/ct") \
	>"$T/out" 2>"$T/err" || rc=$?
kill $mp 2>/dev/null
wait $mp 2>/dev/null
expect_rc "a server that never answers: exit 3, not a wait without end" 3
expect_err "the connection's timeout is named" "^contend: cannot connect to results store 'postgresql://ct@127.0.0.1:[0-9]+/ct': .*timeout expired$"

# a role that may only SELECT: reads, and run says why it cannot write
psql "$(uri ct_cli)" -c "DROP ROLE IF EXISTS ct_ro" -c "CREATE ROLE ct_ro LOGIN" \
	-c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO ct_ro"
ro="postgresql://ct_ro@/ct_cli?host=$CT_PG_SOCKET&port=$CT_PG_PORT"
run list --db "$ro"
expect_rc "select-only role: list exits 0" 0
run compare a b --db "$ro"
expect_rc "select-only role: compare exits 0" 0
run run -w selftest --scale 0.02 -l none -n 1 --no-warmup --db "$ro"
expect_rc "select-only role: run exits 3" 3
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "role 'ct_ro' may only read it" "$T/err" &&
	ok "select-only role: one line says why" || not_ok "select-only role: one line says why" "$(cat "$T/err")"

# docs/fleet.md's lab: a role per machine, each a member of the role that
# owns the tables, which it writes as (options=-c role=...)
mkdb ct_lab
psql "$(uri ct_lab)" -c "DROP ROLE IF EXISTS ct_m1" -c "DROP ROLE IF EXISTS ct_m2" \
	-c "DROP ROLE IF EXISTS ct_lab_owner" -c "CREATE ROLE ct_lab_owner" \
	-c "GRANT CREATE ON SCHEMA public TO ct_lab_owner" \
	-c "CREATE ROLE ct_m1 LOGIN IN ROLE ct_lab_owner" -c "CREATE ROLE ct_m2 LOGIN IN ROLE ct_lab_owner"
bad=0
for m in ct_m1 ct_m2; do
	"$CONTEND" run -w selftest --scale 0.02 -l none -n 2 --no-warmup -L $m -q \
		--db "postgresql://$m@/ct_lab?host=$CT_PG_SOCKET&port=$CT_PG_PORT&options=-c%20role%3Dct_lab_owner" \
		>"$T/lab.out" 2>"$T/lab.err" || bad=$((bad + 1))
done
[ $bad = 0 ] && [ "$(q ct_lab "select count(*) from runs")" = 4 ] &&
	[ "$(q ct_lab "select tableowner from pg_tables where tablename = 'runs'")" = ct_lab_owner ] &&
	ok "two machines' roles write as the lab's owner role" ||
	not_ok "two machines' roles write as the lab's owner role" "$(cat "$T/lab.err")"

# push a SQLite store (a second machine's: its sessions carry another
# machine id) into the database, twice
local_db="$T/local.db"
run run -w selftest --scale 0.05 -l none,null -n 4 --no-warmup --delay 0 -L c --db "$local_db"
# a --vary group of two sessions (a harmless sysctl), so push maps its group
run run -w selftest --scale 0.02 -l none -n 2 --no-warmup -L d --vary sysctl.vm.stat_interval=1,2 --db "$local_db"
sqlite3 "$local_db" "update sessions set machine_id = 'ffffffffffffffffffffffffffffffff', hostname = 'lab-2' where id = 1"
lruns=$(sqlite3 "$local_db" "select count(*) from runs")
lsess=$(sqlite3 "$local_db" "select count(*) from sessions where status <> 'running'")
run push --from "$local_db"
expect_rc "push: exit 0" 0
expect_out "push says what it copied" "^pushed $lsess sessions \($lruns runs\); 0 already there"
[ "$(q ct_cli "select count(*) from runs")" = $((16 + lruns)) ] &&
	ok "push: every run in the database" || not_ok "push: every run in the database" "$(q ct_cli 'select count(*) from runs')"
[ "$(q ct_cli "select count(*) from sessions s where s.uuid in ($(sqlite3 "$local_db" "select group_concat(quote(uuid)) from sessions"))")" = "$lsess" ] &&
	ok "push: the sessions keep their UUIDs" || not_ok "push: the sessions keep their UUIDs"
run push --from "$local_db"
expect_out "a second push copies nothing" "^pushed 0 sessions \(0 runs\); $lsess already there"
[ "$(q ct_cli "select count(*) from runs")" = $((16 + lruns)) ] &&
	ok "a second push: the database unchanged" || not_ok "a second push: the database unchanged"
[ "$(q ct_cli "select count(*) from sessions s join sessions g on g.id = s.group_id where s.group_id <> 0 and g.uuid = (select uuid from sessions where id = s.group_id) and s.run_order = 'interleaved'")" = 2 ] &&
	ok "push: the --vary group points at its pushed first session" || not_ok "push: the --vary group points at its pushed first session" "$(q ct_cli 'select id, group_id, run_order from sessions')"
run compare a c
expect_rc "compare over two machines: exit 0" 0
expect_out "compare over two machines shows the machine" "machine"
