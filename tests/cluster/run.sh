#!/usr/bin/env bash
# make check-cluster: the suite on an emulated cluster of 4 hosts whose links
# are shaped to known rates (testbed.sh), one rank per host, TCP between them.
# Checks that each rank runs on a host of its own, that alltoall/all,
# always/all, osu_bw and osu_latency see the slow links where they are, and
# that the CPM models (cpm/model, cpm/prediction) recover the injected rate of
# every pair within 10%. Prints TAP lines and ends with
# "N passed, N failed[, N skipped]"; needs root, and skips everything (saying
# why in that line) where network namespaces cannot be made. A part whose
# program is not built fails (make check-cluster builds them all). Leaves
# nothing behind, and checks it. ok, not_ok, skip and summary are lib.sh's.
#
# CLUSTER_RATES overrides the rates of the 4 hosts (tc syntax); the checks
# take host 0 and 1 as the fast pair and hosts 2 and 3 as the slow one.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/testbed.sh"
. "$here/checks.sh"

read -r -a RATES <<< "${CLUSTER_RATES:-200mbit 200mbit 50mbit 50mbit}"
FAST=0,1 SLOW=2,3 ALL=0,1,2,3
TESTBED_TIMEOUT=${TEST_TIMEOUT:-120}
RESULTS="$BUILD/tests/cluster"
mkdir -p "$RESULTS"

# The parts of this test, each one function in checks.sh.
PARTS=(check_hosts check_osu_latency check_osu_bw check_alltoall check_aller check_always
       check_cpm_hockney check_cpm_lmo check_cpm_hier check_cpm_matmul)

trap 'testbed_down; rm -rf "$TMPD"' EXIT
trap 'exit 130' INT TERM
why=$(testbed_unusable)
if [ -n "$why" ]; then
    for part in "${PARTS[@]}"; do skip "${part#check_}" "$why"; done
    summary "emulated cluster skipped: $why"
    exit
fi

links_before=$(ip -o link show | awk -F': ' '{print $2}')
routes_before=$(ip route show)

export TESTBED_PRELOAD="$BUILD/tests/cluster/wait_sleep.so"
if [ ! -f "$TESTBED_PRELOAD" ]; then
    not_ok "wait_sleep.so is built" "missing $TESTBED_PRELOAD (make check-cluster builds it)"
    summary
    exit
fi
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
if testbed_up "${RATES[@]}"; then
    ok "testbed of ${#RATES[@]} hosts: ${RATES[*]}"
else
    not_ok "testbed of ${#RATES[@]} hosts: ${RATES[*]}"
    summary
    exit
fi

for part in "${PARTS[@]}"; do "$part"; done
cpm_table

testbed_down
left=$(testbed_leftovers)
expect '[ -z "$left" ]' "no namespace, link or process of the testbed is left"
[ -n "$left" ] && printf '%s\n' "$left" | sed 's/^/#   /'
links_after=$(ip -o link show | awk -F': ' '{print $2}')
expect '[ "$links_after" = "$links_before" ]' "the machine's own links are as they were"
expect '[ "$(ip route show)" = "$routes_before" ]' "the machine's own routes are as they were"
summary
