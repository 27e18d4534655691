# The number of data rows of an OSU-style output: lines whose every field
# is a number (or a Validation verdict), as the rows of every OSU table
# are (the barriers' rows, without a size, and osu_mbw_mr -V's matrices
# included), and the one line of the start-up programs. Column headings,
# '#' lines, OMB's lines without a '#' (the neighborhood topology) and help
# text count nothing.
/^nprocs: [0-9]+, min: / || /^This is a test with [0-9]+ processes$/ { rows++; next }
NF == 0 { next }
{
    for (i = 1; i <= NF; i++)
        if ($i !~ /^-?[0-9]+(\.[0-9]+)?$/ && $i !~ /^(Pass|Fail|passed|failed)$/)
            next
    rows++
}
END { print rows + 0 }
