#!/bin/sh
# The full fault campaign (tests/faults/campaign.sh): 17 injections of each
# of SIGINT, SIGTERM and SIGKILL into each of three kinds of session - 51
# per signal -, 17 disks filling up under the work directory and 17 under
# the store, 17 sessions under memory pressure, then two and eight sessions
# on one store; prints the counts of what was left behind (all 0 is the
# target). Root. About 40 minutes; FAULTS="disk memory" runs only those
# parts (see the campaign's header).
# usage: bench/faults.sh [N]   (CONTEND=path to use another binary)
set -eu
cd "$(dirname "$0")/.."
[ -x "${CONTEND:-build/contend}" ] || make build >/dev/null
exec sh tests/faults/campaign.sh "${CONTEND:-$PWD/build/contend}" "${1:-17}"
