#!/usr/bin/env bash
# The table of an alltoall/aller run: for each communicator size, the mean
# time per call (seconds) of every algorithm at the smallest, middle and
# largest count of the halving series (the counts of aller's summary), the
# winner of each count, and a '*' on algorithms that fell back to
# MPI_Alltoall there.
#   tests/bench/aller_table.sh aller-contig.dat
set -u
[ $# = 1 ] && [ -f "$1" ] || { echo "aller_table.sh: give one aller output file" >&2; exit 2; }
awk '
    /^# algorithms: / { sub(/^# algorithms: /, ""); nalg = split($0, algs, /, /); next }
    /^# algorithm: / { alg = $3; fb = 0; next }
    /^# [a-z0-9]+: .*MPI_Alltoall instead$/ { fb = 1; next }
    /^#/ || NF == 0 { next }
    {   size = $2; count = int($3 * 1073741824 / 16 / size + 0.5)
        if (!(size in seen)) { seen[size] = 1; sizes[++nsizes] = size }
        if (!((size, count) in cseen)) { cseen[size, count] = 1; counts[size, ++ncounts[size]] = count }
        mean[size, count, alg] = $5; fell[size, alg] = fb }
    END {
        printf "%-6s %-6s %8s", "ranks", "class", "count"
        for (a = 1; a <= nalg; a++) printf " %11s", algs[a]
        printf "  %s\n", "fastest"
        for (s = 1; s <= nsizes; s++) {
            size = sizes[s]; n = ncounts[size]
            # counts run from the largest down: small is the last, medium the middle.
            k[1] = n; k[2] = int((n - 1) / 2) + 1; k[3] = 1
            split("small medium large", cls, " ")
            for (c = 1; c <= 3; c++) {
                if (c > 1 && k[c] == k[c - 1]) continue
                count = counts[size, k[c]]; best = ""
                printf "%-6s %-6s %8d", size, cls[c], count
                for (a = 1; a <= nalg; a++) {
                    t = mean[size, count, algs[a]]
                    printf " %10.3e%s", t, fell[size, algs[a]] ? "*" : " "
                    if (!fell[size, algs[a]] && (best == "" || t < bt)) { best = algs[a]; bt = t }
                }
                printf "  %s\n", best
            }
        }
        print "# mean seconds per call; * fell back to MPI_Alltoall in that communicator"
    }' "$1"
