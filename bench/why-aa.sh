#!/bin/sh
# contend why on A/A pairs of real runs: how often does any counter rank
# when nothing differs? SESSIONS sessions (default 30) of `contend run --aa`
# for each RUNS in NS (default "5 10" runs a side): one config run as two
# labels, LABEL+aa=A and LABEL+aa=B, interleaved, then `contend why` of B
# against A. The foreground mixes what the counters see: a CPU loop, ten
# forks, a 32 MiB write synced to the work disk and read back. Prints per
# RUNS the pairs in which any counter (budget or other) ranked, with the
# exact 95% interval of that rate; the rule's level is 5% (family-wise,
# docs/statistics.md "Why"). The simulation (tests/sim/why-sim.c) is the
# same question on generated counters. Root (delay accounting). Nothing
# else may run meanwhile (../BENCH rules).
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
SESSIONS=${SESSIONS:-30}
NS=${NS:-5 10}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "${T:?}"' EXIT
[ "$(id -u)" = 0 ] || { echo "bench: run as root (delay accounting needs it)" >&2; exit 3; }
command -v python3 >/dev/null && command -v Rscript >/dev/null ||
	{ echo "bench: python3 and Rscript are needed (scripts/bootstrap check)" >&2; exit 3; }
export CONTEND_JOURNAL_DIR="$T/journal" CONTEND_DB="$T/r.db"
fg="i=0; while [ \$i -lt 30000 ]; do i=\$((i+1)); done; for k in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done; dd if=/dev/zero of=$T/f bs=1M count=32 conv=fsync 2>/dev/null; cat $T/f >/dev/null"
load0=$(cut -d' ' -f1 /proc/loadavg)
start=$(date +%s)

for n in $NS; do
	for s in $(seq 1 "$SESSIONS"); do
		"$CONTEND" run -q -w cmd -l none -n "$n" --no-warmup --delay 0 --dir "$T" --aa \
			-L "aa$n-$s" --shell -- "$fg" >/dev/null 2>&1 || true
		"$CONTEND" why "aa$n-$s+aa=A" "aa$n-$s+aa=B" --format json -o "$T/w$n-$s.json" \
			>/dev/null 2>&1 || echo '{}' >"$T/w$n-$s.json"
	done
done
python3 - "$T" "$SESSIONS" "$NS" "$load0" "$start" <<'PY'
import json, os, subprocess, sys, time
d, sessions, ns, load0, start = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], int(sys.argv[5])

def clopper(k, n):
    # the exact (Clopper-Pearson) interval, as R's binom.test gives it
    out = subprocess.run(["Rscript", "-e", f"cat(binom.test({k}, {n})$conf.int)"],
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])

for n in ns:
    judged = ranked = tested = 0
    names = {}
    for s in range(1, sessions + 1):
        try:
            doc = json.load(open(f"{d}/w{n}-{s}.json"))
            w = [c["why"] for b in doc["loads"] for c in b["configs"] if c.get("why")][0]
        except Exception:
            continue
        if not w["tested"]:
            continue
        judged += 1
        tested += w["tested"]
        if w["ranked"]:
            ranked += 1
            for r in w["ranked"]:
                names[r] = names.get(r, 0) + 1
    if not judged:
        print(f"runs a side {n}: no pair judged")
        continue
    lo, hi = clopper(ranked, judged)
    print(f"runs a side {n}: {ranked} of {judged} A/A pairs ranked a counter, rate {ranked / judged:.3f} "
          f"[{lo:.3f}, {hi:.3f}] (level 0.05); {tested / judged:.0f} counters tested a pair"
          + (f"; ranked: {', '.join(f'{k} {v}' for k, v in sorted(names.items()))}" if names else ""))
print(f"conditions: {os.cpu_count()} CPUs, kernel {os.uname().release}, load average {load0} at start, "
      f"{os.getloadavg()[0]:.2f} at end; {(time.time() - start) / 60:.1f} min")
PY
