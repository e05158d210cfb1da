#!/bin/sh
# contend push between two SQLite stores (tests/cli/pg.sh pushes into
# PostgreSQL): every finished session with its configs and runs, once; a
# second push copies nothing; a session still running stays behind; bad
# targets are usage errors.
. "$CT_TESTLIB"
plan 16

A="$T/a.db" B="$T/b.db"
for l in x y; do
	run run -w selftest --scale 0.02 -l none,null -n 4 --no-warmup --delay 0 -L $l --db "$A"
done
# a session whose contend still runs: this shell, by its pid and start time
start=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
sqlite3 "$A" "insert into sessions (config_id, argv, workload, profile, status, started_at, pid, pid_start, boot_id, machine_id, uuid)
	select config_id, argv, workload, profile, 'running', started_at, $$, $start, boot_id, machine_id, '00000000-0000-4000-8000-000000000001' from sessions where id = 1"
run push --from "$A" --to "$B"
expect_rc "push into a new store: exit 0" 0
expect_out "push says what it copied" "^pushed 2 sessions \(16 runs\); 0 already there"
expect_out "push leaves the running session" "^left 1 session still running"
[ "$(sqlite3 "$B" "select count(*) from runs")" = 16 ] && ok "16 runs in the target" || not_ok "16 runs in the target"
[ "$(sqlite3 "$A" "select group_concat(uuid || status || started_at || ended_at) from sessions where status <> 'running' order by id")" = \
	"$(sqlite3 "$B" "select group_concat(uuid || status || started_at || ended_at) from sessions order by id")" ] &&
	ok "sessions keep their UUID, status and times" || not_ok "sessions keep their UUID, status and times"
[ "$(sqlite3 "$A" "select group_concat(wall_ns || load || seq || metrics) from runs order by id")" = \
	"$(sqlite3 "$B" "select group_concat(wall_ns || load || seq || metrics) from runs order by id")" ] &&
	ok "runs are copied whole" || not_ok "runs are copied whole"
run compare x y --db "$B"
expect_rc "compare reads the pushed store" 0
run push --from "$A" --to "$B"
expect_out "a second push copies nothing" "^pushed 0 sessions \(0 runs\); 2 already there"
run push --from "$A" --to "$A"
expect_rc "push into itself: exit 2" 2
(unset CONTEND_DB; "$CONTEND" push --from "$A" >"$T/out" 2>"$T/err"); rc=$?
expect_rc "push without a target: exit 2" 2
run push --from "$T/none.db" --to "$B"
expect_rc "push from a missing store: exit 2" 2
[ "$(wc -l <"$T/err")" = 1 ] && ok "one line says so" || not_ok "one line says so" "$(cat "$T/err")"

# a PostgreSQL target that cannot be reached: one line, exit 3 (the
# environment's), for a reader and for push alike
run list --db "postgresql://nobody@/contend?host=$T/nosocket"
expect_rc "list on an unreachable PostgreSQL: exit 3" 3
grep -q "^contend: cannot connect to results store 'postgresql://nobody@/contend" "$T/err" && [ "$(wc -l <"$T/err")" = 1 ] &&
	ok "one line names the store" || not_ok "one line names the store" "$(cat "$T/err")"
run push --from "$A" --to "postgresql://u:secret@/contend?host=$T/nosocket"
expect_rc "push to an unreachable PostgreSQL: exit 3" 3
grep -q secret "$T/err" && not_ok "the password is not printed" "$(cat "$T/err")" || ok "the password is not printed"
