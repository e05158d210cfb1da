#!/bin/sh
# Passwords on a command line are neither stored nor shown: a --db URI's
# (on PostgreSQL, where one is a real store target), a conninfo's and a
# command under test's, in sessions' argv, runs' parameters, list and
# the JSON report; contend's own /proc/PID/cmdline, which every user of
# the machine reads, no longer holds them while it runs; and a store
# written before contend hid them has them hidden when it is opened.
. "$CT_TESTLIB"
# two checks more on PostgreSQL: a run through a password in its target
if [ "$BACKEND" = pg ]; then plan 17; else plan 15; fi

secret=hunter2
nosecret() { # nosecret DESC TEXT
	case $2 in
	*"$secret"* | *topsecret42*) not_ok "$1" "a password in: $2" ;;
	*) ok "$1" ;;
	esac
}

# a command under test and a --load-cmd that take passwords
run run -q -w cmd -l none,pw -n 2 --no-warmup --delay 0 \
	--load-cmd "pw=sh -c 'sleep 30' password=$secret" \
	-- true "password=$secret" "postgresql://app:$secret@db.example/app"
expect_rc "a run whose command holds passwords: exit 0" 0
argv=$(sql "select argv from sessions")
check "the session's command line is stored" test -n "$argv"
nosecret "sessions.argv holds no password" "$argv"
case $argv in
*"'password=********'"*"'postgresql://app:********@db.example/app'"*) ok "each password stored as the mask, in place" ;;
*) not_ok "each password stored as the mask, in place" "argv: $argv" ;;
esac
params=$(sql "select group_concat(workload_params || ' ' || load_params, ' ') from runs")
check "runs' parameters are stored" test -n "$params"
nosecret "runs' parameters hold no password" "$params"
nosecret "the run's header shows no password" "$(cat "$T/out" "$T/err")"
run list --format json
nosecret "list --format json shows no password" "$(cat "$T/out")"

# contend's own command line while it runs: blanked where it was
"$CONTEND" run -q -w cmd -l none -n 2 --no-warmup --delay 0 --shell \
	-- "sleep 3 # password=$secret" >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && ! pgrep -P $pid >/dev/null; do
	sleep 0.05
	i=$((i + 1))
done
cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
check "contend's /proc/PID/cmdline is read while its foreground runs" test -n "$cmdline"
nosecret "and holds no password" "$cmdline"
case $cmdline in
*"password=******* "*) ok "the password blanked in place, its length kept" ;;
*) not_ok "the password blanked in place, its length kept" "cmdline: $cmdline" ;;
esac
wait $pid

# a store of schema 10, written before contend hid passwords: the
# migration to 11 hides them (and 12 to 16 add the references', the
# bisections', history's and the suites' tables and columns again)
sql "DROP TABLE refs" >/dev/null
sql "ALTER TABLE runs DROP COLUMN counters" >/dev/null
sql "DROP TABLE suites" >/dev/null
sql "DROP TABLE history_acks" >/dev/null
sql "ALTER TABLE sessions DROP COLUMN commit_sha" >/dev/null
sql "ALTER TABLE sessions DROP COLUMN commit_time" >/dev/null
sql "DROP TABLE bisect_steps" >/dev/null
sql "DROP TABLE bisections" >/dev/null
if [ "$BACKEND" = pg ]; then
	sql "UPDATE contend_meta SET value = '10' WHERE key = 'schema_version'" >/dev/null
else
	sql "PRAGMA user_version = 10"
fi
sql "UPDATE sessions SET argv = 'run --db postgresql://u:$secret@/x -L ''a b'''" >/dev/null
sql "UPDATE runs SET workload_params = 'sh -c ''PGPASSWORD=$secret psql''', load_params = 'cmd=''x password=$secret'''" >/dev/null
run list
expect_rc "a schema-10 store opens" 0
nosecret "its sessions' and runs' passwords are hidden" \
	"$(sql "select argv from sessions") $(sql "select workload_params || load_params from runs")"
[ "$(sql "select distinct argv from sessions")" = "run --db 'postgresql://u:********@/x' -L 'a b'" ] &&
	ok "the rest of the stored line is kept" ||
	not_ok "the rest of the stored line is kept" "$(sql "select distinct argv from sessions")"

# a PostgreSQL target's password: masked in the one line of its error,
# and on PostgreSQL a run through it stores the target without it
run list --db "postgresql://alice:topsecret42@/nodb?host=$T/nosocket"
nosecret "a connection error names the target without its password" "$(cat "$T/err")"
if [ "$BACKEND" = pg ]; then
	db=$(echo "$CONTEND_DB" | sed 's|postgresql://postgres@|postgresql://postgres:topsecret42@|')
	run run -q -w cmd -l none -n 2 --no-warmup --db "$db" -- true
	expect_rc "a run through postgresql://postgres:PASSWORD@...: exit 0" 0
	nosecret "the stored --db target holds no password" "$(sql "select argv from sessions order by id desc limit 1")"
fi
