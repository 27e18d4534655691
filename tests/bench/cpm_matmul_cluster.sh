#!/usr/bin/env bash
# The heterogeneous parallel matrix product (cpm/matmul, seed 5.4) on the
# emulated cluster of tests/cluster (as root): 4 hosts with unequal links
# (CLUSTER_RATES, default 200mbit 200mbit 50mbit 50mbit) and unequal
# processors: each host's processes run in a CPU cgroup of their own whose
# quota is CPU_LIMITS percent of one core (default - - 20 10; "-" for
# none), so dgemm runs at unequal speeds and matmul gives the slow hosts
# fewer rows. Builds a Hockney model on the hosts (under the same limits),
# then times the product with native collectives and the model-based sets
# (SETS) for each order (ORDERS). Prints matmul's output and a table of
# the phases in ms.
#   sudo BUILD=build tests/bench/cpm_matmul_cluster.sh
#   sudo ORDERS="256 512" CPU_LIMITS="- - - -" tests/bench/cpm_matmul_cluster.sh
# REPS (products per set), HOCKNEY_SET (model's message set and precision)
# override the defaults below. Takes several minutes; run it on a quiet machine.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
read -r -a RATES <<< "${CLUSTER_RATES:-200mbit 200mbit 50mbit 50mbit}"
read -r -a LIMITS <<< "${CPU_LIMITS:-- - 20 10}"
ORDERS=${ORDERS:-256 512 1024}
SETS=${SETS:-native,Hockney_dfs_binomial_min,Hockney_dfs_binomial_max,Hockney_ucs_binomial_min}
REPS=${REPS:-3}
HOCKNEY_SET=${HOCKNEY_SET:--m 1024 -M 1048576 -S 131072 -r 3 -R 20}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-900}
ALL=0,1,2,3
W=$TMPD
declare -a CGDIR=()
WATCH=

# The cpu controller's folder (cgroup v1 or v2), or nothing.
cpu_root() {
    if [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
        echo /sys/fs/cgroup/cpu
    elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2> /dev/null; then
        echo /sys/fs/cgroup
    fi
}

# A cgroup per host with its quota, in CGDIR[host].
limits_up() {
    local root i dir
    root=$(cpu_root)
    [ -n "$root" ] || { echo "cpm_matmul_cluster: no cpu cgroup controller: no CPU limits" >&2; return 0; }
    [ "$root" = /sys/fs/cgroup ] && echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2> /dev/null
    for i in 0 1 2 3; do
        [ "${LIMITS[i]:--}" = - ] && continue
        dir="$root/$TESTBED_PREFIX-h$i"
        mkdir -p "$dir" || return 1
        CGDIR[i]=$dir
        if [ -f "$dir/cpu.cfs_quota_us" ]; then
            echo 100000 > "$dir/cpu.cfs_period_us" && echo $((LIMITS[i] * 1000)) > "$dir/cpu.cfs_quota_us"
        else
            echo "$((LIMITS[i] * 1000)) 100000" > "$dir/cpu.max"
        fi || return 1
    done
}

# Moves every process of a limited host into its cgroup, again and again,
# until killed. (The ranks cannot join it themselves: ip netns exec mounts
# a /sys of its own, without the cgroup folders.) A process is caught
# within 0.1 s of its start, long before the dgemm probe: the MPI daemons
# and ranks take longer than that to start.
limit_watch() {
    local i pid
    local -a inodes
    for i in "${!CGDIR[@]}"; do inodes[i]=$(stat -L -c %i "/run/netns/$(testbed_ns "$i")"); done
    while :; do
        for i in "${!CGDIR[@]}"; do
            for pid in $(find /proc/[0-9]*/ns -maxdepth 1 -name net -lname "net:\[${inodes[i]}\]" 2> /dev/null |
                cut -d/ -f3); do
                grep -qx "$pid" "${CGDIR[i]}/cgroup.procs" 2> /dev/null ||
                    echo "$pid" > "${CGDIR[i]}/cgroup.procs" 2> /dev/null
            done
        done
        sleep 0.1
    done
}

limits_down() {
    local dir
    [ -n "${WATCH:-}" ] && kill "$WATCH" 2> /dev/null && wait "$WATCH" 2> /dev/null
    for dir in "${CGDIR[@]}"; do rmdir "$dir" 2> /dev/null; done
    return 0
}

trap 'testbed_down; limits_down; rm -rf "$TMPD"' EXIT
trap 'exit 130' INT TERM
why=$(testbed_unavailable)
[ -z "$why" ] || { echo "cpm_matmul_cluster: cannot build the cluster: $why" >&2; exit 1; }
export TESTBED_PRELOAD="$BUILD/tests/cluster/wait_sleep.so"
[ -f "$TESTBED_PRELOAD" ] || make -C "$TOP" -s BUILD="$BUILD" -f Makefile -f tests/cluster/module.mk \
    "$TESTBED_PRELOAD" >&2
testbed_up "${RATES[@]}" || exit 1
limits_up || { echo "cpm_matmul_cluster: cannot set the CPU limits" >&2; exit 1; }
if [ ${#CGDIR[@]} -gt 0 ]; then
    limit_watch &
    WATCH=$!
fi
echo "# matmul on 4 emulated hosts, links ${RATES[*]}, CPU limits ${LIMITS[*]} (% of a core) ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

testbed_mpirun "$ALL" "$BUILD/cpm/model" -C Hockney -o "$W/Hockney.model" $HOCKNEY_SET -p > "$W/h.log" ||
    { echo "cpm_matmul_cluster: model -C Hockney failed" >&2; cat "$W/h.log" >&2; exit 1; }
grep '^# Hockney' "$W/h.log" || true
model=()
case "$SETS" in *_*) model=(-i "$W/Hockney.model") ;; esac # only model-based sets read it
testbed_mpirun "$ALL" "$BUILD/cpm/matmul" -N "${ORDERS// /,}" -O "$SETS" "${model[@]}" \
    -r "$REPS" -t 0.5 > "$W/m.out" 2> "$W/m.err" ||
    { echo "cpm_matmul_cluster: matmul failed" >&2; cat "$W/m.err" >&2; exit 1; }
cat "$W/m.out"
echo
echo "| N | rows of A by host | set | scatter | bcast | compute | gather | total (ms) |"
echo "|---|---|---|---|---|---|---|---|"
awk '/^# N [0-9]+: rows of A by rank/ { r = $9; for (i = 10; i <= NF; i++) r = r " " $i; rows[$3] = r }
     /^#/ || NF != 7 { next }
     { n = $2 ":"; printf "| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f |\n", $2, rows[n], $1,
           $3 * 1e3, $4 * 1e3, $5 * 1e3, $6 * 1e3, $7 * 1e3 }' "$W/m.out"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
