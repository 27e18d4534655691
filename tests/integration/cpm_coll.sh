#!/usr/bin/env bash
# CPM model-based collectives (libcpm_coll): every operation of every model
# at 1, 2, 3, 4, 5 and 8 ranks (under MPICH to 5), several roots, sizes 0,
# 1, odd and above 64 KiB, Scatterv/Gatherv with uneven counts in the three
# count modes, every rooted operation but Bcast also with MPI_IN_PLACE at
# the root, the data checked on every rank (coll_test --all, one launch per
# rank count);
# the seed's test (5.3); collective -l with its data check; prediction and
# --dot of the tree an operation runs; bad input refused.
. "$(dirname "$0")/../lib.sh"
CT="$BUILD/cpm/coll_test"
COLL="$BUILD/cpm/collective"
PRED="$BUILD/cpm/prediction"
LIB="$BUILD/cpm/libcpm_coll.so"
# MPICH's ranks spin while they wait, and eight of them on a few cores make
# every message a time slice: fewer cases there (one root, two sizes).
QUICK=
case "$MPIEXEC" in *mpich* | *hydra*) QUICK=--quick ;; esac

# gen_models N DIR: heterogeneous model files of N processes for every model
# (the link between 0 and N-1 ten times slower).
gen_models() {
    local n=$1 dir=$2
    mkdir -p "$dir"
    awk -v n="$n" 'BEGIN{
        print "model Hockney"; print "processes " n
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
            s = (i == 0 && j == n - 1) ? 10 : 1
            printf "%d %d %g %g\n", i, j, 2e-5 + 1e-6 * j, s * (1e-9 + 1e-10 * (i + j)) }
    }' > "$dir/Hockney.model"
    awk -v n="$n" 'BEGIN{
        print "model LinInterp"; print "processes " n; print "points 3"; print "sizes 0 1024 65536"
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
            s = (i == 0 && j == n - 1) ? 10 : 1; a = 2e-5 + 1e-6 * j; b = s * (1e-9 + 1e-10 * (i + j))
            printf "%d %d %g %g %g\n", i, j, a, a + 1024 * b, a + 65536 * b }
    }' > "$dir/LinInterp.model"
    awk -v n="$n" 'BEGIN{
        print "model PLogP"; print "processes " n; print "points 3"; print "sizes 0 1024 65536"
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
            s = (i == 0 && j == n - 1) ? 10 : 1; b = s * (1e-9 + 1e-10 * (i + j))
            printf "pair %d %d %g\n", i, j, 1e-5 + 1e-6 * j
            printf "os %g %g %g\nor %g %g %g\n", 1e-6, 2e-6, 2e-5, 1e-6, 2e-6, 2e-5
            printf "g %g %g %g\n", 2e-6, 2e-6 + 1024 * b, 2e-6 + 65536 * b }
    }' > "$dir/PLogP.model"
    awk -v n="$n" 'BEGIN{
        print "model LMO"; print "processes " n; print "homogeneous 0"
        printf "C"; for (i = 0; i < n; i++) printf " %g", 1e-6 * (1 + i % 2); print ""
        printf "t"; for (i = 0; i < n; i++) printf " %g", 1e-10 * (1 + i % 3); print ""
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) {
            s = (i == 0 && j == n - 1) ? 10 : 1
            printf "link %d %d %g %g\n", i, j, 1e-5, s * 1e-9 }
        print "S none"; print "one2many_small 1e-5 1e-9"; print "one2many_large 1e-5 1e-9"
        print "M1 4096"; print "M2 65536"; print "many2one_small 1e-5 1e-9"; print "many2one_large 1e-5 1e-9"
    }' > "$dir/LMO.model"
}

# The trees and schedules do not depend on the MPI library: the short run
# (MPICH) stops at 5 ranks, where 8 alone took 40 s.
sizes="1 2 3 4 5 8"
test_short && sizes="1 2 3 4 5"
gen_models 8 "$TMPD/m8" # prediction reads it below, at any length of run
for n in $sizes; do
    gen_models "$n" "$TMPD/m$n"
    run "$n" "$CT" --all "$TMPD/m$n" $QUICK
    expect '[ "$RC" = 0 ] && [ "$(grep -c ": 4[24] operations on '"$n"' processes: ok$" "$OUT")" = 5 ]' \
        "every operation of the 5 models at $n ranks, data checked"
done
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=0 run 3 "$CT" --all "$TMPD/m3" $QUICK
expect '[ "$RC" = 1 ] && grep -q "wrong data" "$ERR"' "coll_test fails (status 1) when a rank's data is wrong"

M4="$TMPD/m4"
run 4 "$CT" -i "$M4/Hockney.model"
expect '[ "$RC" = 0 ] && grep -q "^# Hockney_Bcast_ucs_binomial_min of 1024 bytes from root 0 on 4 processes: ok" "$OUT"' \
    "the seed's test: Hockney model read on rank 0, distributed, Bcast checked"
run 4 "$CT" -i "$M4/LMO.model" -C LMO -O LMO_Gather_split_flat -m 5000 --root 2
expect '[ "$RC" = 0 ]' "coll_test -C LMO -O LMO_Gather_split_flat (split range) at root 2"

# MPI_IN_PLACE at the root (coll_test --all runs every rooted operation so
# at every root; here one of each kind from the command line).
for op in Hockney_Reduce_dfs_binomial_min LinInterp_Scatter_ucs_binomial_max \
    PLogP_Gather_bfs_binomial_min LMO_Gatherv_Traff Hockney_Scatterv_sorted_flat_asc \
    LMO_Scatter_split_flat LMO_Gather_split_flat; do
    model=${op%%_*}
    run 4 "$CT" -i "$M4/$model.model" -C "$model" -O "$op" -m 5000 --root 1 --in-place
    expect '[ "$RC" = 0 ] && grep -q "^# $op of 5000 bytes from root 1 on 4 processes: ok" "$OUT"' \
        "coll_test -O $op --in-place at root 1"
done
refused 2 coll_test "coll_test --in-place with Bcast (no MPI_IN_PLACE) refused" \
    "$CT" -i "$M4/Hockney.model" --in-place

SMALL="-m 0 -M 70001 -S 35000 -r 2 -R 3"
run 4 "$COLL" -l "$LIB" -O Hockney_Scatter_dfs_binomial_min -o "model=Hockney,file=$M4/Hockney.model" $SMALL
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "0 35000 70000 70001 " ] && grep -q "^# data: checked" "$OUT"' \
    "collective -l libcpm_coll.so -O Hockney_Scatter_dfs_binomial_min: every size, checked"
run 5 "$COLL" -l "$LIB" -O PLogP_Gatherv_Traff -o "model=PLogP,file=$TMPD/m5/PLogP.model,sgv=1,verbose" --root 3 $SMALL
expect '[ "$RC" = 0 ] && grep -q "sgv mode 1" "$OUT" && grep -q "^# tree at 1024 bytes" "$OUT" && [ "$(data_lines | wc -l)" = 4 ]' \
    "collective -l PLogP_Gatherv_Traff, sgv=1, verbose tree, root 3 at 5 ranks"
run 4 "$COLL" -l libcpm_coll.so -O LMO_Gather_split_flat -o "model=LMO,file=$M4/LMO.model" $SMALL
expect '[ "$RC" = 0 ]' "collective -l finds a bare libcpm_coll.so beside the program"
COMMSWEEP_CORRUPT=1 run 4 "$COLL" -l "$LIB" -O LinInterp_Reduce_bfs_binomial_max -o "model=LinInterp,file=$M4/LinInterp.model" $SMALL
expect '[ "$RC" = 1 ] && grep -q "^# Fail" "$OUT"' "collective -l fails (status 1) on wrong data"
COMMSWEEP_CORRUPT=1 run 3 "$COLL" -O MPI_Gather $SMALL
expect '[ "$RC" = 1 ]' "collective fails (status 1) on wrong data of a native operation"

run1 "$PRED" -n 4 -C Hockney -i "$M4/Hockney.model" -O Hockney_Scatter_dfs_binomial_min -m 1024 -M 4096
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 3 ] && data_lines | awk "\$2 <= 0 {bad=1} END{exit bad}"' \
    "prediction -O Hockney_Scatter_dfs_binomial_min"
run1 "$PRED" -n 8 -C Hockney -i "$TMPD/m8/Hockney.model" -O Hockney_Bcast_ucs_binomial_min -m 65536 --dot --root 7
expect '[ "$RC" = 0 ] && head -1 "$OUT" | grep -q "^digraph" && [ "$(grep -c -- "->" "$OUT")" = 7 ] && grep -q "\"7\" \[shape=doublecircle\]" "$OUT"' \
    "prediction --dot: a tree of 8 ranks rooted at 7"
# The slow link 0-7 is never used by a min tree and is by a max one.
expect '! grep -q "\"7\" -> \"0\"" "$OUT"' "the min tree avoids the slow link"
run1 "$PRED" -n 8 -C Hockney -i "$TMPD/m8/Hockney.model" -O Hockney_Bcast_ucs_binomial_max -m 65536 --dot --root 7
expect 'grep -q "\"7\" -> \"0\"" "$OUT"' "the max tree takes the slow link first"

refused 4 collective "collective -l with an unknown operation refused" "$COLL" -l "$LIB" -O Hockney_Scatter_xyz -o "model=Hockney,file=$M4/Hockney.model"
refused 4 collective "collective -l with a library that cannot be loaded refused" "$COLL" -l "$TMPD/nolib.so" -O Hockney_Scatter_dfs_binomial_min -o "model=Hockney,file=$M4/Hockney.model"
refused 4 collective "collective -l without file= refused" "$COLL" -l "$LIB" -O Hockney_Scatter_dfs_binomial_min -o model=Hockney
refused 4 collective "collective -l with a model file of another kind refused" "$COLL" -l "$LIB" -O Hockney_Scatter_dfs_binomial_min -o "model=Hockney,file=$M4/LMO.model"
refused 4 collective "collective -l with a file of another process count refused" "$COLL" -l "$LIB" -O Hockney_Scatter_dfs_binomial_min -o "model=Hockney,file=$TMPD/m5/Hockney.model"
refused 4 collective "collective -l with an operation of another model refused" "$COLL" -l "$LIB" -O PLogP_Scatter_dfs_binomial_min -o "model=Hockney,file=$M4/Hockney.model"
refused 4 collective "collective -o with an unknown item refused" "$COLL" -l "$LIB" -O Hockney_Scatter_dfs_binomial_min -o "model=Hockney,file=$M4/Hockney.model,sgv=3"
refused 4 coll_test "coll_test with a file of another process count refused" "$CT" -i "$TMPD/m5/Hockney.model"
refused 0 prediction "prediction --dot of a native operation refused" "$PRED" -n 4 -C Hockney -i "$M4/Hockney.model" -O bcast_binomial --dot
# Nothing tested must not look like success; nor may a run print for ever.
refused 2 collective "collective -l with a native operation refused" "$COLL" -l "$TMPD/nolib.so" -O MPI_Bcast
refused 2 collective "collective -o model=Bogus with a native operation refused" "$COLL" -O MPI_Bcast -o model=Bogus
mkdir -p "$TMPD/no-models"
refused 2 coll_test "coll_test --all of a folder that does not exist refused" "$CT" --all "$TMPD/none"
refused 2 coll_test "coll_test --all of a file refused" "$CT" --all "$M4/Hockney.model"
refused 2 coll_test "coll_test --all of a folder without model files refused" "$CT" --all "$TMPD/no-models"
refused 0 prediction "prediction of 2^64 sizes (-M 2^64-1 -S 1) refused" "$PRED" -n 4 -C Hockney -i "$M4/Hockney.model" -O p2p -M 18446744073709551615 -S 1
