# Emulated cluster on one machine (sourced by tests/cluster/*.sh).
#
# Each host is a network namespace whose eth0 is one end of a veth pair; the
# other ends are ports of a bridge that lives in a namespace of its own, so the
# machine's own namespace is never touched and no route leaves the testbed.
# Every link is shaped in both directions by tbf (host egress on eth0, host
# ingress as the egress of its bridge port) to the rate given for that host.
# Processes started in a host also get their own UTS namespace carrying the
# host's name, so MPI_Get_processor_name tells the hosts apart.
#
#   testbed_up RATE...        one host per rate (tc syntax: 1gbit, 200mbit)
#   testbed_exec I CMD...     runs CMD in host I (0-based) under its name
#   testbed_mpirun HOSTS MPIRUN_ARGS...
#                             mpirun from the first of HOSTS (indices, comma
#                             separated, TESTBED_SLOTS ranks each, default 1:
#                             ranks 0..SLOTS-1 on the first), TCP over the
#                             testbed and shared memory within a host;
#                             TESTBED_PRELOAD, when set, is a library preloaded
#                             into the ranks (wait_sleep.so); TESTBED_TIMEOUT
#                             limits its time
#   testbed_down              kills what runs in the testbed, deletes it
#   testbed_leftovers         prints what of this testbed still exists
#   testbed_bench_up NAME RATE...
#                             for a benchmark script (after tests/lib.sh):
#                             takes the testbed down on exit, preloads
#                             wait_sleep.so (built when missing) and brings
#                             the testbed up, or exits 1 saying why not
#
# Names: namespaces "$TESTBED_PREFIX-hI" and "$TESTBED_PREFIX-br", host names
# "nodeI" (or the I-th word of TESTBED_HOSTNAMES, exported so that the
# launcher's agent names the hosts alike), addresses $TESTBED_NET.(I+1)/24. TESTBED_PREFIX defaults to one
# unique to this shell, so testbeds of concurrent runs never meet.

TESTBED_NET=${TESTBED_NET:-10.77.0}
TESTBED_PREFIX=${TESTBED_PREFIX:-cstb$$}
TESTBED_BURST=${TESTBED_BURST:-32kb}
# Jumbo frames: a sixth of the packets to shape, switch and deliver, which
# keeps a busy machine from falling behind the configured rates.
TESTBED_MTU=${TESTBED_MTU:-9000}
# Queue length of each shaper, as the delay a full queue adds: long enough
# that TCP is paced by the queue instead of losing packets.
TESTBED_QUEUE=${TESTBED_QUEUE:-100ms}
TESTBED_PRELOAD=${TESTBED_PRELOAD:-}
TESTBED_TIMEOUT=${TESTBED_TIMEOUT:-600} # seconds one mpirun may take
TESTBED_NICE=${TESTBED_NICE:-0}         # niceness of mpirun and all it starts
TESTBED_SLOTS=${TESTBED_SLOTS:-1}       # ranks per host
TESTBED_HOSTS=0
TESTBED_RATES=()
TESTBED_INODES=() # of the namespaces, to find processes left in them later
export TESTBED_NET TESTBED_PREFIX

testbed_ns() { echo "$TESTBED_PREFIX-h$1"; }
testbed_bridge_ns() { echo "$TESTBED_PREFIX-br"; }
testbed_addr() { echo "$TESTBED_NET.$(($1 + 1))"; }
testbed_hostname() {
    local names
    read -r -a names <<< "${TESTBED_HOSTNAMES:-}"
    echo "${names[$1]:-node$1}"
}
testbed_subnet() { echo "$TESTBED_NET.0/24"; }

# Host index of an address of this testbed whose namespace exists; fails
# for anything else.
testbed_index_of() { # ADDRESS
    local last=${1##*.}
    case "$1" in "$TESTBED_NET".*) ;; *) return 1 ;; esac
    case "$last" in '' | *[!0-9]*) return 1 ;; esac
    [ "$last" -ge 1 ] || return 1
    ip netns list | grep -q "^$(testbed_ns $((last - 1)))\( \|\$\)" || return 1
    echo $((last - 1))
}

# Why namespaces cannot be used here, or nothing when they can.
testbed_unavailable() {
    [ "$(id -u)" = 0 ] || { echo "not root"; return; }
    local t
    for t in ip tc unshare; do
        command -v "$t" > /dev/null || { echo "$t not installed"; return; }
    done
    local probe="$TESTBED_PREFIX-probe"
    if ! ip netns add "$probe" 2> /dev/null; then
        echo "the kernel refuses network namespaces"; return
    fi
    local why=""
    if ! ip -n "$probe" link add p0 type veth peer name p1 2> /dev/null; then
        why="veth is not available"
    elif ! ip -n "$probe" link set p0 up 2> /dev/null \
        || ! tc -n "$probe" qdisc add dev p0 root tbf rate 1mbit burst 32kb latency 10ms 2> /dev/null; then
        why="the tbf qdisc is not available"
    elif ! ip netns exec "$probe" unshare --uts true 2> /dev/null; then
        why="UTS namespaces are not available"
    fi
    ip netns del "$probe" 2> /dev/null
    echo "$why"
}

# Shapes one direction of a link: tbf on the egress of DEV inside NS.
testbed_shape() { # NS DEV RATE
    tc -n "$1" qdisc replace dev "$2" root tbf rate "$3" burst "$TESTBED_BURST" \
        latency "$TESTBED_QUEUE"
}

testbed_remember() { # NS
    TESTBED_INODES+=("$(stat -L -c %i "/run/netns/$1")")
}

testbed_up() { # RATE...
    local br i ns
    TESTBED_RATES=("$@")
    TESTBED_HOSTS=$#
    br=$(testbed_bridge_ns)
    ip netns add "$br" || return 1
    testbed_remember "$br"
    ip -n "$br" link add br0 mtu "$TESTBED_MTU" type bridge || return 1
    ip -n "$br" link set br0 up || return 1
    for ((i = 0; i < TESTBED_HOSTS; i++)); do
        ns=$(testbed_ns "$i")
        ip netns add "$ns" || return 1
        testbed_remember "$ns"
        ip -n "$br" link add "p$i" mtu "$TESTBED_MTU" type veth \
            peer name eth0 mtu "$TESTBED_MTU" netns "$ns" || return 1
        ip -n "$br" link set "p$i" master br0 up || return 1
        ip -n "$ns" link set lo up || return 1
        ip -n "$ns" addr add "$(testbed_addr "$i")/24" dev eth0 || return 1
        ip -n "$ns" link set eth0 up || return 1
        testbed_shape "$ns" eth0 "${TESTBED_RATES[i]}" || return 1
        testbed_shape "$br" "p$i" "${TESTBED_RATES[i]}" || return 1
        # Round trips separated by a pause must not restart from a small
        # congestion window, or the rate seen depends on the pause.
        ip netns exec "$ns" sysctl -qw net.ipv4.tcp_slow_start_after_idle=0 || return 1
    done
}

testbed_bench_up() { # NAME RATE...
    local name=$1 why
    shift
    trap 'testbed_down; rm -rf "$TMPD"' EXIT
    trap 'exit 130' INT TERM
    why=$(testbed_unavailable)
    [ -z "$why" ] || { echo "$name: cannot build the cluster: $why" >&2; exit 1; }
    export TESTBED_PRELOAD="$BUILD/tests/cluster/wait_sleep.so"
    [ -f "$TESTBED_PRELOAD" ] || make -C "$TOP" -s BUILD="$BUILD" "$TESTBED_PRELOAD" >&2
    testbed_up "$@" || exit 1
}

testbed_exec() { # I CMD...
    local i=$1; shift
    ip netns exec "$(testbed_ns "$i")" unshare --uts \
        sh -c 'hostname "$0" && exec "$@"' "$(testbed_hostname "$i")" "$@"
}

TESTBED_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Open MPI over the testbed only: TCP on its subnet for both MPI traffic and
# the daemons' wire-up, daemons started in the other hosts by agent.sh, no
# binding (each namespace would bind its rank to the same first core), and
# waiting ranks that yield the processor instead of spinning on it.
testbed_mpirun() { # HOSTS MPIRUN_ARGS...
    local hosts=$1 list="" i first preload=()
    shift
    [ -n "$TESTBED_PRELOAD" ] && preload=(-x "LD_PRELOAD=$TESTBED_PRELOAD")
    first=${hosts%%,*}
    for i in ${hosts//,/ }; do list="$list${list:+,}$(testbed_addr "$i"):$TESTBED_SLOTS"; done
    testbed_exec "$first" nice -n "$TESTBED_NICE" \
        timeout -k 5 "$TESTBED_TIMEOUT" mpirun --allow-run-as-root \
        --host "$list" --bind-to none \
        --mca plm_rsh_agent "$TESTBED_DIR/agent.sh" --mca plm_rsh_no_tree_spawn 1 \
        --mca btl tcp,vader,self --mca pml ob1 \
        --mca btl_tcp_if_include "$(testbed_subnet)" \
        --mca oob_tcp_if_include "$(testbed_subnet)" \
        --mca mpi_yield_when_idle 1 "${preload[@]}" "$@"
}

# Namespaces of this testbed that exist now.
testbed_namespaces() {
    ip netns list 2> /dev/null | awk -v p="$TESTBED_PREFIX-" 'index($1, p) == 1 {print $1}'
}

testbed_down() {
    local ns pids signal
    for signal in TERM KILL; do
        pids=$(testbed_pids)
        [ -n "$pids" ] || break
        kill "-$signal" $pids 2> /dev/null
        [ "$signal" = TERM ] && sleep 1
    done
    for ns in $(testbed_namespaces); do
        ip netns del "$ns" 2> /dev/null
    done
    TESTBED_HOSTS=0
    return 0
}

# Processes in any namespace this testbed created, whether or not the
# namespace still has its name.
testbed_pids() {
    local link pid inode ns inodes=("${TESTBED_INODES[@]}")
    for ns in $(testbed_namespaces); do
        inodes+=("$(stat -L -c %i "/run/netns/$ns" 2> /dev/null)")
    done
    [ ${#inodes[@]} -gt 0 ] || return 0
    for link in /proc/[0-9]*/ns/net; do
        inode=$(readlink "$link" 2> /dev/null) || continue
        inode=${inode#net:[}
        inode=${inode%]}
        pid=${link#/proc/}
        pid=${pid%%/*}
        case " ${inodes[*]} " in *" $inode "*) echo "$pid" ;; esac
    done
}

# What is left of this testbed: namespaces, processes in them, and links of
# its names in the machine's own namespace (there should never be any).
testbed_leftovers() {
    local ns pid
    for ns in $(testbed_namespaces); do echo "namespace $ns"; done
    for pid in $(testbed_pids); do
        echo "process $pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null)"
    done
    ip -o link show 2> /dev/null | awk -F': ' '$2 ~ /^(br0|p[0-9]+)(@|$)/ {print "link " $2}'
}
