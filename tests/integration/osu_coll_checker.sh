#!/usr/bin/env bash
# The table checks of osu_coll_lib.sh against tables made up here: each
# kind of defect must be caught, and a good table accepted.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
table() { # ROW... (lines after the heading)
    printf '# OSU MPI Allgather Latency Test\n%-10s%18s%18s%18s%12s%18s\n' "# Size" \
        "Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" Iterations Validation > "$OUT"
    printf '%s\n' "$@" >> "$OUT"
}
row() { printf '%-10s%18s%18s%18s%12s%18s' "$@"; }
table "$(row 1 2.00 1.00 3.00 5 Pass)" "$(row 2 2.00 2.00 2.00 5 Pass)"
expect 'coll_check_full allgather 5 "1 2" > /dev/null' "checker accepts a good table"
for bad in "$(row 1 0.50 1.00 3.00 5 Pass)|avg below min" \
           "$(row 1 4.00 1.00 3.00 5 Pass)|avg above max" \
           "$(row 1 2.00 1.00 3.00 4 Pass)|wrong iteration count" \
           "$(row 1 2.00 1.00 3.00 5 Fail)|no Pass" \
           "$(row 1 2.00 1.00 3.00 5 Pass) |wrong width"; do
    table "${bad%|*}" "$(row 2 2.00 2.00 2.00 5 Pass)"
    expect '! coll_check_full allgather 5 "1 2" > /dev/null' "checker catches ${bad#*|}"
done
table "$(row 1 2.00 1.00 3.00 5 Pass)" "$(row 4 2.00 2.00 2.00 5 Pass)"
expect '! coll_check_full allgather 5 "1 2" > /dev/null' "checker catches a wrong size sequence"
expect '[ "$(coll_sizes allreduce 1 64)" = "4 8 16 32 64" ] && [ -z "$(coll_sizes barrier 1 64)" ] && [ "$(coll_sizes gather 0 4)" = "0 1 2 4" ]' \
    "expected size sequences"
