#!/usr/bin/env bash
# Model-based collectives on the emulated cluster of tests/cluster (as root):
# 4 hosts, two fast and two slow links (CLUSTER_RATES, default 200mbit
# 200mbit 50mbit 50mbit), one rank per host, TCP. Builds a Hockney and an
# LMO model on the hosts, then for 1 KiB to 1 MiB per process times native
# MPI_Scatter, MPI_Gather and MPI_Bcast against the Hockney (UCS binomial
# min) and LMO (split flat scatter/gather, UCS binomial bcast) model-based
# versions with collective -l libcpm_coll.so, and predicts each model-based
# one with prediction -O from the same tree. Prints one table line per
# operation and size (times in ms; err: prediction / measured - 1) and the
# median |err| of each model-based operation.
#   sudo BUILD=build tests/bench/cpm_coll_cluster.sh
#   sudo SIZES="1024 65536" ROOT=2 tests/bench/cpm_coll_cluster.sh
# PREC (collective's precision), HOCKNEY_SET and LMO_SET (model's message
# set and precision) override the defaults below; OPS (default "Scatter
# Gather Bcast") picks operations. TESTBED_SHAPE=affine shapes the links
# with a peak rate (tests/cluster/testbed.sh), so that their cost is affine
# in the size; the default, burst, lets 32 kB through unshaped.
# The message sets cover the sizes predicted: adaptive from 1 KiB to 1 MiB
# (points where the curve bends, strides doubling where it is straight).
# Takes several minutes (the slow links move 6 MB/s); run it on a quiet machine.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
read -r -a RATES <<< "${CLUSTER_RATES:-200mbit 200mbit 50mbit 50mbit}"
SIZES=${SIZES:-1024 4096 16384 65536 262144 1048576}
ROOT=${ROOT:-0}
PREC=${PREC:--r 5 -R 20 -e 0.05}
HOCKNEY_SET=${HOCKNEY_SET:--m 1024 -M 1048576 -S 0 -s 1024 -r 3 -R 20}
LMO_SET=${LMO_SET:--m 1024 -M 1048576 -S 0 -s 1024 -r 3 -R 20}
OPS=${OPS:-Scatter Gather Bcast}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-600}
ALL=0,1,2,3
W=$TMPD
testbed_bench_up cpm_coll_cluster "${RATES[@]}"
echo "# model-based collectives on 4 emulated hosts, links ${RATES[*]} (shaping $TESTBED_SHAPE, MTU $TESTBED_MTU), root $ROOT ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "# Hockney set: $HOCKNEY_SET; LMO set: $LMO_SET"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

testbed_mpirun "$ALL" "$BUILD/cpm/model" -C Hockney -o "$W/Hockney.model" $HOCKNEY_SET -p > "$W/h.log" ||
    { echo "cpm_coll_cluster: model -C Hockney failed" >&2; cat "$W/h.log" >&2; exit 1; }
testbed_mpirun "$ALL" "$BUILD/cpm/model" -C LMO -o "$W/LMO.model" $LMO_SET -p > "$W/l.log" ||
    { echo "cpm_coll_cluster: model -C LMO failed" >&2; cat "$W/l.log" >&2; exit 1; }
grep -h -e '^# LMO' -e '^# Hockney' "$W/h.log" "$W/l.log" || true

# measure OUT ARGS...: the mean time (s) of the one size of a collective run.
measure() {
    local out=$1; shift
    testbed_mpirun "$ALL" "$BUILD/cpm/collective" --root "$ROOT" $PREC "$@" > "$out" 2>&1 ||
        { echo "cpm_coll_cluster: collective $* failed" >&2; tail -5 "$out" >&2; echo nan; return; }
    awk '!/^#/ && NF == 5 { print $2 }' "$out" | tail -1
}
predict() { # MODEL OPERATION SIZE
    "$BUILD/cpm/prediction" -n 4 -C "$1" -i "$W/$1.model" -O "$2" --root "$ROOT" -m "$3" -M "$3" |
        awk '!/^#/ && NF == 2 { print $2 }'
}
lib="$BUILD/cpm/libcpm_coll.so"
printf '%-8s %8s %10s | %-28s %10s %10s %7s | %-24s %10s %10s %7s\n' "# op" bytes native \
    "Hockney op" measured predicted err "LMO op" measured predicted err
for op in $OPS; do
    case $op in
        Scatter) h=Hockney_Scatter_ucs_binomial_min l=LMO_Scatter_split_flat ;;
        Gather) h=Hockney_Gather_ucs_binomial_min l=LMO_Gather_split_flat ;;
        Bcast) h=Hockney_Bcast_ucs_binomial_min l=LMO_Bcast_ucs_binomial_min ;;
    esac
    for s in $SIZES; do
        nat=$(measure "$W/n.out" -O "MPI_$op" -m "$s" -M "$s")
        hm=$(measure "$W/h.out" -l "$lib" -O "$h" -o "model=Hockney,file=$W/Hockney.model" -m "$s" -M "$s")
        lm=$(measure "$W/l.out" -l "$lib" -O "$l" -o "model=LMO,file=$W/LMO.model" -m "$s" -M "$s")
        hp=$(predict Hockney "$h" "$s") lp=$(predict LMO "$l" "$s")
        awk -v op="$op" -v s="$s" -v nat="$nat" -v h="$h" -v hm="$hm" -v hp="$hp" -v l="$l" -v lm="$lm" -v lp="$lp" 'BEGIN {
            printf "%-8s %8d %10.3f | %-28s %10.3f %10.3f %+7.2f | %-24s %10.3f %10.3f %+7.2f\n",
                op, s, nat * 1e3, h, hm * 1e3, hp * 1e3, hp / hm - 1, l, lm * 1e3, lp * 1e3, lp / lm - 1
            e = hp / hm - 1; printf "%s %.6f\n", h, e < 0 ? -e : e > "/dev/stderr"
            e = lp / lm - 1; printf "%s %.6f\n", l, e < 0 ? -e : e > "/dev/stderr" }' 2>> "$W/errs"
    done
done
echo "# median |err| over sizes:"
for name in $(awk '{ print $1 }' "$W/errs" | sort -u); do
    printf '#   %-28s %s\n' "$name" "$(awk -v n="$name" '$1 == n { print $2 }' "$W/errs" | median)"
done
