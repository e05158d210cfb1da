#!/bin/sh
# Harness overhead: what contend adds to a measured time. Times `true` with
# contend (20 runs, no load) and with hyperfine -N in the same script and
# prints both means and the difference per run. Target: under 1 ms.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
RUNS=${RUNS:-20}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v hyperfine >/dev/null || { echo "bench: hyperfine is missing (apt-get install hyperfine)" >&2; exit 3; }

"$CONTEND" run -q --db "$T/r.db" -w cmd -l none -n "$RUNS" --dir "$T" -L overhead -- true >/dev/null
ct=$(sqlite3 "$T/r.db" "select avg(wall_ns)/1e6 from runs where status='ok'")
hyperfine -N --runs "$RUNS" --warmup 1 --export-json "$T/h.json" true >/dev/null 2>&1
hf=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean']*1e3)" "$T/h.json")
python3 - "$ct" "$hf" <<'PY'
import sys
ct, hf = float(sys.argv[1]), float(sys.argv[2])
print(f"overhead: contend mean {ct:.3f} ms, hyperfine -N mean {hf:.3f} ms, "
      f"difference {ct - hf:+.3f} ms per run, ratio {ct / hf:.2f} (target: difference < 1 ms)")
PY
