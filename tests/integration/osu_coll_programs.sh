#!/usr/bin/env bash
# Every collective benchmark at 1, 2, 3, 4 and 8 ranks with validation and
# the full columns: status, headings, the size sequence, column widths,
# min <= avg <= max, iteration counts and Pass on every row.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"

programs="allgather allgatherv allreduce alltoall alltoallv barrier bcast gather gatherv
          reduce reduce_scatter reduce_scatter_block scatter scatterv
          iallgather iallgatherv iallreduce ialltoall ialltoallv ibarrier ibcast igather
          igatherv ireduce ireduce_scatter ireduce_scatter_block iscatter iscatterv"

for np in 1 2 3 4 8; do
    # 8 ranks share 2 cores: fewer sizes and iterations.
    if [ $np = 8 ]; then max=64 iters=2; else max=1024 iters=3; fi
    for p in $programs; do
        prog=osu_$p
        run $np "$BUILD/osu/$prog" -m 1:$max -i $iters -x 1 -c -f
        if [ $RC != 0 ]; then
            not_ok "$prog at $np ranks" "status $RC
$(head -c 1500 "$ERR")"
            continue
        fi
        msg=$(coll_check_full "$p" "$iters" "$(coll_sizes "$p" 1 $max)") \
            && ok "$prog at $np ranks: headings, sizes, widths, min <= avg <= max, Pass" \
            || not_ok "$prog at $np ranks" "$msg"
    done
done
