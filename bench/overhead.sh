#!/bin/sh
# Harness overhead and noise: what contend adds to a measured time, and how
# much spread. The same CPU-bound command of about 0.1 s (a sh loop) is timed
# by contend (defaults: cgroups on, the none load) and by hyperfine -N, RUNS
# runs each (default 10), alternating A B, B A over ROUNDS rounds (default
# 3), as ../BENCH rules ask. Prints per round both means, both CoVs and
# their ratios, then the median ratios. Targets: mean ratio at most 1.01,
# CoV ratio at most 1.2. A first look: ROUNDS=1 RUNS=5. CONTEND_ARGS adds
# options to contend's run (--no-cgroup, --delay 0) to see what each costs.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
RUNS=${RUNS:-10}
ROUNDS=${ROUNDS:-3}
LOOP=${LOOP:-100000}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
for tool in hyperfine sqlite3; do
	command -v $tool >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 3; }
done
cmd="i=0; while [ \$i -lt $LOOP ]; do i=\$((i+1)); done"
load0=$(cut -d' ' -f1 /proc/loadavg)

contend_round() { # the times of one contend session of RUNS runs, in s
	"$CONTEND" run -q --db "$T/r.db" -w cmd -l none -n "$RUNS" --dir "$T" -L overhead ${CONTEND_ARGS:-} \
		-- sh -c "$cmd" >/dev/null
	sqlite3 "$T/r.db" "SELECT wall_ns / 1e9 FROM runs WHERE status = 'ok'
		AND session_id = (SELECT max(id) FROM sessions)"
}
hyperfine_round() {
	hyperfine -N --runs "$RUNS" --warmup 1 --export-json "$T/h.json" "sh -c '$cmd'" >/dev/null 2>&1
	python3 -c "import json,sys; print('\n'.join(str(t) for t in json.load(open(sys.argv[1]))['results'][0]['times']))" "$T/h.json"
}

for r in $(seq 1 "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		contend_round >"$T/c$r"
		hyperfine_round >"$T/h$r"
	else
		hyperfine_round >"$T/h$r"
		contend_round >"$T/c$r"
	fi
done
python3 - "$T" "$ROUNDS" "$RUNS" "$load0" "$cmd" "$CONTEND" <<'PY'
import os, statistics as st, subprocess, sys
d, rounds, runs, load0, cmd, contend = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
mr, cr = [], []
for r in range(1, rounds + 1):
    c = [float(x) for x in open(f"{d}/c{r}")]
    h = [float(x) for x in open(f"{d}/h{r}")]
    cm, hm = st.mean(c), st.mean(h)
    cc, hc = st.stdev(c) / cm, st.stdev(h) / hm
    mr.append(cm / hm)
    cr.append(cc / hc)
    print(f"round {r}: contend mean {cm * 1e3:.2f} ms CoV {100 * cc:.1f}%, hyperfine mean "
          f"{hm * 1e3:.2f} ms CoV {100 * hc:.1f}%; mean ratio {cm / hm:.3f}, CoV ratio {cc / hc:.2f}")
ver = subprocess.run(["hyperfine", "--version"], capture_output=True, text=True).stdout.strip()
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, {ver}, load average "
      f"{load0} at start, {os.getloadavg()[0]:.2f} at end")
print(f"commands: {contend} run -w cmd -l none -n {runs} -- sh -c '{cmd}' | "
      f"hyperfine -N --runs {runs} \"sh -c '{cmd}'\"")
print(f"overhead ({rounds} rounds of {runs} runs): median mean ratio {st.median(mr):.3f} "
      f"({min(mr):.3f}-{max(mr):.3f}; target at most 1.01), median CoV ratio "
      f"{st.median(cr):.2f} ({min(cr):.2f}-{max(cr):.2f}; target at most 1.2)")
PY
