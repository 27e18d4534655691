#!/usr/bin/env bash
# Helpers of the osu_p2p_* tests, sourced by them; run on its own it tests
# nothing and prints nothing.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
P2P="$BUILD/osu"

# Why $OUT is not one successful run of TITLE over SIZES with COLUMNS:
# empty when it is. Every data line: the size, then one field per column,
# each exactly its OMB width (18, Iterations 12), numbers with 2 decimals (counts plain) above zero,
# and "Pass" where there is a Validation column.
p2p_problems() { # TITLE "SIZES" COLUMN...
    local title=$1 sizes=$2 first
    shift 2
    first=$(grep -m1 '^# OSU' "$OUT")
    [[ "$first" == "# $title (commsweep "*")" ]] || echo "title line is '$first'"
    osu_table_problems 1 "$sizes" "$@"
    [ "$RC" = 0 ] || echo "status $RC: $(head -c 500 "$ERR")"
}

# ok when $OUT passes p2p_problems.
expect_p2p() { # DESCRIPTION TITLE "SIZES" COLUMN...
    expect_no_problems "$1" p2p_problems "${@:2}"
}
