#!/usr/bin/env bash
# machines/sweep.sh's groups step: on a job of several nodes each
# collective of OSU_GROUPS runs again with --groups=node and
# --groups=cross, one file each, counted as written; on one node the step
# is skipped with a line saying so. Nodes are faked here with
# --nodes-by-block (one machine), through OSU_GROUPS_FLAGS.
. "$(dirname "$0")/../lib.sh"

# The sweep of one OSU collective on 4 ranks as 2 nodes of 2; prints the
# job log (stderr of the sweep) to $ERR. Returns the sweep's status.
sweep() { # NODES
    (
        # shellcheck source=../../machines/sweep.sh
        . "$TOP/machines/sweep.sh"
        BUILD=$BUILD RESULTS=$TMPD/results SWEEP_NP=4 SWEEP_TAG=t SWEEP_NODES=$1
        SWEEP_FAMILIES=osu OSU_PAIR="" OSU_MULTI="" OSU_RMA="" OSU_COLL=osu_allreduce
        OSU_GROUPS=osu_allreduce OSU_SIZES=4:8 OSU_ITERS=5 OSU_WARMUP=1
        OSU_COLL_FLAGS=-c OSU_GROUPS_FLAGS=--nodes-by-block=2
        # shellcheck disable=SC2206 # the launcher's words
        SWEEP_LAUNCH_ALL=(timeout -k 5 "$TEST_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n 4)
        sweep_run_all
    ) 2> "$ERR"
}

rm -rf "$TMPD/results"
sweep 2
RC=$?
node=$TMPD/results/osu_allreduce-groups-node.t.dat cross=$TMPD/results/osu_allreduce-groups-cross.t.dat
expect '[ "$RC" = 0 ] && grep -q "^commsweep: 3 written, 0 skipped, 0 failed" "$ERR"' \
    "sweep.sh on 2 nodes: osu_allreduce, then its groups by node and across, 3 files written"
expect '[ "$(count_blocks "$node")" = 3 ] && grep -q "^# groups (--groups=node): 2 concurrent groups" "$node" &&
        [ "$(grep -v "^#" "$node" | grep -c "Pass$")" = 6 ]' \
    "sweep.sh --groups=node: 2 groups of a node each, their blocks and the worst group's, every row Pass"
expect '[ "$(count_blocks "$cross")" = 3 ] && grep -q "^# group 0: 2 ranks (world ranks 0,2)" "$cross"' \
    "sweep.sh --groups=cross: local rank 0 of each node together, local rank 1 together"
rm -rf "$TMPD/results"
sweep 1
RC=$?
expect '[ "$RC" = 0 ] && grep -q "^commsweep: 1 written" "$ERR" && grep -q "skipping the OSU groups: the job has one node" "$ERR" &&
        [ ! -e "$node" ]' \
    "sweep.sh on 1 node: no groups, a line says why"
