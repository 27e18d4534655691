# Emulated cluster on one machine (sourced by tests/cluster/*.sh).
#
# Each host is a network namespace whose eth0 is one end of a veth pair; the
# other ends are ports of a bridge that lives in a namespace of its own, so the
# machine's own namespace is never touched and no route leaves the testbed.
# Every link is shaped in both directions by tbf (host egress on eth0, host
# ingress as the egress of its bridge port) to the rate given for that host.
# Processes started in a host also get their own UTS namespace carrying the
# host's name, so MPI_Get_processor_name tells the hosts apart.
# With TESTBED_SWITCHES=2 the first half of the hosts (0..N/2-1) hang on
# bridge br0 and the rest on br1, and the two bridges are joined by a trunk,
# a veth pair shaped in both directions to TESTBED_TRUNK (unshaped when
# empty): every stream between the halves shares it.
#
#   testbed_up RATE...        one host per rate (tc syntax: 1gbit, 200mbit);
#                             TESTBED_SHAPE=affine shapes with a peak rate
#                             (no unshaped burst, cost affine in the size)
#   testbed_trunk RATE        reshapes the trunk of a testbed of two switches
#   testbed_slow_route I J RATE
#                             after testbed_up: traffic between hosts I and J
#                             (both ways) limited to RATE, all other traffic
#                             of I and J at their link rates; again for the
#                             same pair, it changes the rate
#   testbed_switch_of I       0 or 1: the switch host I hangs on
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
# Names: namespaces "$TESTBED_PREFIX-hI" and "$TESTBED_PREFIX-br" (which
# holds both bridges and the trunk ends trunk0 on br0, trunk1 on br1), host names
# "nodeI" (or the I-th word of TESTBED_HOSTNAMES, exported so that the
# launcher's agent names the hosts alike), addresses $TESTBED_NET.(I+1)/24. TESTBED_PREFIX defaults to one
# unique to this shell, so testbeds of concurrent runs never meet.

TESTBED_NET=${TESTBED_NET:-10.77.0}
TESTBED_PREFIX=${TESTBED_PREFIX:-cstb$$}
TESTBED_BURST=${TESTBED_BURST:-32kb}
# burst (default): tbf lets TESTBED_BURST through at once, so a message that
# fits in it costs almost nothing and larger ones pay the rate: the cost is
# not affine in the size. affine: the bucket is drained at a peak rate 1%
# above the rate too, so every frame waits its turn and a message of M bytes
# costs about M / rate from the first byte (frames of 1500 bytes unless
# TESTBED_MTU says otherwise: with a peak rate, a frame is the unit of
# release).
TESTBED_SHAPE=${TESTBED_SHAPE:-burst}
case "$TESTBED_SHAPE" in
    burst) TESTBED_MTU=${TESTBED_MTU:-9000} ;;
    affine) TESTBED_MTU=${TESTBED_MTU:-1500} ;;
esac
# Jumbo frames (burst): a sixth of the packets to shape, switch and deliver,
# which keeps a busy machine from falling behind the configured rates.
# Queue length of each shaper, as the delay a full queue adds: long enough
# that TCP is paced by the queue instead of losing packets.
TESTBED_QUEUE=${TESTBED_QUEUE:-100ms}
TESTBED_PRELOAD=${TESTBED_PRELOAD:-}
TESTBED_TIMEOUT=${TESTBED_TIMEOUT:-600} # seconds one mpirun may take
TESTBED_NICE=${TESTBED_NICE:-0}         # niceness of mpirun and all it starts
TESTBED_SLOTS=${TESTBED_SLOTS:-1}       # ranks per host
TESTBED_SWITCHES=${TESTBED_SWITCHES:-1} # 1, or 2 joined by a trunk
TESTBED_TRUNK=${TESTBED_TRUNK:-}        # rate of the trunk, both ways
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

# Why the tests cannot run the suite here, or nothing: namespaces, and
# Open MPI's launcher for a build with Open MPI (MPICC names the compiler).
testbed_unusable() {
    local why
    why=$(testbed_unavailable)
    if [ -z "$why" ] && ! mpirun --version 2>&1 | grep -qi 'open mpi'; then
        why="the launcher needs Open MPI's mpirun"
    fi
    case "${MPICC:-mpicc}" in *mpich*) why="built with MPICH; the launcher is Open MPI's" ;; esac
    echo "$why"
}

# Shapes one direction of a link: tbf on the egress of DEV inside NS. The
# fixed handle is where testbed_slow_route hangs its classes.
testbed_shape() { # NS DEV RATE
    local peak=()
    if [ "$TESTBED_SHAPE" = affine ]; then
        local bytes
        bytes=$(testbed_rate_bytes "$3") && [ "$bytes" -gt 0 ] \
            || { echo "testbed_shape: bad rate $3" >&2; return 1; }
        peak=(peakrate "$((bytes + (bytes + 99) / 100))bps" mtu $((TESTBED_MTU + 14)))
    fi
    tc -n "$1" qdisc replace dev "$2" root handle 1: tbf rate "$3" burst "$TESTBED_BURST" \
        "${peak[@]}" latency "$TESTBED_QUEUE"
}

# A rate in tc syntax (1gbit, 200mbit, 2mbps, a bare number of bits) in
# bytes per second; fails on anything else.
testbed_rate_bytes() { # RATE
    awk -v r="$1" 'BEGIN {
        u = tolower(r); sub(/^[0-9]+(\.[0-9]*)?/, "", u)
        if (r !~ /^[0-9]/) exit 1
        k = 1000; ki = 1024
        f[""] = f["bit"] = 1 / 8; f["kbit"] = k / 8; f["mbit"] = k^2 / 8
        f["gbit"] = k^3 / 8; f["tbit"] = k^4 / 8; f["kibit"] = ki / 8
        f["mibit"] = ki^2 / 8; f["gibit"] = ki^3 / 8; f["tibit"] = ki^4 / 8
        f["bps"] = 1; f["kbps"] = k; f["mbps"] = k^2; f["gbps"] = k^3
        f["tbps"] = k^4; f["kibps"] = ki; f["mibps"] = ki^2; f["gibps"] = ki^3
        f["tibps"] = ki^4
        if (!(u in f)) exit 1
        printf "%.0f\n", (r + 0) * f[u]
    }'
}

# Switch (0 or 1) of host I among N hosts spread over TESTBED_SWITCHES.
testbed_half() { # I N
    if [ "$TESTBED_SWITCHES" = 2 ] && [ "$1" -ge $(($2 / 2)) ]; then echo 1; else echo 0; fi
}

# The switch host I hangs on, as the testbed has it (so it also answers
# from a shell that did not bring the testbed up).
testbed_switch_of() { # I
    local master
    master=$(ip -n "$(testbed_bridge_ns)" -o link show "p$1" 2> /dev/null) || return 1
    case "$master" in *" master br1 "*) echo 1 ;; *) echo 0 ;; esac
}

testbed_trunk() { # RATE
    local br
    br=$(testbed_bridge_ns)
    ip -n "$br" link show trunk0 > /dev/null 2>&1 \
        || { echo "testbed_trunk: the testbed has no trunk (TESTBED_SWITCHES=2)" >&2; return 1; }
    testbed_shape "$br" trunk0 "$1" && testbed_shape "$br" trunk1 "$1"
}

# Caps the traffic on the egress of DEV in NS whose address FIELD (src or
# dst) is ADDR, host PEER's, to RATE. The link's tbf stays the root and
# shapes all the traffic as before, so the link rate and its bound on the
# sum of what crosses it do not change; an htb beneath it only sorts the
# packets, into a class at the link rate (the default) or one per slow
# route at the route's rate. Each class queues what its rate carries in
# TESTBED_QUEUE, and bursts TESTBED_BURST, as the tbf does for the link.
testbed_route_class() { # NS DEV FIELD ADDR PEER RATE
    local ns=$1 dev=$2 field=$3 addr=$4 peer=$5 rate=$6 tbf link burst lat bytes minor
    tbf=$(tc -n "$ns" -j qdisc show dev "$dev") || return 1
    link=$(sed -n 's/.*"kind":"tbf","handle":"1:"[^{]*{"rate":\([0-9]*\).*/\1/p' <<< "$tbf")
    burst=$(sed -n 's/.*"kind":"tbf","handle":"1:"[^{]*{[^}]*"burst":\([0-9]*\).*/\1/p' <<< "$tbf")
    lat=$(sed -n 's/.*"kind":"tbf","handle":"1:"[^{]*{[^}]*"lat":\([0-9]*\).*/\1/p' <<< "$tbf")
    [ -n "$link" ] && [ -n "$burst" ] && [ -n "$lat" ] \
        || { echo "testbed_slow_route: no link shaper on $dev in $ns" >&2; return 1; }
    bytes=$(testbed_rate_bytes "$rate") && [ "$bytes" -gt 0 ] \
        || { echo "testbed_slow_route: bad rate $rate" >&2; return 1; }
    # A quantum of one frame: the one htb derives from these rates exceeds
    # its own limit, and the classes take turns frame by frame anyway.
    local class=(htb burst "$TESTBED_BURST" cburst "$TESTBED_BURST" quantum $((TESTBED_MTU + 14)))
    case "$tbf" in
        *'"kind":"htb","handle":"10:"'*) ;;
        *)
            tc -n "$ns" qdisc add dev "$dev" parent 1:1 handle 10: htb default 1 || return 1
            tc -n "$ns" class add dev "$dev" parent 10: classid 10:1 "${class[@]}" \
                rate "${link}bps" ceil "${link}bps" || return 1
            tc -n "$ns" qdisc add dev "$dev" parent 10:1 handle 101: bfifo \
                limit $((link * lat / 1000000 + burst)) || return 1
            ;;
    esac
    minor=$(printf %x $((peer + 2)))
    tc -n "$ns" class replace dev "$dev" parent 10: classid "10:$minor" "${class[@]}" \
        rate "$rate" ceil "$rate" || return 1
    tc -n "$ns" qdisc replace dev "$dev" parent "10:$minor" handle "$(printf %x $((peer + 0x200))):" \
        bfifo limit $((bytes * lat / 1000000 + burst)) || return 1
    tc -n "$ns" filter del dev "$dev" parent 10: prio $((peer + 1)) 2> /dev/null
    tc -n "$ns" filter add dev "$dev" parent 10: protocol ip prio $((peer + 1)) \
        u32 match ip "$field" "$addr/32" flowid "10:$minor"
}

testbed_slow_route() { # I J RATE
    local i=$1 j=$2 rate=$3 br
    br=$(testbed_bridge_ns)
    [ "$i" != "$j" ] || { echo "testbed_slow_route: a route joins two hosts" >&2; return 1; }
    testbed_index_of "$(testbed_addr "$i")" > /dev/null && testbed_index_of "$(testbed_addr "$j")" > /dev/null \
        || { echo "testbed_slow_route: no host $i or $j in testbed $TESTBED_PREFIX" >&2; return 1; }
    testbed_route_class "$(testbed_ns "$i")" eth0 dst "$(testbed_addr "$j")" "$j" "$rate" \
        && testbed_route_class "$(testbed_ns "$j")" eth0 dst "$(testbed_addr "$i")" "$i" "$rate" \
        && testbed_route_class "$br" "p$i" src "$(testbed_addr "$j")" "$j" "$rate" \
        && testbed_route_class "$br" "p$j" src "$(testbed_addr "$i")" "$i" "$rate"
}

testbed_remember() { # NS
    TESTBED_INODES+=("$(stat -L -c %i "/run/netns/$1")")
}

testbed_up() { # RATE...
    local br i ns s
    case "$TESTBED_SHAPE" in
        burst | affine) ;;
        *) echo "testbed_up: TESTBED_SHAPE is burst or affine, not $TESTBED_SHAPE" >&2; return 1 ;;
    esac
    case "$TESTBED_SWITCHES" in
        1) ;;
        2) [ $# -ge 2 ] || { echo "testbed_up: two switches need two hosts" >&2; return 1; } ;;
        *) echo "testbed_up: TESTBED_SWITCHES is 1 or 2, not $TESTBED_SWITCHES" >&2; return 1 ;;
    esac
    TESTBED_RATES=("$@")
    TESTBED_HOSTS=$#
    br=$(testbed_bridge_ns)
    ip netns add "$br" || return 1
    testbed_remember "$br"
    for ((s = 0; s < TESTBED_SWITCHES; s++)); do
        ip -n "$br" link add "br$s" mtu "$TESTBED_MTU" type bridge || return 1
        ip -n "$br" link set "br$s" up || return 1
    done
    if [ "$TESTBED_SWITCHES" = 2 ]; then
        ip -n "$br" link add trunk0 mtu "$TESTBED_MTU" type veth \
            peer name trunk1 mtu "$TESTBED_MTU" || return 1
        ip -n "$br" link set trunk0 master br0 up || return 1
        ip -n "$br" link set trunk1 master br1 up || return 1
        if [ -n "$TESTBED_TRUNK" ]; then testbed_trunk "$TESTBED_TRUNK" || return 1; fi
    fi
    for ((i = 0; i < TESTBED_HOSTS; i++)); do
        ns=$(testbed_ns "$i")
        ip netns add "$ns" || return 1
        testbed_remember "$ns"
        ip -n "$br" link add "p$i" mtu "$TESTBED_MTU" type veth \
            peer name eth0 mtu "$TESTBED_MTU" netns "$ns" || return 1
        ip -n "$br" link set "p$i" master "br$(testbed_half "$i" "$TESTBED_HOSTS")" up || return 1
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
# its names (host ports, bridges, trunk ends) in the machine's own namespace
# (there should never be any).
testbed_leftovers() {
    local ns pid
    for ns in $(testbed_namespaces); do echo "namespace $ns"; done
    for pid in $(testbed_pids); do
        echo "process $pid $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null)"
    done
    ip -o link show 2> /dev/null | awk -F': ' '$2 ~ /^(br[01]|p[0-9]+|trunk[01])(@|$)/ {print "link " $2}'
}
