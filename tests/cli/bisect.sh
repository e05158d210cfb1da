#!/bin/sh
# contend bisect on a generated git repository: a small C program whose
# commit "change 11" (of 15) makes it 30% slower (it sleeps: the machine's load
# moves it only by how late it wakes, see below), with noise of its own
# and fluke runs (5% take 1.5 times as long). What is checked: the culprit is named, as git names it,
# in repeated bisections; a commit that does not build is skipped; a
# SIGKILL mid-bisection loses nothing (status shows it, resume measures no
# answered step again); the kernel loop of one step per boot, with a fake
# boot that changes what the workload measures; and each mistake is one
# line, exit 2, the repository untouched.
. "$CT_TESTLIB"
plan 56

# The bench sleeps 20 or 26 ms. On a machine whose CPUs are busy a woken
# sleeper waits for a CPU, and that wait, not the commit, decides the run:
# beside two CPU hogs (stress-ng --cpu 2) 8 checks failed and the test ran
# over 15 minutes. As root, this test and everything
# it starts run SCHED_FIFO, so a wakeup takes its CPU at once and what is
# measured is the bench (RT tasks also sleep without timer slack). Without
# root it runs as it is, which a quiet machine needs.
if [ "$(id -u)" = 0 ] && command -v chrt >/dev/null 2>&1; then
	chrt -f -p 10 $$ >/dev/null || echo "# chrt -f failed: the test runs SCHED_OTHER"
fi

R="$T/repo"
mkdir "$R"
git -C "$R" init -q
git -C "$R" config user.email t@example.org
git -C "$R" config user.name t
cat >"$R/bench.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "work.h"
int main(void)
{
	struct timespec ts;
	double f;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	srand((unsigned)(ts.tv_nsec ^ (unsigned)getpid()));
	f = 1 + 0.02 * (rand() / (double)RAND_MAX - 0.5);
	if (rand() % 20 == 0)
		f *= 1.5; /* a fluke */
	usleep((useconds_t)(WORK_US * f));
	return 0;
}
EOF
echo '#define WORK_US 20000' >"$R/work.h"
git -C "$R" add . && git -C "$R" commit -qm "bench: the base"
# 15 changes, the culprit the 11th, 30% slower (the kernel loop's boot:
# 50%); the sanitized build (CT_TEST_QUICK: the C paths once, not the
# campaign again) bisects 7, the culprit the 6th and twice as slow, so
# that steps answer at their first rung - every check the same
N=15 K=11 B1=7 B2=9 SLOW=26000 BOOTSLOW=0.060
[ "${CT_TEST_QUICK:-}" = 1 ] && N=7 K=6 B1=3 B2=5 SLOW=40000 BOOTSLOW=0.080
for k in $(seq 1 $N); do
	echo "change $k" >>"$R/notes.txt"
	[ "$k" = $K ] && echo "#define WORK_US $SLOW" >"$R/work.h"
	# changes B1 and B1 + 1 do not build: the first candidate is one of them
	case $k in $B1) echo 'syntax error' >"$R/broken.h" ;; $B2) rm -f "$R/broken.h" ;; esac
	git -C "$R" add -A . && git -C "$R" commit -qm "change $k"
done
culprit=$(git -C "$R" log --format=%H --grep="^change $K\$")
good=$(git -C "$R" rev-parse HEAD~$N)
# the last commit before the culprit: a range whose ends do not differ
same=HEAD~$((N - K + 1))
build='cc -O1 -o bench bench.c && if [ -e broken.h ]; then exit 1; fi'
B="-q --no-warmup --delay 0 --dir $T -w cmd"
wt() { git -C "$R" worktree list | wc -l; }

# mistakes first: each one line, exit 2, nothing changed in the repository
state=$(git -C "$R" status --porcelain)
trees=$(wt)
run bisect start --repo "$R" --good nosuch --bad HEAD --build "$build" $B -- ./bench
expect_rc "a revision that does not exist: exit 2" 2
expect_err "it names it" "nosuch"
run bisect start --repo "$R" --good HEAD --bad HEAD~$N --build "$build" $B -- ./bench
expect_rc "good not an ancestor of bad: exit 2" 2
expect_err "it says so" "is not an ancestor of --bad"
run bisect start --repo "$R" --good HEAD~$N --bad HEAD --build "nosuchbuild -j2" $B -- ./bench
expect_rc "a build command that is not found: exit 2" 2
expect_err "it names it" "--build: cannot run 'nosuchbuild': command not found"
check "nothing of the repository changed by the mistakes" test "$(git -C "$R" status --porcelain)" = "$state" -a "$(wt)" = "$trees"
check "and nothing stored" test "$(sql "select count(*) from bisections" 2>/dev/null || echo 0)" = 0
# the user's uncommitted changes are none of its business: it builds
# commits in work trees of its own
echo dirty >>"$R/notes.txt"
run bisect start --dry-run --repo "$R" --good HEAD~$N --bad HEAD --build "$build" $B -- ./bench
expect_rc "uncommitted changes in the user's tree do not stop start: exit 0" 0
git -C "$R" checkout -q notes.txt
# a base that does not build ends the bisection, saying so, and reset
# keeps the log the message names
run bisect start --repo "$R" --good HEAD~$N --bad HEAD --build false $B -- ./bench
expect_rc "a good end that does not build: exit 3" 3
log=$(sed -n 's/.*its log: \([^)]*\)).*/\1/p' "$T/err")
nonempty "it names the build's log: $log" "$log"
run bisect status --repo "$R"
expect_out "and the bisection ended without a culprit, saying why" "^bisection of .*: none .*|does not build"
run bisect status --repo "$R" --why
expect_rc "status --why of a bisection that never measured across: exit 2" 2
expect_err "it says so" "no step measured the culprit against its parent"
"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1
check "reset keeps that log" test -n "$log" -a -f "$log"

# a range whose ends do not differ: said, and exit 5. The first step asks
# whether bad differs from good at all, at 95%, so it calls two equal ends
# different one time in twenty (1 of 12 tries, 5 December; a fresh-clone
# make check of 29b5349 met one): the range is tried again when it did,
# and the test fails by chance one time in 400
for try in 1 2; do
	run bisect start --repo "$R" --good HEAD~$N --bad $same --build "$build" --max-runs 10 $B -- ./bench
	"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1
	grep -q "regression .*: same" "$T/err" && break
done
expect_rc "good and bad that do not differ: exit 5" 5
expect_err "it says so" "no first bad commit: good and bad do not differ after 20 runs a side"

# a whole bisection (the SIGKILLed one below is the second)
run bisect start --repo "$R" --good HEAD~$N --bad HEAD --build "$build" $B -- ./bench
expect_rc "the bisection ends with the culprit: exit 0" 0
expect_out "it names it as git does" "^$culprit is the first bad commit\$"
runs=$(sed -n 's/.* \([0-9]*\) runs judged.*/\1/p' "$T/out")
check "it says the runs it judged: $runs ($(grep -c 'step [0-9]*, candidate' "$T/err") candidates)" test "${runs:-0}" -gt 0
run bisect status --repo "$R"
expect_out "status shows a skipped build" "skip .*the build failed"
expect_out "and the culprit" "^$culprit is the first bad commit"
# why: the culprit's runs against its parent's, from the across step's
# sittings; the culprit sleeps longer, and that is where its time went
run bisect status --repo "$R" --why
expect_rc "status --why: exit 0" 0
expect_out "status --why: the culprit against its parent" \
	"^Why $(echo "$culprit" | cut -c1-12) differs from [0-9a-f]{12} under load none \([0-9]+ and [0-9]+ runs with counters\):$"
expect_out "the culprit sleeps longer: asleep otherwise moved up" "^  asleep otherwise .* \+[0-9.]+ ms \["
run bisect log --repo "$R"
expect_out "log is git's bisect log" "^git bisect good $good\$"
expect_out "and ends with the first bad commit" "^# first bad commit: \[$culprit\] change $K\$"
run bisect report --repo "$R" -o "$T/b.html"
expect_rc "report writes the page: exit 0" 0
check "it names the culprit" grep -q "<b>$(echo "$culprit" | cut -c1-12)</b> is the first bad commit" "$T/b.html"
check "and places every answered step with an interval at its commit" test "$(grep -c '<circle' "$T/b.html")" = "$(sql "select count(*) from bisect_steps where answer <> '' and have_effect and bisection_id = (select max(id) from bisections)")"
check "the y axis at round values, the commits labelled along x, the culprit among them" python3 "$(dirname "$CT_TESTLIB")/ticks.py" "$T/b.html" "$(echo "$culprit" | cut -c1-7)" good
run bisect status --repo "$R" -o "$T/x"
expect_rc "-o on another subcommand: exit 2" 2
run bisect report --repo "$R" -o "$T/b.pdf"
expect_rc "report -o b.pdf (not a page): exit 2" 2
check "and nothing written" test ! -e "$T/b.pdf"
check "every step's runs are ordinary sessions labelled by commit" test "$(sql "select count(*) from configs where label = '$(echo "$culprit" | cut -c1-12)'")" -ge 1
"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1
check "reset removes the work trees" test "$(wt)" = "$trees"

# git's own loop: git bisect run with judge, against two stored labels
# measured at the ends (three sessions each, so that their spread is known).
# judge refuses ends that compare does not call different (exit 255, which
# stops git), and three sessions a side, whose session medians decide, can
# miss 30% when one session of six is disturbed (a fresh-clone make check
# of 0d337bb met one, under ASan, and a quiet run on 5 December: +19.6%
# [-0.8%, +44.2%], p=0.055 on the sessions' medians): a session more a
# side, up to eight, until compare calls bad slower, as a user told
# "nothing to bisect" would do
git clone -q "$R" "$T/clone"
jsessions() { # jsessions N: N sessions of each end
	for end in good bad; do
		if [ $end = good ]; then git -C "$T/clone" checkout -q "$good"; else git -C "$T/clone" checkout -q "$culprit"; fi
		(cd "$T/clone" && cc -O1 -o bench bench.c)
		for i in $(seq 1 "$1"); do (cd "$T/clone" && "$CONTEND" run $B -l none -n 5 -L "j$end" -- ./bench >/dev/null 2>&1); done
	done
}
jsessions 3
for more in 1 2 3 4 5; do
	crc=0
	"$CONTEND" compare jgood jbad -w cmd -l none --fail-on-regression 0 >"$T/cmp" 2>&1 || crc=$?
	[ $crc = 1 ] && break
	echo "# the ends do not differ yet (compare: exit $crc): a session more a side ($more)"
	grep -E "jbad vs jgood|^contend" "$T/cmp" | sed 's/^/# /'
	jsessions 1
done
git -C "$T/clone" checkout -q master 2>/dev/null || git -C "$T/clone" checkout -q main
(cd "$T/clone" && git bisect start HEAD "$good" >/dev/null &&
	git bisect run "$CONTEND" bisect judge --good-label jgood --bad-label jbad --build "$build" $B -- ./bench) >"$T/out" 2>"$T/err"
rc=$?
expect_rc "git bisect run with judge: exit 0" 0
# one verdict per step, against stored sessions of other minutes: the
# weaker path (docs/usage.md), so the commit it names is not asserted
expect_out "git names a first bad commit from judge's answers" "^[0-9a-f]{40} is the first bad commit\$"
expect_err "a commit that does not build is skipped (125)" "judge: the build failed \(exit 1\): skipped"
(cd "$T/clone" && git bisect reset >/dev/null 2>&1)
run bisect judge --repo "$T/clone" --good-label jgood --bad-label nosuch $B -- ./bench
expect_rc "judge with a label that names nothing: 255, which stops git bisect run" 255

# SIGKILL in the middle, then status and resume
"$CONTEND" bisect start --repo "$R" --good HEAD~$N --bad HEAD --build "$build" $B -- ./bench >"$T/k.out" 2>&1 &
pid=$!
n=0
# killed mid-sitting: two steps answered and the third's session holding
# runs, which the sitting after the kill must pair with its own
while [ "$n" -lt 600 ] && { [ "$(sql "select count(*) from bisect_steps s join bisections b on b.id = s.bisection_id where b.status = 'running' and s.answer <> ''")" -lt 2 ] ||
	[ "$(sql "select count(*) from runs r join bisect_steps s on s.session_id = r.session_id join bisections b on b.id = s.bisection_id where b.status = 'running' and s.answer = ''")" -lt 4 ]; }; do
	sleep 0.2
	n=$((n + 1))
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
answered=$(sql "select group_concat(seq) from bisect_steps s join bisections b on b.id = s.bisection_id where b.status = 'running' and s.answer <> ''")
check "two steps were answered and a third had runs before the kill (waited $n of 600 polls)" test "$n" -lt 600
nonempty "the answered steps: $answered" "$answered"
run bisect status --repo "$R"
expect_rc "after SIGKILL status: exit 0" 0
expect_out "it is still running" "^bisection of .*: running"
run bisect resume --repo "$R"
expect_rc "resume: exit 0" 0
expect_out "it names the culprit" "^$culprit is the first bad commit\$"
# an empty list matches nothing (SQLite takes "in ()"): the check above it,
# that some steps were answered, is what fails then
twice=$(sql "select count(*) from (select s.seq from bisect_steps s join bisections b on b.id = s.bisection_id where b.id = (select max(id) from bisections) and s.seq in ($answered) group by s.seq having count(*) > 1) x")
check "no step answered before the kill was measured again ($answered)" test "$twice" = 0
"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1

# the kernel's loop: one step per boot, a fake boot changes what runs
cat >"$T/boot" <<EOF
#!/bin/sh
echo "\$1" >"$T/booted"
if git -C "$R" merge-base --is-ancestor $culprit "\$1"; then echo $BOOTSLOW >"$T/cost"; else echo 0.040 >"$T/cost"; fi
EOF
chmod +x "$T/boot"
echo none >"$T/booted"
run bisect start --repo "$R" --good HEAD~$N --bad HEAD --step --id "cat $T/booted" --next-cmd "$T/boot" $B --shell -- "sleep \$(cat $T/cost)"
expect_rc "start --step: exit 0" 0
expect_out "it names the first commit to boot: good" "^next: build and boot $good "
check "and --next-cmd booted it" test "$(cat "$T/booted")" = "$good"
run bisect start --repo "$R" --good HEAD~$N --bad HEAD $B -- ./bench
expect_rc "a bisection already in progress: exit 2" 2
cp "$T/booted" "$T/booted.save"
echo 0000000 >"$T/booted"
run bisect step --repo "$R"
expect_rc "step on a system that is not the candidate: exit 2" 2
cp "$T/booted.save" "$T/booted"
steps=0
while [ "$steps" -lt 60 ]; do
	run bisect step --repo "$R"
	steps=$((steps + 1))
	[ "$rc" = 0 ] && grep -q "is the first bad commit" "$T/out" && break
	[ "$rc" = 0 ] || break
done
expect_rc "the step loop ends: exit 0" 0
expect_out "with the culprit, after $steps boots" "^$culprit is the first bad commit\$"
# why across the boots: the culprit's boots against its parent's, whose
# sleep was shorter
run bisect status --repo "$R" --why
expect_out "status --why after boots: the culprit's boots against its parent's" \
	"^Why $(echo "$culprit" | cut -c1-12) differs from [0-9a-f]{12} under load none \([0-9]+ and [0-9]+ runs with counters\):$"
expect_out "the culprit's boots slept longer" "^  asleep otherwise .* \+[0-9.]+ ms \["
"$CONTEND" bisect reset --repo "$R" >/dev/null 2>&1
