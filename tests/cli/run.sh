#!/bin/sh
# Whole sessions of the real binary at tiny sizes: the table, the store's
# contents, failed runs reported as failed, the baseline, the kbuild tree.
. "$CT_TESTLIB"
plan 49

run run -w selftest --scale 0.05 -l none,null -n 2 --delay 0.2s --dir "$T" -L st
expect_rc "selftest session: exit 0" 0
expect_out "none block" "^none:\$"
expect_out "null block" "^null:\$"
expect_out "header row: Config for a label that is no kernel" "^Config +\\[runs\\] Time\\(s\\) +CPU% +Loads +LCPU% +Ratio\$"
expect_out "no-load row: 2 runs, Ratio 1.00" "^st +2 +0\\.[0-9]+ +[0-9]+% +- +- +1\\.00\$"
expect_out "null row has ticks" "^st +2 +0\\.[0-9]+ +[0-9]+% +[1-9][0-9]* +[0-9]+% +[0-9.]+\$"
[ "$(sql "select count(*) from runs where status='ok'")" = 4 ] && ok "4 runs stored" || not_ok "4 runs stored" "$(sql 'select * from runs')"
[ "$(sql "select status from sessions")" = complete ] && ok "session complete" || not_ok "session complete"
[ "$(sql "select count(*) from runs where load='null' and load_work > 0")" = 2 ] && ok "load work stored" || not_ok "load work stored"
[ "$(sql "select count(*) from configs where label='st' and length(fingerprint)=16")" = 1 ] && ok "config stored with its fingerprint" || not_ok "config stored"
store_whole && ok "store integrity" || not_ok "store integrity"
if [ -z "$(ls -d "$T"/contend.* 2>/dev/null)" ]; then ok "work dir removed"; else not_ok "work dir removed" "$(ls -A "$T")"; fi

run run -w cmd -l none -n 2 --no-warmup --delay 0 --dir "$T" -- true
expect_out "the seeds' Kernel when the label is the kernel release (the default)" "^Kernel +\\[runs\\] Time\\(s\\)"
run run -w cmd -l none -n 2 --no-warmup --dir "$T" -L fails -- sh -c 'exit 3'
expect_rc "every run failed: exit 3" 3
expect_out "failed runs listed with the reason" "fails run 2 failed: cmd exited with status 3"
expect_err "failure count on stderr" "2 of 2 runs failed"
[ "$(sql "select count(*) from runs r join configs c on c.id=r.config_id where c.label='fails' and r.status='failed'")" = 2 ] && ok "failed runs stored as failed" || not_ok "failed runs stored as failed"

run list; expect_out "list shows both sessions" "fails +cmd"
expect_out "a one-config session has no schedule" "fails +cmd .* -$"

run run -w selftest --scale 0.05 -l none -n 1 --no-warmup --dir "$T" -L other --baseline st
expect_rc "baseline session: exit 0" 0
expect_out "baseline row shown" "^st +2 "
expect_out "ratio against the baseline" "the no-load mean of 'st'"

run run --quick --scale 0.01 -l none,process -n 1 --delay 0.5s --dir "$T" -L kb
expect_rc "tiny kbuild under process: exit 0" 0
expect_out "process block for kbuild" "^kb +1 +[0-9.]+ +[0-9]+% +[1-9][0-9]* +[0-9]+% +[0-9.]+\$"

run run -w selftest --scale 0.05 -l null -n 1 --no-warmup --delay 0.2s --dir "$T" -L nocg --no-cgroup
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'nocg' and r.load_params like '%lcpu=estimated%'")" = 1 ] && ok "without a cgroup LCPU is marked estimated" || not_ok "without a cgroup LCPU is marked estimated" "$(sql "select load_params from runs")"
if [ "$(id -u)" = 0 ] && grep -q cgroup2 /proc/mounts; then
	[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'st' and r.load = 'null' and r.load_params not like '%estimated%'")" = 2 ] && ok "with a cgroup LCPU is exact" || not_ok "with a cgroup LCPU is exact" "$(sql "select load_params from runs")"
else
	skip "with a cgroup LCPU is exact" "not root or no cgroup v2 mounted"
fi

# adaptive repetition: a self-test that sleeps (steady even on a busy
# machine) stops once its CI is tight enough,
# before the cap; an unreachable target stops at the cap and says so
run run -w selftest --selftest-mode sleep --scale 0.2 -l none --adaptive --precision 5 --max-runs 40 --no-warmup --dir "$T" -L adapt
expect_rc "adaptive: exit 0" 0
expect_out "adaptive: precise before the cap" "^adaptive: none precise after ([5-9]|[1-3][0-9]) runs"
n=$(sed -n 's/^adaptive: none precise after \([0-9]*\) runs.*/\1/p' "$T/out")
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'adapt'")" = "$n" ] && ok "adaptive: the runs it took are stored ($n)" || not_ok "adaptive: the runs it took are stored" "printed $n"
run run -w selftest --scale 0.02 -l none --adaptive --precision 0.0001 --max-runs 5 --no-warmup --dir "$T" -L adapt2
expect_out "adaptive: an unreachable target stops at the cap" "^adaptive: none IMPRECISE after 5 runs"
run run -w selftest -l none --adaptive --max-runs 3
expect_rc "adaptive: a cap under 5 runs is refused" 2

# the loads take turns: run 1 of each, then run 2 (rounds, the default with
# one config), so the no-load runs share the loads' minutes; grouped runs
# every run of one load, then the next; adaptively, each load stops on its
# own runs
order_of() { sql "select r.load from runs r join configs c on c.id = r.config_id where c.label = '$1' order by r.id" | paste -sd, -; }
run run -w selftest --scale 0.02 -l none,null -n 3 --no-warmup --delay 0 --dir "$T" -L rounds
[ "$(order_of rounds)" = none,null,none,null,none,null ] && ok "the loads run in rounds by default" || not_ok "the loads run in rounds by default" "$(order_of rounds)"
run run -w selftest --scale 0.02 -l none,null -n 3 --no-warmup --delay 0 --load-order grouped --dir "$T" -L grouped
[ "$(order_of grouped)" = none,none,none,null,null,null ] && ok "--load-order grouped runs load by load" || not_ok "--load-order grouped runs load by load" "$(order_of grouped)"
run run -w selftest --scale 0.02 -l none,null --adaptive --precision 0.0001 --max-runs 5 --no-warmup --delay 0 --dir "$T" -L around
[ "$(order_of around)" = none,null,none,null,none,null,none,null,none,null ] && ok "adaptive loads take turns, 5 runs each" || not_ok "adaptive loads take turns, 5 runs each" "$(order_of around)"
expect_out "adaptive in rounds: each load judged on its own runs" "^adaptive: null IMPRECISE after 5 runs"
run run --dry-run -w selftest -l none,null --load-order grouped
expect_out "the dry run says the load order" "^order: +load by load"
run run -w selftest -l none,null --load-order sideways
expect_rc "an unknown load order is refused" 2

# each run records the state it started from: dirty and writeback page
# cache at the start stamp (never -1, "unknown"); under io, which has
# written without flushing for its delay, the dirty bytes are not zero
run run -w cmd -l none,io --file-size 64M -n 1 --no-warmup --delay 1s --dir "$T" -L start -- true
expect_rc "start state session: exit 0" 0
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'start' and r.start_dirty_bytes >= 0 and r.start_writeback_bytes >= 0")" = 2 ] && ok "start state recorded for every run" || not_ok "start state recorded for every run" "$(sql "select load, start_dirty_bytes, start_writeback_bytes from runs")"
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'start' and r.load = 'io' and r.start_dirty_bytes + r.start_writeback_bytes > 0")" = 1 ] && ok "io starts the foreground with unwritten data" || not_ok "io starts the foreground with unwritten data" "$(sql "select load, start_dirty_bytes, start_writeback_bytes from runs")"
[ "$(sql "select count(*) from runs r join configs c on c.id = r.config_id where c.label = 'start' and r.start_cpu_speed > 0")" = 2 ] && ok "the CPU's speed recorded for every run" || not_ok "the CPU's speed recorded for every run" "$(sql "select load, start_cpu_speed from runs")"
[ "$(sql "select count(*) from runs where start_dirty_bytes < 0 and session_id = (select max(id) from sessions)")" = 0 ] && ok "no unknown start state in a new session" || not_ok "no unknown start state in a new session"

# the foreground's TMPDIR is in the work directory, which goes with it: a
# killed compiler's temporary files are never left in /tmp
run run -w cmd -l none -n 1 --no-warmup --dir "$T" -L tmpdir -- sh -c 'echo "$TMPDIR" >"$0/tmpdir"; [ -d "$TMPDIR" ] && [ -w "$TMPDIR" ]' "$T"
expect_rc "the foreground's TMPDIR: exit 0" 0
case $(cat "$T/tmpdir") in
"$T"/contend.*/tmp) ok "the foreground's TMPDIR is in the work directory" ;;
*) not_ok "the foreground's TMPDIR is in the work directory" "$(cat "$T/tmpdir")" ;;
esac
[ ! -e "$(cat "$T/tmpdir")" ] && ok "the foreground's TMPDIR goes with the work directory" || not_ok "the foreground's TMPDIR goes with the work directory"

# configs that differ by kernel are headed Kernel whatever their labels
sql "update configs set kernel_release = '0.0.1-test' where label = 'st'" >/dev/null
run compare st other
expect_out "configs that differ by kernel: the seeds' Kernel" "^Kernel +\\[runs\\] Time\\(s\\)"

# the quietness check spans the session's first second of work, with no
# wait of its own: a busy loop outside contend is named; the session's own
# CPU - a busy foreground beside the process ring - is not foreign
sh -c 'while :; do :; done' &
hog=$!
run run -w cmd -l none -n 3 --no-warmup --delay 0 -L busyhost -- sleep 0.5
kill "$hog"
wait "$hog" 2>/dev/null
expect_err "a busy loop outside contend: the machine is not quiet" "the machine is not quiet: [0-9.]+ CPUs busy outside contend over the session's first [0-9.]+ s"
run run -w cmd -l process -n 3 --no-warmup --delay 0.2s -L busyself -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'
expect_rc "a session busy on every CPU itself: exit 0" 0
check "and its own CPU is not taken for a busy machine" sh -c "! grep -q 'not quiet' '$T/err'"
