#!/bin/sh
# What the counters cost (contend why): the same foreground timed by contend
# with its counters (the default: delay accounting on, taskstats' exit
# records and the fork events read while it runs, the snapshots of the
# machine's and the cgroup's counters) and with --no-counters, RUNS runs a
# session (default 10), alternating A B, B A over ROUNDS rounds (default 3),
# as ../BENCH rules ask. Three foregrounds: contend's default workload (a
# parallel build of the generated tree, about 14 s here; KBUILD_RUNS runs a
# session, default 2), a CPU-bound sh loop of about 0.12 s, and one that
# forks FORKS short processes (default 1000) - the worst case, where every
# task's exit sends a record contend reads. Prints per round both means and
# their ratio, then the median ratio per foreground with its quartiles.
# Target: at most 1.01. As root (delay accounting needs it). A first look:
# ROUNDS=2 RUNS=5 FOREGROUNDS="cpu forks".
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
RUNS=${RUNS:-5}
KBUILD_RUNS=${KBUILD_RUNS:-2}
ROUNDS=${ROUNDS:-10}
FORKS=${FORKS:-1000}
FOREGROUNDS=${FOREGROUNDS:-kbuild cpu forks}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench: run as root (delay accounting needs it)" >&2; exit 3; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 is missing (apt-get install sqlite3)" >&2; exit 3; }
export CONTEND_JOURNAL_DIR="$T/journal"
cpu='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'
forks="i=0; while [ \$i -lt $FORKS ]; do /bin/true; i=\$((i+1)); done"
load0=$(cut -d' ' -f1 /proc/loadavg)

session() { # session NAME COMMAND [OPTIONS...]: the times of its runs, in s
	name=$1 cmd=$2
	shift 2
	if [ "$cmd" = kbuild ]; then
		"$CONTEND" run -q --db "$T/r.db" -w kbuild -l none -n "$KBUILD_RUNS" --dir "$T" \
			-L "$name" "$@" >/dev/null
	else
		"$CONTEND" run -q --db "$T/r.db" -w cmd -l none -n "$RUNS" --dir "$T" -L "$name" "$@" \
			-- sh -c "$cmd" >/dev/null
	fi
	sqlite3 "$T/r.db" "SELECT wall_ns / 1e9 FROM runs WHERE status = 'ok'
		AND session_id = (SELECT max(id) FROM sessions)"
}

kbuild=kbuild
for fg in $FOREGROUNDS; do
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
python3 - "$T" "$ROUNDS" "$RUNS" "$load0" "$CONTEND" "$n" "$FORKS" "$KBUILD_RUNS" $FOREGROUNDS <<'PY'
import os, statistics as st, sys
d, rounds, runs, load0, contend, n, forks, kruns = sys.argv[1:9]
fgs = sys.argv[9:]
rounds = int(rounds)
want = sum(rounds * int(kruns if fg == "kbuild" else runs) for fg in fgs)
print(f"runs with a time budget stored: {n} of {want} with counters")
whats = {"kbuild": "the default workload, a parallel build", "cpu": "a CPU-bound sh loop",
         "forks": f"{forks} forks of /bin/true"}
for fg in fgs:
    what = whats[fg]
    rs = []
    for r in range(1, rounds + 1):
        on = [float(x) for x in open(f"{d}/{fg}-on{r}")]
        off = [float(x) for x in open(f"{d}/{fg}-off{r}")]
        rs.append(st.mean(on) / st.mean(off))
        print(f"{fg} round {r}: with counters {1e3 * st.mean(on):.2f} ms, "
              f"without {1e3 * st.mean(off):.2f} ms; ratio {rs[-1]:.3f}")
    q = st.quantiles(rs, n=4) if len(rs) > 1 else rs * 3
    print(f"{fg} ({what}), {rounds} rounds of {kruns if fg == 'kbuild' else runs} runs: "
          f"median ratio {st.median(rs):.3f} (quartiles {q[0]:.3f}, {q[2]:.3f}; "
          f"{min(rs):.3f}-{max(rs):.3f}; target at most 1.01)")
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, load average {load0} at start, "
      f"{os.getloadavg()[0]:.2f} at end")
print(f"commands: {contend} run -w cmd -l none -n {runs} [--no-counters] -- sh -c COMMAND; "
      f"{contend} run -w kbuild -l none -n {kruns} [--no-counters]")
PY
