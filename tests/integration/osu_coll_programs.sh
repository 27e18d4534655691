#!/usr/bin/env bash
# Every collective benchmark at 1, 2, 3, 4 and 8 ranks (under MPICH: 1, 3
# and 8, at 8 the sizes up to 8) with validation and the full columns: status, headings, the size
# sequence, column widths, min <= avg <= max, iteration counts and Pass on
# every row.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"

programs="allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast gather gatherv
          reduce reduce_scatter reduce_scatter_block scatter scatterv
          iallgather iallgatherv iallreduce ialltoall ialltoallv ialltoallw ibarrier ibcast igather
          igatherv ireduce ireduce_scatter ireduce_scatter_block iscatter iscatterv"

coll_run_programs $programs
