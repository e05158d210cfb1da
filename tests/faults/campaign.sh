#!/bin/sh
# The fault campaign: SIGINT, SIGTERM and SIGKILL at random points of real
# sessions - a kbuild compile under a load, the oltp engine, a --vary of
# the disk's I/O scheduler -, a disk that fills up at a random point (a
# small loop-mounted ext4 as the work directory, then as the store's),
# memory pressure from the mem load in a memory-limited cgroup, then two
# and eight sessions writing one store at once. After each injection it
# checks that:
#   - no process of contend, its loads or its foreground is left;
#   - the scheduler is back (or `contend restore` puts it back);
#   - the store passes PRAGMA integrity_check;
#   - the session is marked interrupted: by contend itself after SIGINT or
#     SIGTERM, by the next `contend list` after SIGKILL or a full store (a
#     session that finished before its fault is counted apart);
#   - a full disk ends contend with exit 3 and a line that says so;
#   - the OOM killer, when memory runs out, kills only what the mem load
#     offered it (oom_score_adj 1000), and contend and its foreground never
#     run with a raised oom_score_adj.
# A signal or a full disk lands at a random delay, 0.3 to 6 s, after the
# session is stored running; one that misses the session - contend ended
# before its session was stored or before the fault - checked nothing and
# fails. Prints TAP, a test point per injection, memory session and store
# size (a part it cannot run is a skip with its reason), then the counts,
# and exits 1 when any check failed.
#
# usage: tests/faults/campaign.sh CONTEND [N]
#   N injections per signal and kind of session, and per disk and memory
#   fault (default 1; bench/faults.sh runs 17, 51 per signal). Root, for
#   cgroups, the scheduler knob and the loop mount. FAULTS="signals disk
#   memory stores" (the default) picks the parts to run. SEED=S (printed
#   first) draws the same delays again.
set -u
contend=${1:?usage: tests/faults/campaign.sh CONTEND [N]}
n=${2:-1}
W=$(mktemp -d /var/tmp/contend-faults.XXXXXX)
export CONTEND_JOURNAL_DIR="$W/journal"
small="$W/small" # the small file system's mount point
memcg=""         # the memory cgroup of the pressure sessions
cleanup() {
	mountpoint -q "$small" 2>/dev/null && umount "$small"
	[ -n "$memcg" ] && [ -d "$memcg" ] && rmdir "$memcg" 2>/dev/null
	rm -rf "${W:?}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
db="$W/results.db"
# the delays' seed: SEED replays a campaign (FAULT_SEED, its old name, too)
seed=${SEED:-${FAULT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}}
case $seed in '' | *[!0-9]*)
	echo "Bail out! SEED must be a number, not '$seed'"
	exit 1
	;;
esac
echo "# seed $seed: SEED=$seed replays these delays"
# the generator's state, 1 to 2^31 - 2 (Park and Miller's minimal standard)
rng=$((seed % 2147483646 + 1))
# FAULTS picks the parts to run (all by default)
only=${FAULTS:-signals disk memory stores}
want() { case " $only " in *" $1 "*) return 0 ;; esac; return 1; }

# the scheduler file of the disk under $W, and what it holds now
dev=$(stat -c '%Hd:%Ld' "$W")
disk=$(basename "$(readlink -f "/sys/dev/block/$dev" 2>/dev/null)" 2>/dev/null)
[ -e "/sys/block/$disk/queue/scheduler" ] || disk=$(basename "$(dirname "$(readlink -f "/sys/dev/block/$dev")")")
sched="/sys/block/$disk/queue/scheduler"
current() { sed 's/.*\[\(.*\)\].*/\1/' "$sched"; }
vary=""
if [ -w "$sched" ] && [ "$(wc -w <"$sched")" -ge 2 ]; then
	orig=$(current)
	other=$(tr -d '[]' <"$sched" | tr ' ' '\n' | grep -v "^$orig\$" | grep . | head -n 1)
	vary="--vary iosched=$orig,$other"
else
	echo "# no scheduler to vary under $W: the vary sessions are left out"
fi

# processes of this campaign: their command line or working directory in $W
leftovers() {
	{
		pgrep -f -- "$W/" || true
		for p in /proc/[0-9]*; do
			case $(readlink "$p/cwd" 2>/dev/null) in "$W"/*) echo "${p#/proc/}" ;; esac
		done
	} | grep -v "^$$\$" | sort -u
}

# the next delay in $d, in seconds, 0.3 to 6, from the seed; drawn in this
# shell (never in a $(...), whose draw this shell would not see)
draw() {
	rng=$((rng * 16807 % 2147483647))
	_ms=$((300 + rng % 5701))
	d=$((_ms / 1000)).$((_ms % 1000 / 100))$((_ms % 100 / 10))$((_ms % 10))
}

# TAP: a test point per injection, memory session and store size
tn=0
point() { # point DESC PROBLEMS: ok when PROBLEMS is empty
	tn=$((tn + 1))
	if [ -z "$2" ]; then echo "ok $tn - $1"; else
		echo "not ok $tn - $1"
		printf '%s\n' "$2" | sed '/^$/d; s/^/# /'
	fi
}
# a skip: a failure under CT_STRICT (.ci/run), as tests/cli/lib.sh's
skip() {
	tn=$((tn + 1))
	if [ "${CT_STRICT:-}" = 1 ]; then
		echo "not ok $tn - $1"
		echo "# skipped, which CT_STRICT makes a failure: $2"
	else
		echo "ok $tn - $1 # SKIP $2"
	fi
}
# wait_until SECONDS CMD...: CMD every 0.1 s until it succeeds, or about
# SECONDS (whole) have passed (tests/cli/lib.sh's)
wait_until() {
	_wu=$(($(date +%s) + $1))
	shift
	while ! "$@"; do
		[ "$(date +%s)" -lt "$_wu" ] || return 1
		sleep 0.1
	done
}
no_leftovers() { [ -z "$(leftovers)" ]; }
# session_up DB PID: contend PID has a session stored running in DB (a
# --vary stores a session per config at once); 2 when PID is gone
session_up() {
	[ "$(sqlite3 -readonly "$1" "select count(*) from sessions where pid = $2 and status = 'running'" \
		2>/dev/null)" -gt 0 ] 2>/dev/null && return 0
	kill -0 "$2" 2>/dev/null || return 2
	return 1
}
# wait_session DB PID: until contend PID's session is stored running (0);
# 1 when contend ended first or 120 s passed, the reason in $miss
wait_session() {
	miss=""
	_ws=$(($(date +%s) + 120))
	while :; do
		session_up "$1" "$2"
		case $? in
		0) return 0 ;;
		2) miss="contend ended before its session was stored" && return 1 ;;
		esac
		[ "$(date +%s)" -lt "$_ws" ] || { miss="no session stored in 120 s" && return 1; }
		sleep 0.1
	done
}

start() { # start KIND: a session of that kind in the background, pid in $pid
	case $1 in
	kbuild) "$contend" run --quick -l none,process -n 3 --dir "$W" --db "$db" -q \
		>"$W/out" 2>"$W/err" & ;;
	oltp) "$contend" run -w oltp -l none,process -n 4 --data-size 32M --log-size 1M \
		--duration 1s --ramp-max 1s --dir "$W" --db "$db" -q >"$W/out" 2>"$W/err" & ;;
	vary) # shellcheck disable=SC2086
		"$contend" run -w selftest -l none,null -n 4 $vary --dir "$W" --db "$db" -q \
		>"$W/out" 2>"$W/err" & ;;
	esac
	pid=$!
}

# processes of this campaign left behind (killed, and counted)
check_left() {
	if ! wait_until 5 no_leftovers; then
		left=$((left + 1))
		bad="$bad
$what: left $(leftovers | tr '\n' ' ')"
		leftovers | xargs -r kill -KILL 2>/dev/null
	fi
}

# what a killed contend left in the knob journal, `contend restore` puts
# back, as a user would run it: a --vary session's scheduler, and any
# session's kernel.task_delayacct (delay accounting, on for its counters)
dacct=/proc/sys/kernel/task_delayacct
dorig=$(cat "$dacct" 2>/dev/null)
moved() {
	{ [ -n "$vary" ] && [ "$(current)" != "$orig" ]; } ||
		[ "$(cat "$dacct" 2>/dev/null)" != "$dorig" ]
}
check_knob() {
	if moved || grep -qv '^#' "$CONTEND_JOURNAL_DIR/knobs" 2>/dev/null; then
		changed=$(moved && echo yes)
		if ! "$contend" restore >"$W/restore" 2>&1 || moved; then
			knobs=$((knobs + 1))
			bad="$bad
$what: left the scheduler at $([ -n "$vary" ] && current), task_delayacct at $(cat "$dacct"): $(cat "$W/restore")"
			[ -z "$vary" ] || echo "$orig" >"$sched"
			echo "$dorig" >"$dacct"
		elif [ -n "$changed" ]; then
			restored=$((restored + 1))
		fi
	fi
}

total=0 left=0 knobs=0 restored=0 damaged=0 unmarked=0 missed=0 exits=0
kinds="kbuild oltp"
[ -n "$vary" ] && kinds="$kinds vary"
want signals || kinds=""
for sig in INT TERM KILL; do
	want signals && [ -z "$vary" ] &&
		skip "SIG$sig vary" "no I/O scheduler to vary (or not writable) under $W"
	for kind in $kinds; do
		i=0
		while [ $i -lt "$n" ]; do
			i=$((i + 1))
			total=$((total + 1))
			bad="" miss=""
			draw
			start $kind
			# the delay runs from the session stored running
			when="$d s after its session began"
			if wait_session "$db" $pid; then
				sleep "$d"
				kill -0 $pid 2>/dev/null || miss="contend ended before the signal"
				kill -"$sig" $pid 2>/dev/null
			else
				when="not sent"
				kill -KILL $pid 2>/dev/null
			fi
			rc=0
			wait $pid || rc=$?
			what="SIG$sig $kind $i/$n ($when, exit $rc)"
			# an interrupt ends contend with exit 4, SIGKILL kills it
			case $sig in KILL) want_rc=137 ;; *) want_rc=4 ;; esac
			if [ -z "$miss" ] && [ "$rc" != "$want_rc" ]; then
				exits=$((exits + 1))
				bad="$bad
$what: exit $rc, not $want_rc: $(head -n 2 "$W/err")"
			fi
			check_left
			check_knob
			if [ -f "$db" ]; then
				if [ "$(sqlite3 "$db" 'pragma integrity_check')" != ok ]; then
					damaged=$((damaged + 1))
					bad="$bad
$what: integrity_check failed"
				fi
				[ "$sig" = KILL ] && "$contend" list --db "$db" >/dev/null 2>&1
				st=$(sqlite3 "$db" "select group_concat(status) from sessions where id > ${last:-0}")
				last=$(sqlite3 "$db" "select coalesce(max(id), 0) from sessions")
			else
				st=""
			fi
			case ",$st," in
			,,) [ -n "$miss" ] || miss="no session stored" ;;
			*,running,*)
				unmarked=$((unmarked + 1))
				bad="$bad
$what: a session left running ($st)"
				;;
			*,complete,*) [ -n "$miss" ] || miss="the session completed ($st)" ;;
			esac
			if [ -n "$miss" ]; then
				missed=$((missed + 1))
				bad="$bad
$what: missed the session: $miss; $(head -n 2 "$W/err")"
			fi
			point "$what" "$bad"
		done
	done
done

# A disk that fills up at a random point: a 300 MiB ext4 on a loop device,
# as the work directory of a compile under io (with the scheduler varied),
# then as the directory of the store. contend must end with exit 3 and a
# line that says the disk is full, leave nothing running, and the store
# must read - `contend list` even while the disk is still full.
fill() { fallocate -l $(($(stat -f -c '%f * %S' "$small"))) "$small/fill" 2>/dev/null || :; }
disk=0 dfull=0 dmissed=0
if ! want disk; then
	:
elif ! { mkdir "$small" && truncate -s 300M "$W/small.img" &&
	mkfs.ext4 -q -F "$W/small.img" && mount -o loop "$W/small.img" "$small"; } 2>"$W/mount"; then
	skip "disk full" "cannot loop-mount a small ext4: $(head -n 1 "$W/mount")"
else
	for where in dir store; do
		i=0
		while [ $i -lt "$n" ]; do
			i=$((i + 1))
			dfull=$((dfull + 1))
			bad="" miss=""
			draw
			what="disk full ($where) $i/$n"
			if [ $where = dir ]; then
				sdb="$W/full-dir.db"
				# shellcheck disable=SC2086
				"$contend" run --quick -l none,io -n 3 $vary --dir "$small" --db "$sdb" \
					-q >"$W/out" 2>"$W/err" &
			else
				sdb="$small/results.db"
				"$contend" run --quick -l none,process -n 4 --dir "$W" --db "$sdb" -q \
					>"$W/out" 2>"$W/err" &
			fi
			pid=$!
			when="$d s after its session began"
			if wait_session "$sdb" $pid; then
				sleep "$d"
				kill -0 $pid 2>/dev/null || miss="contend ended before the disk filled"
				fill
			else
				when="not filled"
				kill -KILL $pid 2>/dev/null
			fi
			rc=0
			wait $pid || rc=$?
			what="$what ($when, exit $rc)"
			check_left
			check_knob
			case $rc in
			0) [ -n "$miss" ] || miss="contend finished with the disk full" ;;
			3) grep -q 'full\|space\|free in' "$W/err" || {
				disk=$((disk + 1))
				bad="$bad
$what: does not say the disk is full: $(head -n 2 "$W/err")"
			} ;;
			*)
				disk=$((disk + 1))
				bad="$bad
$what: $(head -n 2 "$W/err")"
				;;
			esac
			if [ -n "$miss" ]; then
				dmissed=$((dmissed + 1))
				bad="$bad
$what: missed the session: $miss"
			fi
			# the store reads while the disk is still full, and shows
			# no session running
			if [ -f "$sdb" ]; then
				if ! "$contend" list --db "$sdb" --format csv >"$W/list" 2>&1; then
					disk=$((disk + 1))
					bad="$bad
$what: list on the full disk: $(head -n 1 "$W/list")"
				elif grep -q ',running,' "$W/list"; then
					unmarked=$((unmarked + 1))
					bad="$bad
$what: list shows a session running"
				fi
			fi
			rm -f "${small:?}/fill"
			if [ -f "$sdb" ]; then
				if [ "$(sqlite3 "$sdb" 'pragma integrity_check')" != ok ]; then
					damaged=$((damaged + 1))
					bad="$bad
$what: integrity_check failed"
				fi
				"$contend" list --db "$sdb" >"$W/list" 2>&1
				if [ "$(sqlite3 "$sdb" "select count(*) from sessions where status = 'running'")" != 0 ]; then
					unmarked=$((unmarked + 1))
					bad="$bad
$what: a session left running once the disk has room again"
				fi
				# a store closed cleanly (no WAL beside it) on a full
				# disk: its readers open it read-only
				if [ $where = store ]; then
					fill
					if ! "$contend" list --db "$sdb" >"$W/list2" 2>&1 ||
						! cmp -s "$W/list" "$W/list2"; then
						disk=$((disk + 1))
						bad="$bad
$what: list of a closed store on a full disk: $(head -n 1 "$W/list2")"
					fi
					rm -f "${small:?}/fill"
				fi
			fi
			rm -rf "${small:?}"/contend.* "${small:?}"/results.db*
			point "$what" "$bad"
		done
	done
	umount "$small"
fi

# Memory pressure: kbuild under the mem load in a memory cgroup that cannot
# hold both, so the OOM killer has to choose. It must choose only what the
# mem load offered it (oom_score_adj 1000); contend and the foreground keep
# theirs (sampled while the session runs). The kernel log names every kill.
oom=0 ooms=0 msess=0
if [ -d /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/memory ]; then
	memcg=/sys/fs/cgroup/memory/contend-faults-$$
	limit=memory.limit_in_bytes
elif grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
	grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	memcg=/sys/fs/cgroup/contend-faults-$$
	limit=memory.max
fi
if ! want memory; then
	memcg=""
elif [ -z "$memcg" ]; then
	skip "memory pressure" "no memory cgroup controller to confine it"
elif ! mkdir "$memcg" 2>"$W/mkcg" || ! echo 280M 2>>"$W/mkcg" >"$memcg/$limit"; then
	skip "memory pressure" "cannot make a memory cgroup at $memcg: $(head -n 1 "$W/mkcg")"
	memcg=""
else
	i=0
	while [ $i -lt "$n" ]; do
		i=$((i + 1))
		msess=$((msess + 1))
		bad=""
		what="memory pressure $i/$n"
		from=$(dmesg | wc -l)
		# shellcheck disable=SC2016
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$memcg" \
			"$contend" run --quick -l mem --mem-size 256M -n 3 --dir "$W" --db "$db" -q \
			>"$W/out" 2>"$W/err" &
		pid=$!
		# every process of the session but the mem load's workers (the
		# foreground's are make, cc1, as...) keeps an oom_score_adj of 0 or less
		while kill -0 $pid 2>/dev/null; do
			for p in $(cat "$memcg/cgroup.procs" 2>/dev/null); do
				# read name then score; a process gone in between is skipped
				comm=$(cat "/proc/$p/comm" 2>/dev/null) && [ -n "$comm" ] || continue
				adj=$(cat "/proc/$p/oom_score_adj" 2>/dev/null) && [ -n "$adj" ] || continue
				[ "$adj" -le 0 ] && continue
				# a worker of the load: a process of contend, not contend
				[ "$adj" = 1000 ] && [ "$p" != $pid ] && [ "$comm" = contend ] && continue
				oom=$((oom + 1))
				bad="$bad
$what: $comm ($p) runs with oom_score_adj $adj"
			done
			sleep 0.2
		done
		rc=0
		wait $pid || rc=$?
		what="$what (exit $rc)"
		check_left
		# the kills in this cgroup: the victim's oom_score_adj is on its line
		dmesg | tail -n +$((from + 1)) | awk -v cg="/${memcg##*/}" '
			/oom_memcg=/ { ours = index($0, "oom_memcg=" cg ",") > 0 }
			/Killed process/ && ours { print }' >"$W/kills"
		ooms=$((ooms + $(wc -l <"$W/kills")))
		if grep -v 'oom_score_adj:1000$' "$W/kills" | grep -q .; then
			oom=$((oom + 1))
			bad="$bad
$what: the OOM killer took $(grep -v 'oom_score_adj:1000$' "$W/kills" | head -n 1)"
		fi
		case $rc in 0 | 3) ;; *)
			oom=$((oom + 1))
			bad="$bad
$what: $(head -n 2 "$W/err")"
			;;
		esac
		point "$what, $(wc -l <"$W/kills") OOM kills" "$bad"
	done
	rmdir "$memcg" 2>/dev/null
fi
echo "# $dfull disk-full sessions ($dmissed missed: the disk filled after contend ended or" \
	"before its session was stored): $disk did not" \
	"end with exit 3 and a line saying so or could not be listed; $msess sessions under" \
	"memory pressure, $ooms OOM kills: $oom killed or exposed something else than the mem load"

# two and eight sessions writing one store at once: every run stored
conc=0
sizes="2 8"
want stores || sizes=""
for k in $sizes; do
	cdb="$W/conc$k.db"
	pids=""
	j=0
	while [ $j -lt $k ]; do
		j=$((j + 1))
		"$contend" run -w selftest --scale 0.05 -l none,null -n 3 --no-warmup --delay 0.1s \
			-L "c$j" --dir "$W" --db "$cdb" -q >"$W/c$j.out" 2>"$W/c$j.err" &
		pids="$pids $!"
	done
	failed=0
	for p in $pids; do wait "$p" || failed=$((failed + 1)); done
	[ $failed = 0 ] || for f in "$W"/c*.err; do [ -s "$f" ] && echo "# $(basename "$f" .err): $(head -n 2 "$f")"; done
	runs=$(sqlite3 "$cdb" "select count(*) from runs where status = 'ok'")
	sess=$(sqlite3 "$cdb" "select count(*) from sessions where status = 'complete'")
	ok=$(sqlite3 "$cdb" 'pragma integrity_check')
	what="$k sessions on one store: $((k - failed)) of $k exit 0, $sess complete, $runs of $((k * 6)) runs stored, integrity $ok"
	if [ $failed = 0 ] && [ "$runs" = $((k * 6)) ] && [ "$sess" = $k ] && [ "$ok" = ok ]; then
		point "$what" ""
	else
		conc=$((conc + 1))
		point "$what" "$what"
	fi
done

echo "# $total injections (SIGINT, SIGTERM, SIGKILL x ${kinds:-no session} x $n): $left left processes behind," \
	"$knobs left a knob changed ($restored put back by contend restore), $damaged damaged the" \
	"store, $unmarked left a session marked running, $exits ended with another exit than" \
	"4 (SIGINT, SIGTERM) or 137 (SIGKILL); $missed missed their session (contend ended" \
	"before its session was stored or before the signal, or the session completed)"
echo "# seed $seed"
echo "1..$tn"
[ $((left + knobs + damaged + unmarked + conc + disk + oom + missed + dmissed + exits)) = 0 ]
