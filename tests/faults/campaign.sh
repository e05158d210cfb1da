#!/bin/sh
# The fault campaign: SIGINT, SIGTERM and SIGKILL at random points of real
# sessions - a kbuild compile under a load, the oltp engine, a --vary of
# the disk's I/O scheduler - then two and eight sessions writing one store
# at once. After each injection it checks that:
#   - no process of contend, its loads or its foreground is left;
#   - the scheduler is back (or `contend restore` puts it back);
#   - the store passes PRAGMA integrity_check;
#   - the session is marked interrupted: by contend itself after SIGINT or
#     SIGTERM, by the next `contend list` after SIGKILL (a session that
#     finished before the signal arrived is counted apart, not as a fault).
# Prints the counts and exits 1 when any check failed.
#
# usage: tests/faults/campaign.sh CONTEND [N]
#   N injections per signal and kind of session (default 1; bench/faults.sh
#   runs 17, 51 per signal). Root, for cgroups and the scheduler knob.
set -u
contend=${1:?usage: tests/faults/campaign.sh CONTEND [N]}
n=${2:-1}
W=$(mktemp -d /var/tmp/contend-faults.XXXXXX)
export CONTEND_JOURNAL_DIR="$W/journal"
trap 'rm -rf "${W:?}"' EXIT
db="$W/results.db"
seed=${FAULT_SEED:-$$}
fails=0

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

# a random delay in seconds, 0.3 to 6, from the campaign's seed
delay() {
	seed=$(awk -v s="$seed" 'BEGIN { print (s * 1103515245 + 12345) % 2147483648 }')
	awk -v s="$seed" 'BEGIN { printf "%.2f", 0.3 + (s % 5700) / 1000 }'
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

total=0 left=0 knobs=0 restored=0 damaged=0 unmarked=0 finished=0
kinds="kbuild oltp"
[ -n "$vary" ] && kinds="$kinds vary"
for sig in INT TERM KILL; do
	for kind in $kinds; do
		i=0
		while [ $i -lt "$n" ]; do
			i=$((i + 1))
			total=$((total + 1))
			start $kind
			sleep "$(delay)"
			kill -"$sig" $pid 2>/dev/null
			rc=0
			wait $pid || rc=$?
			sleep 0.5
			what="$sig $kind #$i (exit $rc)"
			if [ -n "$(leftovers)" ]; then
				left=$((left + 1))
				echo "# $what: left $(leftovers | tr '\n' ' ')"
				leftovers | xargs -r kill -KILL 2>/dev/null
			fi
			# what a killed contend left in the knob journal, `contend
			# restore` puts back, as a user would run it
			if [ -n "$vary" ] && { [ "$(current)" != "$orig" ] ||
				grep -qv '^#' "$CONTEND_JOURNAL_DIR/knobs" 2>/dev/null; }; then
				changed=$([ "$(current)" != "$orig" ] && echo yes)
				if ! "$contend" restore >"$W/restore" 2>&1 || [ "$(current)" != "$orig" ]; then
					knobs=$((knobs + 1))
					echo "# $what: scheduler left at $(current): $(cat "$W/restore")"
					echo "$orig" >"$sched"
				elif [ -n "$changed" ]; then
					restored=$((restored + 1))
				fi
			fi
			[ -f "$db" ] || continue # killed before the store was made
			if [ "$(sqlite3 "$db" 'pragma integrity_check')" != ok ]; then
				damaged=$((damaged + 1))
				echo "# $what: integrity_check failed"
			fi
			[ "$sig" = KILL ] && "$contend" list --db "$db" >/dev/null 2>&1
			st=$(sqlite3 "$db" "select group_concat(status) from sessions where id > ${last:-0}")
			last=$(sqlite3 "$db" "select coalesce(max(id), 0) from sessions")
			case ",$st," in
			,,) ;; # killed before its first session was stored
			*,running,*)
				unmarked=$((unmarked + 1))
				echo "# $what: a session left running ($st)"
				;;
			*,complete,*)
				case $rc in 0) finished=$((finished + 1)) ;; *)
					echo "# $what: sessions $st" ;; esac
				;;
			esac
		done
	done
done

# two and eight sessions writing one store at once: every run stored
conc=0
for k in 2 8; do
	cdb="$W/conc$k.db"
	pids=""
	j=0
	while [ $j -lt $k ]; do
		j=$((j + 1))
		"$contend" run -w selftest --scale 0.05 -l none,null -n 3 --no-warmup --delay 0.1s \
			-L "c$j" --dir "$W" --db "$cdb" -q >"$W/c$j.out" 2>"$W/c$j.err" &
		pids="$pids $!"
	done
	bad=0
	for p in $pids; do wait "$p" || bad=$((bad + 1)); done
	runs=$(sqlite3 "$cdb" "select count(*) from runs where status = 'ok'")
	sess=$(sqlite3 "$cdb" "select count(*) from sessions where status = 'complete'")
	ok=$(sqlite3 "$cdb" 'pragma integrity_check')
	echo "$k sessions on one store: $((k - bad)) of $k exit 0, $sess complete, $runs of $((k * 6)) runs stored, integrity $ok"
	[ $bad = 0 ] && [ "$runs" = $((k * 6)) ] && [ "$sess" = $k ] && [ "$ok" = ok ] || conc=$((conc + 1))
done

echo "$total injections (SIGINT, SIGTERM, SIGKILL x $kinds x $n): $left left processes behind," \
	"$knobs left a knob changed ($restored put back by contend restore), $damaged damaged the" \
	"store, $unmarked left a session marked running; $finished sessions had finished before" \
	"their signal"
[ $((left + knobs + damaged + unmarked + conc)) = 0 ]
