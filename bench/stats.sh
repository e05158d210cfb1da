#!/bin/sh
# contend stats against ministat on the same two files of N values each
# (default 1,000,000; N=100000 for a first look), alternating A B A B over
# ROUNDS rounds (default 7), as ../BENCH rules ask: per round the ratio
# contend/ministat, then the median ratio, its range and each side's CoV.
# Target: median ratio at most 1.00, while contend computes everything it
# prints - the dot plot, summaries with the median's interval, outliers,
# Welch, Mann-Whitney (its normal approximation beyond 50 values a side)
# and the Hodges-Lehmann ratio with its interval: the exact median of 10^12
# differences, found by counting (src/stats/select.c). ministat prints its
# plot, summaries and Student's t.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
N=${N:-1000000}
ROUNDS=${ROUNDS:-7}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
command -v ministat >/dev/null || { echo "bench: ministat is missing (apt-get install ministat)" >&2; exit 3; }
awk -v n="$N" 'BEGIN { srand(1); for (i = 0; i < n; i++) print 100 + rand() * 10 }' >"$T/a"
awk -v n="$N" 'BEGIN { srand(2); for (i = 0; i < n; i++) print 100.01 + rand() * 10 }' >"$T/b"
python3 - "$CONTEND" "$T/a" "$T/b" "$N" "$ROUNDS" <<'PY'
import os, statistics, subprocess, sys, time
contend, a, b, n, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
cmds = {"contend": [contend, "stats", a, b], "ministat": ["ministat", a, b]}

def once(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t

def version():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "ministat"],
                             capture_output=True, text=True).stdout
        return out or "unknown"
    except OSError:
        return "unknown"

load0 = os.getloadavg()[0]
for cmd in cmds.values():  # warm the page cache and the binaries
    once(cmd)
times = {k: [] for k in cmds}
for r in range(rounds):
    order = list(cmds) if r % 2 == 0 else list(reversed(cmds))  # A B, then B A
    for k in order:
        times[k].append(once(cmds[k]))
    print(f"round {r + 1}: contend {times['contend'][-1]:.3f} s, ministat "
          f"{times['ministat'][-1]:.3f} s, ratio {times['contend'][-1] / times['ministat'][-1]:.2f}")
ratios = [c / m for c, m in zip(times["contend"], times["ministat"])]
cov = {k: statistics.stdev(v) / statistics.mean(v) for k, v in times.items()}
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, ministat {version()}, "
      f"load average {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end")
print(f"commands: {' '.join(cmds['contend'])} | {' '.join(cmds['ministat'])}")
print(f"stats ({n} values a file, {rounds} rounds): median ratio {statistics.median(ratios):.2f} "
      f"(range {min(ratios):.2f}-{max(ratios):.2f}); contend median "
      f"{statistics.median(times['contend']):.3f} s (CoV {100 * cov['contend']:.1f}%), ministat "
      f"{statistics.median(times['ministat']):.3f} s (CoV {100 * cov['ministat']:.1f}%) "
      f"(target: ratio at most 1.00)")
PY
