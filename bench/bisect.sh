#!/bin/bash
# contend bisect beside plain `git bisect run` with a one-run judge, on one
# generated range: N commits of a small C program (a CPU loop of WORK
# iterations), commit K of which makes it EFFECT% slower. The one-run judge
# is what a user writes by hand: build, time ./bench once, call it bad when
# it is slower than halfway between one run of good and one of bad (both
# timed once, before the search). Each search runs REPEAT times; per search
# it prints how many named the culprit, the runs and the wall time.
#
# Run it on a quiet machine (nothing else running). OUT (default a new
# directory under /var/tmp) keeps the repository, the store and the logs.
# BUSY=K makes the machine a shared one for contend's bisections: another
# user's work comes and goes, K CPU loops for 5 to 30 s, then nothing for
# 5 to 30 s, the whole time (what a bisection must survive: it costs runs,
# never the answer).
set -u
cd "$(dirname "$0")/.."
C=$(readlink -f "${CONTEND:-build/contend}")
N=${N:-64}
K=${K:-41}
EFFECT=${EFFECT:-3}
WORK=${WORK:-60000000}
REPEAT_GIT=${REPEAT_GIT:-10}
REPEAT_CONTEND=${REPEAT_CONTEND:-2}
OUT=${OUT:-$(mktemp -d /var/tmp/contend-bisect.XXXXXX)}
R=$OUT/repo
export CONTEND_DB=$OUT/r.db
rm -rf "${R:?}" && mkdir -p "$R" || exit 3
rm -f "${CONTEND_DB:?}"

git -C "$R" init -q
git -C "$R" config user.email bench@example.org
git -C "$R" config user.name bench
cat >"$R/bench.c" <<'EOF'
#include "work.h"
int main(void)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < WORK; i++)
		x += i;
	return 0;
}
EOF
echo "#define WORK ${WORK}UL" >"$R/work.h"
git -C "$R" add . && git -C "$R" commit -qm "the base"
for k in $(seq 1 "$N"); do
	echo "change $k" >>"$R/notes.txt"
	[ "$k" = "$K" ] && echo "#define WORK $((WORK + WORK * EFFECT / 100))UL" >"$R/work.h"
	git -C "$R" add -A . && git -C "$R" commit -qm "change $k"
done
culprit=$(git -C "$R" log --format=%H --grep="^change $K\$")
good=$(git -C "$R" rev-parse "HEAD~$N")
bad=$(git -C "$R" rev-parse HEAD)
build='cc -O1 -o bench bench.c'
now() { date +%s.%N; }

# the one-run judge: its threshold from one run of each end, timed by it
cat >"$OUT/judge" <<'EOF'
#!/bin/sh
cc -O1 -o bench bench.c || exit 125
t0=$(date +%s%N); ./bench; t1=$(date +%s%N)
echo $((t1 - t0)) >>"$OUT_RUNS"
[ -z "${THRESHOLD:-}" ] && exit 0 # the threshold's own runs
[ $((t1 - t0)) -gt "$THRESHOLD" ] && exit 1
exit 0
EOF
chmod +x "$OUT/judge"
# one run of a commit, timed by the judge itself
one() {
	: >"$OUT/one"
	(cd "$R" && git checkout -q "$1" && OUT_RUNS=$OUT/one "$OUT/judge") && cat "$OUT/one"
}

git_right=0 git_runs=0 git_t=0
for i in $(seq 1 "$REPEAT_GIT"); do
	tg=$(one "$good") tb=$(one "$bad")
	git -C "$R" checkout -q "$bad"
	: >"$OUT/runs"
	t0=$(now)
	(cd "$R" && git bisect start "$bad" "$good" >/dev/null &&
		OUT_RUNS=$OUT/runs THRESHOLD=$(((tg + tb) / 2)) git bisect run "$OUT/judge") >"$OUT/git-$i.log" 2>&1
	echo "one run of good: $tg ns, of bad: $tb ns" >>"$OUT/git-$i.log"
	t1=$(now)
	grep -q "^$culprit is the first bad commit" "$OUT/git-$i.log" && git_right=$((git_right + 1))
	git_runs=$((git_runs + $(wc -l <"$OUT/runs") + 2))
	git_t=$(echo "$git_t + $t1 - $t0" | bc)
	(cd "$R" && git bisect reset -q >/dev/null 2>&1)
done

busy=
if [ "${BUSY:-0}" -gt 0 ]; then
	(
		trap 'kill $! 2>/dev/null; exit 0' TERM
		while :; do
			# shellcheck disable=SC2016
			timeout $((5 + RANDOM % 26)) sh -c 'for i in $(seq 2 "$1"); do
				while :; do :; done &
			done
			while :; do :; done' sh "$BUSY" &
			wait $!
			sleep $((5 + RANDOM % 26)) &
			wait $!
		done
	) &
	busy=$!
	trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null' EXIT
fi
c_right=0 c_runs=0 c_t=0
for i in $(seq 1 "$REPEAT_CONTEND"); do
	t0=$(now)
	"$C" bisect start --repo "$R" --good "$good" --bad "$bad" --build "$build" \
		-w cmd -q --dir "$OUT" -- ./bench >"$OUT/contend-$i.out" 2>"$OUT/contend-$i.err"
	t1=$(now)
	grep -q "^$culprit is the first bad commit" "$OUT/contend-$i.out" && c_right=$((c_right + 1))
	# the runs its answered steps judged (both sides), named culprit or not
	c_runs=$((c_runs + $(sqlite3 "$CONTEND_DB" "select coalesce(sum(2 * runs), 0) from bisect_steps
		where answer <> '' and bisection_id = (select max(id) from bisections)")))
	c_t=$(echo "$c_t + $t1 - $t0" | bc)
	"$C" bisect reset --repo "$R" >/dev/null 2>&1
done
[ -n "$busy" ] && kill "$busy" 2>/dev/null && wait "$busy" 2>/dev/null
busy=

echo "contend's bisections: status, seconds, runs judged, steps, skipped"
sqlite3 -separator ' ' "$CONTEND_DB" "select b.status, round((b.ended_at - b.started_at) / 1e9, 1),
	sum(case when s.answer <> '' then 2 * s.runs else 0 end), count(*), sum(s.answer = 'skip')
	from bisections b join bisect_steps s on s.bisection_id = b.id group by b.id" 2>/dev/null
echo "range: $N commits, the culprit change $K (+$EFFECT% of a CPU loop)$([ "${BUSY:-0}" -gt 0 ] && echo ", contend's beside $BUSY CPU loops that come and go"), out: $OUT"
printf '%-40s %10s %14s %16s\n' search right "runs (mean)" "time s (mean)"
row() { # row NAME RIGHT REPEAT RUNS TIME
	[ "$3" -gt 0 ] || return 0
	printf '%-40s %7s/%-2s %14.0f %16.1f\n' "$1" "$2" "$3" "$(echo "$4 / $3" | bc -l)" \
		"$(echo "$5 / $3" | bc -l)"
}
row "git bisect run, one-run judge" "$git_right" "$REPEAT_GIT" "$git_runs" "$git_t"
row "contend bisect" "$c_right" "$REPEAT_CONTEND" "$c_runs" "$c_t"
