#!/usr/bin/env bash
# CPM parallel matrix product (matmul, seed 5.4) on one machine: every set
# of collectives (native, the seed's two Hockney ones, Traff and sorted flat
# with MPI_Bcast) at 3 and 4 ranks and two orders, one an odd one, C checked
# on every product; the output's blocks, columns and sums; the row shares
# adding up to N; a corrupted entry found (status 1); bad input refused.
. "$(dirname "$0")/../lib.sh"
MM="$BUILD/cpm/matmul"
FAST="-r 2 -t 0.01"

# hockney N FILE: a heterogeneous Hockney model of N processes.
hockney() {
    awk -v n="$1" 'BEGIN{ print "model Hockney"; print "processes " n
        for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
            printf "%d %d %g %g\n", i, j, 2e-5 + 1e-6 * j, 1e-9 * (1 + (i == 0 && j == n - 1) * 9) }' > "$2"
}
hockney 3 "$TMPD/h3.model"
hockney 4 "$TMPD/h4.model"

# Why the data of $OUT is not ORDERS blocks of the SETS lines, each
# "set N scatter bcast compute gather total" with times >= 0 that add up.
matmul_problems() { # "SETS" "ORDERS"
    local sets=$1 orders=$2 want
    [ "$(count_blocks)" = "$(echo $orders | wc -w)" ] || echo "$(count_blocks) blocks for orders '$orders'"
    want=$(for n in $orders; do for s in $sets; do printf '%s %s\n' "$s" "$n"; done; done)
    [ "$(data_lines | grep -v '^#set' | awk '{print $1, $2}')" = "$want" ] || echo "sets and orders differ from '$want'"
    data_lines | grep -v '^#set' | awk 'NF != 7 { print "not 7 fields: " $0; exit }
        { for (i = 3; i <= 7; i++) if (!($i >= 0)) { print "bad time " $i ": " $0; exit }
          if ($7 < 0.999 * ($3 + $4 + $5 + $6) || $7 > 1.001 * ($3 + $4 + $5 + $6)) { print "total is not the sum: " $0; exit } }'
    grep -q '^#set N scatter bcast compute gather total$' "$OUT" || echo "no column line"
}
rows_add_up() { # N...: the "rows of A" comments add up to each N
    local n
    for n in "$@"; do
        grep "^# N $n: rows of A by rank" "$OUT" | awk -v n="$n" '{ s = 0; for (i = 8; i <= NF; i++) s += $i; exit !(s == n) }' ||
            echo "rows of N $n do not add up"
    done
}

run 3 "$MM" -N 48,97 -i "$TMPD/h3.model" $FAST
expect_success "matmul at 3 ranks, the seed's sets (native, Hockney dfs binomial min and max), N 48 and 97, checked" \
    matmul_problems "native Hockney_dfs_binomial_min Hockney_dfs_binomial_max" "48 97"
expect_no_problems "matmul: the rows of A add up to N" rows_add_up 48 97
expect 'grep -q "^# set Hockney_dfs_binomial_max: Hockney_Scatterv_dfs_binomial_max, Hockney_Bcast_dfs_binomial_max, Hockney_Gatherv_dfs_binomial_max$" "$OUT"' \
    "matmul names the three collectives of each set"
run 4 "$MM" -N 61 -O Hockney_ucs_binomial_max,Hockney_Traff,Hockney_sorted_flat_dsc,native -i "$TMPD/h4.model" $FAST
expect_success "matmul at 4 ranks: UCS, Traff and sorted flat sets, checked" \
    matmul_problems "Hockney_ucs_binomial_max Hockney_Traff Hockney_sorted_flat_dsc native" "61"
run 1 "$MM" -N 17 $FAST
expect_success "matmul at 1 rank, native" matmul_problems "native" "17"

# --stats names the process whose own time (its four phases) was the
# longest: COMMSWEEP_SLOW_RANK=R makes R sleep 40 ms in each product's
# compute phase, far above the others' milliseconds. Without the hook
# some process is named, at or above the median one.
slowest_problems() { # RANK ("" for any of 0-2)
    grep -q '^#set N scatter bcast compute gather total median p5 p95 cv slowest_rank slowest_above_median_pct slowest_host$' "$OUT" || echo "no column line"
    data_lines | grep -v '^#set' | awk -v want="$1" -v host="$(hostname)" '
        { rows++ }
        NF != 14 || (want != "" && $12 != want) || (want == "" && $12 !~ /^[012]$/) ||
            !($13 + 0 >= (want == "" ? 0 : 50)) || $14 != host { print "row: " $0; exit }
        END { if (rows != 2) print rows + 0 " rows, not 2" }'
}
COMMSWEEP_SLOW_RANK=1 COMMSWEEP_SLOW_MS=40 run 3 "$MM" -N 24,33 $FAST --stats
expect_success "matmul --stats at 3 ranks, rank 1 slowed: every row names rank 1 on this host, 50% or more above the median process" \
    slowest_problems 1
run 3 "$MM" -N 24,33 $FAST --stats
expect_success "matmul --stats at 3 ranks: every row names one of ranks 0-2, at or above the median" \
    slowest_problems ""

COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=1 run 3 "$MM" -N 30 -i "$TMPD/h3.model" -r 1 -t 0.01
expect '[ "$RC" = 1 ] && grep -q "^# Fail: set native, N 30: 1 entries of C differ" "$OUT" && grep -q "^matmul: set native, N 30: C differs" "$ERR"' \
    "matmul fails (status 1) when an entry of C is wrong"

refused 0 matmul "matmul -N 0 refused" "$MM" -N 0
refused 0 matmul "matmul -N with text refused" "$MM" -N 12,abc
refused 0 matmul "matmul -N above 16384 refused" "$MM" -N 16385
refused 0 matmul "matmul -N with an empty order refused" "$MM" -N 12,,13
refused 0 matmul "matmul -O with an unknown set refused" "$MM" -O native,Hockney_dfs_binomial_mid -i "$TMPD/h3.model"
refused 0 matmul "matmul with a model-based set and no model file refused" "$MM" -O Hockney_dfs_binomial_min
refused 0 matmul "matmul with sets of two models refused" "$MM" -O Hockney_Traff,LMO_Traff -i "$TMPD/h3.model"
refused 0 matmul "matmul with a model file of another process count refused" "$MM" -i "$TMPD/h3.model"
refused 0 matmul "matmul -i with only native refused" "$MM" -O native -i "$TMPD/h3.model"
refused 0 matmul "matmul -r 0 refused" "$MM" -r 0
refused 0 matmul "matmul -t 0 refused" "$MM" -t 0
refused 0 matmul "matmul with an argument refused" "$MM" 512
