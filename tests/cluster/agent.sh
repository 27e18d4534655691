#!/usr/bin/env bash
# Remote shell for Open MPI's rsh launcher inside the emulated cluster
# (plm_rsh_agent): "agent.sh [OPTIONS] HOST COMMAND..." runs COMMAND, a shell
# command line as ssh would pass it, in host HOST of the testbed named by
# TESTBED_PREFIX and TESTBED_NET (exported by testbed.sh). HOST must be one
# of that testbed's addresses; anything else is refused.
. "$(dirname "${BASH_SOURCE[0]}")/testbed.sh"
while [ $# -gt 0 ]; do
    case "$1" in -*) shift ;; *) break ;; esac
done
host=${1:-}
shift
index=$(testbed_index_of "$host") || {
    echo "agent.sh: $host is not a host of testbed $TESTBED_PREFIX" >&2
    exit 255
}
testbed_exec "$index" sh -c "$*"
