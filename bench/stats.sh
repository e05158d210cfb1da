#!/bin/sh
# contend stats against ministat on the same two files of N values each
# (default 1,000,000), timed with hyperfine in the same run. Target:
# contend stats under 2 s here, the exact Mann-Whitney test falling back to
# its normal approximation beyond 50 values a side.
set -eu
cd "$(dirname "$0")/.."
CONTEND=${CONTEND:-build/contend}
N=${N:-1000000}
T=$(mktemp -d /var/tmp/contend-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
for tool in hyperfine ministat; do
	command -v $tool >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 3; }
done
awk -v n="$N" 'BEGIN { srand(1); for (i = 0; i < n; i++) print 100 + rand() * 10 }' >"$T/a"
awk -v n="$N" 'BEGIN { srand(2); for (i = 0; i < n; i++) print 100.01 + rand() * 10 }' >"$T/b"
hyperfine -N --runs 5 --warmup 1 --export-json "$T/h.json" \
	"$CONTEND stats $T/a $T/b" "ministat $T/a $T/b" >/dev/null 2>&1
python3 - "$T/h.json" "$N" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
c, m = r[0]["mean"], r[1]["mean"]
print(f"stats ({int(sys.argv[2])} values a file): contend {c:.3f} s, ministat {m:.3f} s, "
      f"ratio {c / m:.2f} (target: contend under 2 s)")
PY
