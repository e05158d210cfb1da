# TAP helpers for the shell tests of the real binary. Each test file sources
# this, calls plan N, then ok/fail per assertion. Every test gets its own
# temporary directory and results store, removed at exit.
set -u

: "${CONTEND:?CONTEND must point to the contend binary}"
T=$(mktemp -d /var/tmp/contend-test.XXXXXX)
export CONTEND_DB="$T/results.db"
# the knob journal of this test alone, never the machine's
export CONTEND_JOURNAL_DIR="$T/journal"
# a knob a killed contend of the test left changed (its delay accounting,
# a scheduler) goes back as a user would put it back, before the journal
# that says so is removed; what a test asked for with at_exit runs first
_at_exit=:
# at_exit CMD: CMD (a shell string) runs when the test exits
at_exit() { _at_exit="$1; $_at_exit"; }
trap 'eval "$_at_exit"; grep -qsv "^#" "$CONTEND_JOURNAL_DIR/knobs" && "$CONTEND" restore >/dev/null 2>&1; rm -rf "$T"' EXIT
_n=0

plan() { echo "1..$1"; }
ok() { _n=$((_n + 1)); echo "ok $_n - $1"; }
not_ok() { _n=$((_n + 1)); echo "not ok $_n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# CT_STRICT=1 (.ci/run sets it): a skip is a failure. CI's machine has
# everything the tests need (root, a cgroup2 mount, the tools make check
# installs), so a check that would skip there is one that checks nothing;
# elsewhere a skip passes and says what the machine lacks.
skip() {
	_n=$((_n + 1))
	if [ "${CT_STRICT:-}" = 1 ]; then
		echo "not ok $_n - $1"
		echo "# skipped, which CT_STRICT makes a failure: $2"
	else
		echo "ok $_n - $1 # SKIP $2"
	fi
}
# skip_all REASON: the whole file skipped (a failure under CT_STRICT)
skip_all() {
	if [ "${CT_STRICT:-}" = 1 ]; then
		echo "Bail out! skipped, which CT_STRICT makes a failure: $1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}
check() { # check DESC CMD... : passes when CMD succeeds
	d=$1; shift
	if "$@"; then ok "$d"; else not_ok "$d" "command failed: $*"; fi
}
# nonempty DESC VALUE: passes when VALUE (an extracted list, figure or
# count) holds something other than blanks; the assertions that use an
# empty one would pass having checked nothing
nonempty() {
	case $2 in *[![:space:]]*) ok "$1" ;; *) not_ok "$1" "extracted nothing" ;; esac
}
# wait_until SECONDS CMD...: runs CMD every 0.1 s until it succeeds
# (return 0) or about SECONDS (a whole number) have passed (return 1,
# CMD having failed a last time); for what a process takes a moment to
# do - exit, reap its children - instead of a fixed sleep
wait_until() {
	_wu=$(($(date +%s) + $1))
	shift
	while ! "$@"; do
		[ "$(date +%s)" -lt "$_wu" ] || return 1
		sleep 0.1
	done
}
# need TOOL...: what make check installs (scripts/bootstrap check) - R
# for the figures checked against it, python3 - so a missing one is a
# failure, not a skip
need() {
	for _t in "$@"; do
		command -v "$_t" >/dev/null 2>&1 || {
			echo "Bail out! $_t is not installed (scripts/bootstrap check installs it)"
			exit 1
		}
	done
}
# runs contend, keeping stdout in $T/out, stderr in $T/err, exit code in $rc
run() { rc=0; "$CONTEND" "$@" >"$T/out" 2>"$T/err" || rc=$?; }
expect_rc() { # expect_rc DESC CODE
	if [ "$rc" -eq "$2" ]; then ok "$1"; else
		not_ok "$1" "exit $rc, expected $2" "stderr: $(head -c 600 "$T/err")" "stdout: $(head -c 600 "$T/out")"
	fi
}
expect_out() { # expect_out DESC PATTERN (grep -E on stdout)
	if grep -Eq -- "$2" "$T/out"; then ok "$1"; else not_ok "$1" "no '$2' in stdout:" "$(head -c 1500 "$T/out")" "stderr: $(head -c 400 "$T/err")"; fi
}
expect_err() {
	if grep -Eq -- "$2" "$T/err"; then ok "$1"; else not_ok "$1" "no '$2' in stderr:" "$(head -c 800 "$T/err")"; fi
}
sql() { sqlite3 "$CONTEND_DB" "$1"; }
# whether the store holds contend's tables (a SQLite file: whether it exists)
store_exists() { test -e "$CONTEND_DB"; }
# the store is whole: SQLite's own check, and no run or session whose
# session or config is missing
store_whole() {
	[ "$BACKEND" = pg ] || [ "$(sql "pragma integrity_check")" = ok ] || return 1
	[ "$(sql "select (select count(*) from runs r left join sessions s on s.id = r.session_id
		where s.id is null) + (select count(*) from sessions s left join configs c
		on c.id = s.config_id where c.id is null)")" = 0 ]
}
# load_fixture FILE: the committed SQLite store FILE as the test's store
load_fixture() { cp "$1" "$CONTEND_DB"; }
# CT_BACKEND=pg (tests/meson.build's cli-*-pg, under tests/pg/with-cluster.sh):
# the same test against PostgreSQL. CONTEND_DB is a fresh database of the
# throwaway cluster, and sql reads it with psql, where the SQLite functions
# the tests use (json_extract, json_array_length, group_concat) are defined
# in that database with SQLite's meaning; BACKEND says which store is under
# test, for the few checks that only mean something on one of them.
BACKEND=sqlite
if [ "${CT_BACKEND:-}" = pg ]; then
	[ -n "${CT_PG:-}" ] || skip_all "no PostgreSQL server (run under tests/pg/with-cluster.sh)"
	BACKEND=pg
	export PGOPTIONS="-c client_min_messages=warning"
	_db="ct_$(basename "$T" | tr -c 'a-zA-Z0-9\n' _ | tr 'A-Z' 'a-z')"
	command psql -X -q "$CT_PG" -c "CREATE DATABASE $_db" >/dev/null || exit 1
	export CONTEND_DB="postgresql://postgres@/$_db?host=$CT_PG_SOCKET&port=$CT_PG_PORT"
	sql() { command psql -X -q -At -F'|' -v ON_ERROR_STOP=1 "$CONTEND_DB" -c "$1"; }
	store_exists() {
		[ "$(sql "select count(*) from information_schema.tables where table_name = 'runs'")" != 0 ]
	}
	# pushed into the database: its sessions, configs and runs as stored
	load_fixture() {
		cp "$1" "$T/fixture.db" && "$CONTEND" push --from "$T/fixture.db" -q >/dev/null
	}
	sql "
CREATE FUNCTION json_extract(doc text, path text) RETURNS double precision IMMUTABLE LANGUAGE sql AS \$\$
  SELECT (nullif(doc, '')::jsonb #>> regexp_split_to_array(
    regexp_replace(regexp_replace(path, '\\[([0-9]+)\\]', '.\\1', 'g'), '^\\\$\\.', ''), '\\.'))::double precision
\$\$;
CREATE FUNCTION json_array_length(doc text) RETURNS integer IMMUTABLE LANGUAGE sql AS \$\$
  SELECT jsonb_array_length(nullif(doc, '')::jsonb)
\$\$;
CREATE FUNCTION gc_step(acc text, v anyelement, sep text) RETURNS text IMMUTABLE LANGUAGE sql AS \$\$
  SELECT CASE WHEN v IS NULL THEN acc WHEN acc IS NULL THEN v::text ELSE acc || sep || v::text END
\$\$;
CREATE FUNCTION gc_step(acc text, v anyelement) RETURNS text IMMUTABLE LANGUAGE sql AS \$\$
  SELECT gc_step(acc, v, ',')
\$\$;
CREATE AGGREGATE group_concat(anyelement, text) (SFUNC = gc_step, STYPE = text);
CREATE AGGREGATE group_concat(anyelement) (SFUNC = gc_step, STYPE = text);" >/dev/null || exit 1
fi
# processes whose command line mentions this test's directory (contend, its
# forked loads and foregrounds, tar children...)
# or whose working directory is in it (a compiler under make)
leftovers() {
	{
		pgrep -f -- "$T/" || true
		for p in /proc/[0-9]*; do
			case $(readlink "$p/cwd" 2>/dev/null) in "$T"/*) echo "${p#/proc/}" ;; esac
		done
	} | grep -v "^$$\$" | sort -u
}
# no_leftovers: leftovers finds nothing (for wait_until)
no_leftovers() { [ -z "$(leftovers)" ]; }
# entries in this test's knob journal, and the original of one path there
journal_rows() {
	if [ -f "$CONTEND_JOURNAL_DIR/knobs" ]; then
		awk '!/^#/ { n++ } END { print n + 0 }' "$CONTEND_JOURNAL_DIR/knobs"
	else
		echo 0
	fi
}
journal_original() { awk -F'\t' -v p="$1" '$1 == p { print $3 }' "$CONTEND_JOURNAL_DIR/knobs"; }
# run_examples FILE: each `contend ...` line of FILE as written, from $T, a
# TAP point each: run and calibrate through --dry-run (every check the run
# makes, nothing run; calibrate --from, which runs nothing, as written),
# bisect in the repository $T/repo, its start through --dry-run unless it
# is --step's (which only names the first commit),
# the rest for real; a postgresql:// target of another host is a fresh
# database of the test's cluster (CT_PG). A line the machine or backend
# cannot run is a skip that says why: a push on PostgreSQL (its source is
# this machine's SQLite file), root missing, an I/O scheduler this kernel
# does not offer, a --target-effect with no stored calibration. Call it
# last: its points are numbered in a subshell.
run_examples() {
	(
		_ex=0
		contend() {
			if [ "$1" = run ] || { [ "$1" = calibrate ] && [ "$2" != --from ] && [ "$2" != --show ]; }; then
				c=$1
				shift
				"$CONTEND" "$c" --dry-run "$@"
			elif [ "$1" = bisect ]; then
				# in $T/repo; start measures nothing unless --step
				# (which only names the first commit to boot)
				c=$2
				shift 2
				case " $* " in
				*" --step "* | *" --dry-run "*) ;;
				*) [ "$c" = start ] && set -- --dry-run "$@" ;;
				esac
				"$CONTEND" bisect "$c" --repo "$T/repo" "$@"
			else
				"$CONTEND" "$@"
			fi
		}
		cd "$T" || exit 1
		sed 's/[[:space:]]*#.*$//' "$1" | while IFS= read -r line; do
			shown=$line
			case $BACKEND/$line in
			pg/"contend push"* | pg/*"archive.db"*)
				skip "$line" "a SQLite file's example, and the store under test is PostgreSQL"
				continue
				;;
			*/*"postgresql://"*@*)
				# another host's database: a fresh database of this
				# test's cluster stands in (tests/meson.build runs the
				# suites that show one under tests/pg/with-cluster.sh)
				if [ -z "${CT_PG:-}" ]; then
					skip "$line" "no PostgreSQL cluster to stand in for its database"
					continue
				fi
				_ex=$((_ex + 1))
				command psql -X -q "$CT_PG" -c "CREATE DATABASE ct_example_$_ex" >/dev/null || exit 1
				_url="postgresql://postgres@/ct_example_$_ex?host=$CT_PG_SOCKET&port=$CT_PG_PORT"
				_url=$(printf '%s' "$_url" | sed 's/[&|\\]/\\&/g')
				line=$(printf '%s\n' "$line" | sed "s|postgresql://[^ ]*|'$_url'|")
				;;
			esac
			rc=0
			eval "$line" >"$T/out" 2>"$T/err" || rc=$?
			if [ "$rc" = 0 ]; then
				ok "$shown"
			elif [ "$rc" = 3 ] && [ "$(id -u)" != 0 ] && grep -q "root" "$T/err"; then
				skip "$shown" "needs root"
			elif [ "$rc" = 2 ] && grep -q "^contend: run: knob 'iosched': '.*' is not offered by" "$T/err"; then
				skip "$shown" "$(cat "$T/err")"
			elif [ "$rc" = 2 ] && grep -q "^contend: run: --target-effect: '.*' has no calibration" "$T/err"; then
				skip "$shown" "no calibration stored: $(cat "$T/err")"
			else
				not_ok "$shown" "exit $rc: $(head -c 400 "$T/err")"
			fi
		done
	)
}
