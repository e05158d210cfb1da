#!/bin/sh
# SIGINT and SIGKILL in the middle of a session: nothing of contend is left
# running, the store passes integrity_check, an interrupted session says so.
. "$CT_TESTLIB"
plan 21

wait_for_run() { # waits until a run has started (the foreground is sleeping)
	i=0
	while [ $i -lt 100 ]; do
		[ -n "$(pgrep -f -- "$T/" | head -n 3 | sed -n 3p)" ] && sleep 1 && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

"$CONTEND" run -w selftest --selftest-mode sleep --scale 30 -l null -n 3 --delay 0.2s \
	--no-warmup --dir "$T" >"$T/out" 2>"$T/err" &
pid=$!
wait_for_run
kill -INT $pid
rc=0; wait $pid || rc=$?
expect_rc "SIGINT: exit 4" 4
expect_err "SIGINT: says interrupted" "interrupted"
wait_until 5 no_leftovers && ok "SIGINT: no process left" || not_ok "SIGINT: no process left" "$(ps -o pid,args -p "$(leftovers | tr '\n' ',' | sed 's/,$//')")"
[ "$(sql "select status from sessions order by id desc limit 1")" = interrupted ] && ok "session marked interrupted" || not_ok "session marked interrupted" "$(sql 'select * from sessions')"
store_whole && ok "store integrity after SIGINT" || not_ok "store integrity after SIGINT"

"$CONTEND" run -w selftest --selftest-mode sleep --scale 30 -l io,process --file-size 64M \
	--procs 4 -n 3 --delay 0.2s --no-warmup --dir "$T" >"$T/out" 2>"$T/err" &
pid=$!
wait_for_run
kill -KILL $pid
rc=0; wait $pid || rc=$?
expect_rc "SIGKILL: killed" 137
wait_until 5 no_leftovers && ok "SIGKILL: no load or foreground left" || not_ok "SIGKILL: no load or foreground left" "$(ps -o pid,args -p "$(leftovers | tr '\n' ',' | sed 's/,$//')")"
store_whole && ok "store integrity after SIGKILL" || not_ok "store integrity after SIGKILL"

rc=0; "$CONTEND" run -w selftest --scale 0.02 -l none -n 1 --no-warmup --dir "$T" >"$T/out" 2>"$T/err" || rc=$?
expect_rc "a session after a SIGKILL runs" 0
expect_err "the killed session is found" "1 session left running by a contend that is gone marked interrupted"
[ "$(sql "select status from sessions order by id desc limit 1 offset 1")" = interrupted ] && ok "the killed session is marked interrupted" || not_ok "the killed session is marked interrupted" "$(sql 'select id, status from sessions')"

# SIGKILL in the middle of a build: make's compiler jobs (not children of
# contend, so beyond PDEATHSIG) die too, and the work directory goes
"$CONTEND" run --scale 0.5 -l none -n 3 --no-warmup --dir "$T" >"$T/out" 2>"$T/err" &
pid=$!
# make, and a job of it: what the SIGKILL below must not leave behind
build_jobs() { for p in $(pgrep -f -- "-C $T/"); do pgrep -P "$p"; done | grep -q .; }
wait_until 20 build_jobs && ok "a build is running, make and a job of it" ||
	not_ok "a build is running, make and a job of it" "$(pgrep -af -- "$T/")"
kill -KILL $pid
rc=0; wait $pid || rc=$?
expect_rc "SIGKILL during a build: killed" 137
wait_until 5 no_leftovers && ok "SIGKILL: no compiler left" || not_ok "SIGKILL: no compiler left" "$(ps -o pid,args -p "$(leftovers | tr '\n' ',' | sed 's/,$//')")"
[ -z "$(ls -d "$T"/contend.* 2>/dev/null)" ] && ok "SIGKILL: work directory removed" || not_ok "SIGKILL: work directory removed" "$(ls -d "$T"/contend.*)"

# a session of another machine sharing the store is left alone; one of this
# machine whose pid now names another process (pid 1) is closed
boot=$(cat /proc/sys/kernel/random/boot_id)
mid=$(cat /etc/machine-id 2>/dev/null || echo none)
sql "insert into sessions (config_id, argv, workload, profile, status, started_at, pid, pid_start, boot_id, machine_id) values (NULL, 'x', 'kbuild', 'full', 'running', 0, 1, 1, 'other-boot', 'other-machine')"
sql "insert into sessions (config_id, argv, workload, profile, status, started_at, pid, pid_start, boot_id, machine_id) values (NULL, 'y', 'kbuild', 'full', 'running', 0, 1, 1, '$boot', '$mid')"
run list
[ "$(sql "select status from sessions where argv = 'x'")" = running ] && ok "another machine's session is not judged" || not_ok "another machine's session is not judged"
[ "$(sql "select status from sessions where argv = 'y'")" = interrupted ] && ok "a reused pid does not keep a session alive" || not_ok "a reused pid does not keep a session alive" "$(sql "select * from sessions where argv = 'y'")"

# SIGTERM is an interrupt like SIGINT
"$CONTEND" run -w selftest --selftest-mode sleep --scale 30 -l null -n 3 --delay 0.2s \
	--no-warmup --dir "$T" >"$T/out" 2>"$T/err" &
pid=$!
wait_for_run
kill -TERM $pid
rc=0; wait $pid || rc=$?
expect_rc "SIGTERM: exit 4" 4
wait_until 5 no_leftovers && ok "SIGTERM: no process left" || not_ok "SIGTERM: no process left" "$(leftovers)"

# a foreground stopped by a signal fails its run instead of hanging
run run -w cmd -l none -n 1 --no-warmup --dir "$T" -L stopped -- sh -c 'kill -STOP $$'
expect_rc "stopped foreground: the only run failed, exit 3" 3
expect_out "stopped foreground: reason given" "stopped by signal 19"
