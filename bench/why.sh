#!/bin/sh
# What the counters cost (contend why): the same foreground timed by contend
# with its counters (the default: delay accounting on, taskstats' exit
# records and the fork events read while it runs, the snapshots of the
# machine's and the cgroup's counters) and with --no-counters, RUNS runs a
# session (default 10), alternating A B, B A over ROUNDS rounds (default 3),
# as ../BENCH rules ask. Two foregrounds: a CPU-bound sh loop of about
# 0.2 s, and one that forks FORKS short processes (default 1000), where
# every exit sends a record contend reads. Prints per round both means and
# their ratio, then the median ratio per foreground. Target: at most 1.01.
# As root (delay accounting needs it). A first look: ROUNDS=1 RUNS=5.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
RUNS=${RUNS:-10}
ROUNDS=${ROUNDS:-3}
FORKS=${FORKS:-1000}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench: run as root (delay accounting needs it)" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 is missing (apt-get install sqlite3)" >&2; exit 3; }
export CONTEND_JOURNAL_DIR="$T/journal"
cpu='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'
forks="i=0; while [ \$i -lt $FORKS ]; do /bin/true; i=\$((i+1)); done"
load0=$(cut -d' ' -f1 /proc/loadavg)

session() { # session NAME COMMAND [OPTIONS...]: the times of RUNS runs, in s
	name=$1 cmd=$2
	shift 2
	"$CONTEND" run -q --db "$T/r.db" -w cmd -l none -n "$RUNS" --dir "$T" -L "$name" "$@" \
		-- sh -c "$cmd" >/dev/null
	sqlite3 "$T/r.db" "SELECT wall_ns / 1e9 FROM runs WHERE status = 'ok'
		AND session_id = (SELECT max(id) FROM sessions)"
}

for fg in cpu forks; do
	eval "cmd=\$$fg"
	for r in $(seq 1 "$ROUNDS"); do
		if [ $((r % 2)) = 1 ]; then
			session "$fg-on" "$cmd" >"$T/$fg-on$r"
			session "$fg-off" "$cmd" --no-counters >"$T/$fg-off$r"
		else
			session "$fg-off" "$cmd" --no-counters >"$T/$fg-off$r"
			session "$fg-on" "$cmd" >"$T/$fg-on$r"
		fi
	done
done
n=$(sqlite3 "$T/r.db" "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id
	WHERE c.label LIKE '%-on' AND r.counters LIKE '%\"t_oncpu\"%'")
python3 - "$T" "$ROUNDS" "$RUNS" "$load0" "$CONTEND" "$n" "$FORKS" <<'PY'
import os, statistics as st, sys
d, rounds, runs, load0, contend, n, forks = sys.argv[1:8]
rounds = int(rounds)
print(f"runs with a time budget stored: {n} of {2 * rounds * int(runs)} with counters")
for fg, what in (("cpu", "a CPU-bound sh loop"), ("forks", f"{forks} forks of /bin/true")):
    rs = []
    for r in range(1, rounds + 1):
        on = [float(x) for x in open(f"{d}/{fg}-on{r}")]
        off = [float(x) for x in open(f"{d}/{fg}-off{r}")]
        rs.append(st.mean(on) / st.mean(off))
        print(f"{fg} round {r}: with counters {1e3 * st.mean(on):.2f} ms (CoV {100 * st.stdev(on) / st.mean(on):.1f}%), "
              f"without {1e3 * st.mean(off):.2f} ms (CoV {100 * st.stdev(off) / st.mean(off):.1f}%); ratio {rs[-1]:.3f}")
    print(f"{fg} ({what}), {rounds} rounds of {runs} runs: median ratio {st.median(rs):.3f} "
          f"({min(rs):.3f}-{max(rs):.3f}; target at most 1.01)")
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, load average {load0} at start, "
      f"{os.getloadavg()[0]:.2f} at end")
print(f"commands: {contend} run -w cmd -l none -n {runs} [--no-counters] -- sh -c COMMAND")
PY
