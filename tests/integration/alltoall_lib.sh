#!/usr/bin/env bash
# Helpers of the alltoall_* tests, sourced by them after lib.sh; run on its
# own it tests nothing and prints nothing.

# Checks $OUT against what follows from the arguments: blocks (world .. 1
# halving; BLOCKS_PER_SIZE blocks of each size, default 1), lines per block
# (count halving), comms, ranks (the target size), GiB per rank (of rank
# 0's communicator), positive times, min <= avg <= max, bandwidth = GiB /
# time, ### lines. PARTITION (contig, the default, or strided) says whose
# communicator rank 0 is in: strided, its size is ceil(NP / comms).
check_sweep_output() { # NP COUNTHI ITERS [BLOCKS_PER_SIZE [PARTITION]]
    awk -v np="$1" -v hi="$2" -v iters="$3" -v per="${4:-1}" -v part="${5:-contig}" '
    function fail(msg) { print "bad output: " msg; bad = 1; exit 1 }
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-9 + 1e-6 * (b < 0 ? -b : b) }
    BEGIN { n = 0; for (t = np; t >= 1; t = int(t / 2)) target[n++] = t; blk = -1; inblock = 0 }
    /^###/ { if ($0 ~ /warm-up/) warm++; else if ($0 ~ /iteration/) itl++; next }
    /^#/ { next }
    /^[[:space:]]*$/ { inblock = 0; next }
    {
        if (!inblock) { if (blk >= 0 && line != nexp) fail("block " blk " has " line " lines, want " nexp);
                        blk++; inblock = 1; line = 0
                        if (blk >= n * per) fail("too many blocks")
                        tg = target[int(blk / per)]; c = int(hi * np / tg)
                        nexp = 0; for (x = c; x >= 1; x = int(x / 2)) nexp++ }
        if (NF != 9) fail("line has " NF " fields: " $0)
        want_comms = int((np + tg - 1) / tg)
        if ($1 != want_comms) fail("comms " $1 " want " want_comms)
        if ($2 != tg) fail("ranks " $2 " want " tg)
        r0 = part == "strided" ? int((np + want_comms - 1) / want_comms) : tg
        gib = 2 * c * r0 * 8 / 1073741824
        if (!close_to($3, gib)) fail("GiB " $3 " want " gib " (count " c ")")
        if (!($4 > 0 && $4 <= $5 && $5 <= $6)) fail("times not 0 < min <= avg <= max: " $0)
        if (!($7 <= $8 && $8 <= $9)) fail("bandwidth not min <= avg <= max: " $0)
        if (!close_to($9 * $4, $3)) fail("max bandwidth is not GiB / min time: " $0)
        if (!close_to($7 * $6, $3)) fail("min bandwidth is not GiB / max time: " $0)
        line++; total++; c = int(c / 2)
    }
    END { if (bad) exit 1
          if (blk + 1 != n * per) { print "blocks " blk + 1 " want " n * per; exit 1 }
          if (line != nexp) { print "last block has " line " lines, want " nexp; exit 1 }
          if (warm != total) { print "warm-up lines " warm " want " total; exit 1 }
          if (itl != total * iters) { print "iteration lines " itl " want " total * iters; exit 1 } }
    ' "$OUT"
}

# Checks the ### lines of $OUT against the data lines: each count's warm-up
# line, then ITERS iteration lines numbered 1..ITERS, then its row; the
# row's min, mean and max time (columns 4-6) are those of its iteration
# lines.
check_iteration_lines() { # ITERS
    awk -v iters="$1" '
    function fail(msg) { print "bad ### lines: " msg; bad = 1; exit 1 }
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-12 + 2e-6 * b }
    /^### count [0-9]+ warm-up time / { if (state != 0) fail("warm-up line inside a count: " $0)
                                        count = $3; state = 1; n = 0; next }
    /^### count [0-9]+ iteration / { if (state != 1 || $3 != count) fail("iteration line out of place: " $0)
                                     if ($5 != n + 1) fail("iteration " $5 " after " n)
                                     t[++n] = $7; next }
    /^#/ || /^[[:space:]]*$/ { next }
    { if (state != 1 || n != iters) fail("row after " n " iteration lines (want " iters "): " $0)
      min = t[1]; max = t[1]; sum = 0
      for (i = 1; i <= n; i++) { if (t[i] < min) min = t[i]; if (t[i] > max) max = t[i]; sum += t[i] }
      if (!close_to($4, min) || !close_to($5, sum / n) || !close_to($6, max))
          fail("row times " $4 " " $5 " " $6 " are not min/avg/max " min " " sum / n " " max " of its ### lines")
      rows++; state = 0 }
    END { if (bad) exit 1; if (!rows) { print "no rows"; exit 1 }
          if (state) { print "### lines without their row at the end"; exit 1 } }
    ' "$OUT"
}
