#!/bin/sh
# The Ansible role (contrib/ansible) run for real against two hosts: two
# network namespaces on this machine, each with its own sshd on a private
# address of its veth pair, its own hostname and /etc/machine-id (a UTS and
# a mount namespace), and a throwaway PostgreSQL cluster as the fleet's
# store. ansible-playbook runs site.yml over ssh; fleet1's suite succeeds,
# fleet2's foreground fails. Checked: both hosts' sessions arrived in the
# store under their own hostnames and machine ids, the play reports fleet2
# failed and fleet1 complete with its session UUIDs, the store's password
# was on no command line, contend fleet summary shows fleet1's session
# under its machine, and nothing is left running on either host.
#
# usage: tests/pg/with-cluster.sh --tap sh tests/fleet/fleet.sh   (root;
# CONTEND the binary; TAP, skips with their reason without root, sshd or
# ansible-playbook)
#
# CT_FLEET_DEMO=1: no checks; both hosts run the same suite, one after the
# other (serial: 1), and the play's time, the sessions stored and the
# fleet's summary are printed (docs/fleet.md's run); CT_FLEET_INSTALL=source
# besides: the role builds contend from this checkout on the hosts.
set -u
: "${CONTEND:?CONTEND must point to the contend binary}"
top=$(cd "$(dirname "$0")/../.." && pwd)
demo=${CT_FLEET_DEMO:-}
echo "1..9"
skip_all() { # a failure under CT_STRICT (.ci/run), as tests/cli/lib.sh's
	if [ "${CT_STRICT:-}" = 1 ]; then
		echo "Bail out! skipped, which CT_STRICT makes a failure: $1"
		exit 1
	fi
	for i in 1 2 3 4 5 6 7 8 9; do echo "ok $i # SKIP $1"; done
	exit 0
}
[ "$(id -u)" = 0 ] || skip_all "not root: namespaces and sshd need it"
command -v ansible-playbook >/dev/null 2>&1 || skip_all "ansible-playbook is not installed (apt-get install ansible)"
[ -x /usr/sbin/sshd ] || skip_all "sshd is not installed (apt-get install openssh-server)"
ip netns list >/dev/null 2>&1 || skip_all "ip netns does not work here"
[ -n "${CT_PG_SOCKET:-}" ] || skip_all "no PostgreSQL cluster (run under tests/pg/with-cluster.sh)"

T=$(mktemp -d /var/tmp/contend-fleet.XXXXXX)
chmod 755 "$T"
ns="ctfleet$$"
cleanup() {
	for i in 1 2; do
		[ -f "$T/sshd$i.pid" ] && kill "$(cat "$T/sshd$i.pid")" 2>/dev/null
		# and the sessions ansible's ssh keeps open (ControlPersist)
		ip netns pids "$ns$i" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "$ns$i" 2>/dev/null
		ip link del "ctf$$h$i" 2>/dev/null
	done
	rm -rf "${T:?}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# the fleet's store: a database and a role with a password in the cluster
db="fleet$$"
psql -X -q -h "$CT_PG_SOCKET" -p "$CT_PG_PORT" -U postgres -d postgres \
	-c "create role fleet login password 'pw-$$-secret'" -c "create database $db owner fleet" >/dev/null
url="postgresql://fleet@/$db?host=$CT_PG_SOCKET&port=$CT_PG_PORT"

# sshd's privilege separation directory (its service makes it at boot)
[ -d /run/sshd ] || mkdir -m 755 /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$T/id"
ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey"
cp "$T/id.pub" "$T/authorized_keys"
for i in 1 2; do
	ip netns add "$ns$i"
	ip link add "ctf$$h$i" type veth peer name eth0 netns "$ns$i"
	ip addr add "10.231.$i.1/30" dev "ctf$$h$i"
	ip link set "ctf$$h$i" up
	ip netns exec "$ns$i" ip addr add "10.231.$i.2/30" dev eth0
	ip netns exec "$ns$i" ip link set eth0 up
	ip netns exec "$ns$i" ip link set lo up
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$T/machine-id$i"
	echo >>"$T/machine-id$i"
	cat >"$T/sshd$i.conf" <<-CONF
		ListenAddress 10.231.$i.2
		HostKey $T/hostkey
		PidFile $T/sshd$i.pid
		AuthorizedKeysFile $T/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		UsePAM no
		StrictModes no
		Subsystem sftp /usr/lib/openssh/sftp-server
	CONF
	ip netns exec "$ns$i" unshare --uts --mount --propagation private sh -c \
		"hostname fleet$i && mount --bind $T/machine-id$i /etc/machine-id && exec /usr/sbin/sshd -f $T/sshd$i.conf -E $T/sshd$i.log"
done
n=0
while [ $n -lt 50 ] && ! { [ -s "$T/sshd1.pid" ] && [ -s "$T/sshd2.pid" ]; }; do
	sleep 0.1
	n=$((n + 1))
done

# fleet2 runs a suite file of the controller's: a job that passes, one
# that fails
cat >"$T/fleet2.ini" <<'INI'
[global]
workload = cmd
loads = none
runs = 2
no-warmup
delay = 0

[ok]
command = true

[fails]
command = false
INI
fail2="contend_suite=$T/fleet2.ini contend_args='[]'"
suite='["--scale", "0.05", "--no-warmup", "--delay", "0"]'
loads=none runs=3 serial=""
if [ -n "$demo" ]; then
	fail2="" loads=none,process runs=5 serial="-e contend_serial=1"
	suite='["--scale", "0.2", "--delay", "0.2s"]'
fi
# CT_FLEET_INSTALL=source (with CT_FLEET_DEMO): the role builds and
# installs the checkout's HEAD on the hosts, under /usr/local
install="contend_install=none
contend_bin=$CONTEND"
[ "${CT_FLEET_INSTALL:-}" = source ] && install="contend_install=source
contend_src=$top"
cat >"$T/inventory.ini" <<INV
[contend_fleet]
fleet1 ansible_host=10.231.1.2
fleet2 ansible_host=10.231.2.2 $fail2

[contend_fleet:vars]
ansible_user=root
contend_become=false
ansible_ssh_private_key_file=$T/id
ansible_ssh_common_args='-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null'
ansible_python_interpreter=/usr/bin/python3
$install
contend_db=$url
contend_label=fleet-test
contend_workload=selftest
contend_loads=$loads
contend_runs=$runs
contend_args='$suite'
contend_results=$T/results
INV
printf 'contend_db_password: pw-%s-secret\n' $$ >"$T/vault.yml"

# ps every 0.2 s while the play runs: the password must be on no command line
(while :; do ps -eo args >>"$T/ps" 2>/dev/null; sleep 0.2; done) &
watch=$!
rc=0
t0=$(date +%s%N)
ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 ANSIBLE_STDOUT_CALLBACK=default \
	ansible-playbook -i "$T/inventory.ini" -e "@$T/vault.yml" $serial "$top/contrib/ansible/site.yml" \
	>"$T/play" 2>&1 || rc=$?
t1=$(date +%s%N)
kill $watch 2>/dev/null
wait $watch 2>/dev/null
echo "# the play took $(((t1 - t0) / 1000000)) ms"
# the store as its owner reads it, through the cluster's socket
admin="postgresql://postgres@/$db?host=$CT_PG_SOCKET&port=$CT_PG_PORT"
if [ -n "$demo" ]; then
	echo "# play: exit $rc"
	[ $rc = 0 ] || grep -E '^fatal|"msg"|stderr' "$T/play" | head -n 20 | sed 's/^/# /'
	grep -E '^fleet[12] +:' "$T/play" | sed 's/^/# /'
	"$CONTEND" list --db "$admin" | sed 's/^/# /'
	"$CONTEND" fleet summary --db "$admin" --baseline-machine fleet1 | sed 's/^/# /'
	exit 0
fi

recap() { sed -n "s/^$1 *: \(.*\)/\1/p" "$T/play" | tr -s ' '; }
r1=$(recap fleet1)
r2=$(recap fleet2)
if [ $rc != 0 ] && echo "$r1" | grep -q 'failed=0' && echo "$r2" | grep -q 'failed=1'; then
	echo "ok 1 - the play fails fleet2 alone (exit $rc; fleet1: $r1; fleet2: $r2)"
else
	echo "not ok 1 - the play fails fleet2 alone (exit $rc; fleet1: $r1; fleet2: $r2)"
	tail -n 30 "$T/play" | sed 's/^/# /'
	cat "$T/sshd1.log" "$T/sshd2.log" 2>/dev/null | tail -n 10 | sed 's/^/# sshd: /'
fi
q() { psql -X -q -At -h "$CT_PG_SOCKET" -p "$CT_PG_PORT" -U postgres -d "$db" -c "$1"; }
h1=$(q "select count(*) || ' ' || min(status) from sessions where hostname = 'fleet1'")
h2=$(q "select count(*) from sessions where hostname = 'fleet2' and argv like '%--suite ''fleet2.ini/%'")
[ "$h1" = "1 complete" ] && echo "ok 2 - fleet1's session arrived, complete" ||
	echo "not ok 2 - fleet1's session arrived, complete # got '$h1'"
f2=$(q "select count(*) from runs r join sessions s on s.id = r.session_id where s.hostname = 'fleet2' and r.status <> 'ok'")
[ "$h2" = 2 ] && [ "${f2:-0}" = 2 ] && echo "ok 3 - fleet2's suite: a session a job arrived, the failing job's runs failed ($f2)" ||
	echo "not ok 3 - fleet2's suite: a session a job arrived, the failing job's runs failed # sessions $h2, failed runs $f2"
m=$(q "select count(distinct machine_id) from sessions")
[ "$m" = 2 ] && echo "ok 4 - under two machine ids" || echo "not ok 4 - under two machine ids # got $m"
u=$(q "select uuid from sessions where hostname = 'fleet1'")
if [ -n "$u" ] && grep -q "fleet1: exit 0, sessions $u" "$T/play"; then
	echo "ok 5 - the play names fleet1's session $u"
else
	echo "not ok 5 - the play names fleet1's session"
	grep 'fleet1: exit' "$T/play" | sed 's/^/# /'
fi
if [ -s "$T/ps" ] && ! grep -q "pw-$$-secret" "$T/ps"; then
	echo "ok 6 - the password was on no command line ($(wc -l <"$T/ps") ps lines)"
else
	echo "not ok 6 - the password was on no command line"
fi
sleep 0.5
# each host's processes are its namespace's: sshd and the sessions
# ansible keeps open, nothing of contend
left=""
for i in 1 2; do
	for p in $(ip netns pids "$ns$i"); do
		case $(cat "/proc/$p/cmdline" 2>/dev/null | tr '\0' ' ') in
		*sshd*) ;;
		*) left="$left fleet$i:$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" ;;
		esac
	done
done
left="$left$(pgrep -af "$CONTEND" | grep -v "^$$ " || true)"
[ -z "$left" ] && echo "ok 7 - nothing but sshd left running on either host" ||
	echo "not ok 7 - nothing but sshd left running on either host # $left"

# the fleet's summary: fleet1's session, under fleet1's machine id (fleet2
# ran no ok run, so it has no row)
"$CONTEND" fleet summary --db "$admin" -w selftest --format json >"$T/summary" 2>"$T/summary.err"
got=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(' '.join('%s/%s/%s/%s' % (r['hostname'], r['machine_id'], r['label'], r['uuid']) for r in d['rows']))" "$T/summary" 2>&1)
want="fleet1/$(cat "$T/machine-id1")/fleet-test/$u"
[ "$got" = "$want" ] && echo "ok 8 - contend fleet summary: fleet1's session under its machine" ||
	echo "not ok 8 - contend fleet summary: fleet1's session under its machine # got '$got' want '$want' $(head -c 300 "$T/summary.err")"
# the suite file went to fleet2 and away again; its text is in the store
# under each job's tag, and each job's report came back as fleet2.JOB.json
st=$(q "select count(*) from suites where tag like 'fleet2.ini/%' and text like '%[fails]%command = false%'")
if [ "$st" = 2 ] && [ -s "$T/results/fleet2.ok.json" ] && [ -s "$T/results/fleet2.fails.json" ] &&
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["workload"] != "cmd")' "$T/results/fleet2.ok.json" &&
	! ls /var/tmp/contend-fleet-*.d >/dev/null 2>&1; then
	echo "ok 9 - fleet2's suite file: in the store under each job's tag, each job's report back, nothing left"
else
	echo "not ok 9 - fleet2's suite file: in the store under each job's tag, each job's report back, nothing left # suites $st; $(ls "$T/results" 2>&1 | tr '\n' ' '); $(ls -d /var/tmp/contend-fleet-*.d 2>&1)"
fi
