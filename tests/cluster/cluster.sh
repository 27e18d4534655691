#!/usr/bin/env bash
# The emulated cluster of tests/cluster by hand (as root), for trying the
# suite on it outside the tests:
#   cluster.sh up [RATE...]           one host per rate (default: 4 hosts,
#                                     200mbit 200mbit 50mbit 50mbit);
#                                     TESTBED_SWITCHES=2 TESTBED_TRUNK=RATE
#                                     puts the halves on two switches
#   cluster.sh route I J RATE         traffic between hosts I and J at RATE
#   cluster.sh trunk RATE             reshapes the trunk between the switches
#   cluster.sh mpirun HOSTS ARGS...   mpirun over hosts HOSTS (e.g. 0,2),
#                                     one rank each
#   cluster.sh exec I COMMAND...      a command in host I (ip, tc, iperf3)
#   cluster.sh status                 namespaces, shapers, processes
#   cluster.sh down                   removes all of it
# TESTBED_PREFIX (default "commsweep") names the testbed, so that separate
# invocations find the same one; TESTBED_PRELOAD=PATH/wait_sleep.so makes
# waiting ranks sleep (see README.md).
set -u
export TESTBED_PREFIX=${TESTBED_PREFIX:-commsweep}
. "$(dirname "${BASH_SOURCE[0]}")/testbed.sh"

usage() {
    sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
    exit 2
}

[ $# -gt 0 ] || usage
command=$1
shift
case "$command" in
    up)
        why=$(testbed_unavailable)
        [ -z "$why" ] || { echo "cluster.sh: cannot build the cluster: $why" >&2; exit 1; }
        [ -z "$(testbed_namespaces)" ] || { echo "cluster.sh: $TESTBED_PREFIX is up already" >&2; exit 1; }
        [ $# -gt 0 ] || set -- 200mbit 200mbit 50mbit 50mbit
        testbed_up "$@" || { testbed_down; exit 1; }
        for ((i = 0; i < $#; i++)); do
            echo "host $i: $(testbed_hostname "$i") $(testbed_addr "$i") namespace $(testbed_ns "$i") link ${TESTBED_RATES[i]} switch $(testbed_switch_of "$i")"
        done
        ;;
    route)
        [ $# = 3 ] || usage
        testbed_slow_route "$@"
        ;;
    trunk)
        [ $# = 1 ] || usage
        testbed_trunk "$1"
        ;;
    mpirun)
        [ $# -ge 2 ] || usage
        testbed_mpirun "$@"
        ;;
    exec)
        [ $# -ge 2 ] || usage
        testbed_exec "$@"
        ;;
    status)
        for ns in $(testbed_namespaces); do
            echo "$ns:"
            tc -n "$ns" qdisc show | grep tbf | sed 's/^/  /'
            for dev in $(ip -n "$ns" -o link show | awk -F'[:@]' '{print $2}'); do
                tc -n "$ns" class show dev "$dev" | awk -v d="$dev" '/htb/ {
                    for (k = 1; k < NF; k++) if ($k == "rate") r = $(k + 1)
                    print "  htb class " $3 " dev " d " rate " r }'
            done
        done
        testbed_leftovers | grep -v '^namespace'
        exit 0
        ;;
    down)
        testbed_down
        left=$(testbed_leftovers)
        [ -z "$left" ] || { echo "$left" >&2; exit 1; }
        ;;
    *) usage ;;
esac
