# Checks of the files a sweep job wrote (sourced by check.sh, after
# tests/lib.sh, which defines ok, not_ok and skip). Each file: one header of the right world size, data lines
# whose numbers are finite and positive where they must be, and the block
# structure its program's seed defines for that world size.

# The OSU program lists the sweep uses (its defaults).
outputs_osu_lists() {
    # shellcheck source=../../machines/sweep.sh
    (unset OSU_PAIR OSU_MULTI OSU_COLL OSU_RMA; . "$TOP/machines/sweep.sh"
     echo "$OSU_PAIR $OSU_RMA"; echo "$OSU_MULTI"; echo "$OSU_COLL")
}

# One header: one title line (first, or after the lines OMB 7.4 prints
# before it: a blank line, osu_latency_mt's thread counts) and "# ranks: NP".
outputs_header_ok() { # FILE NP
    [ "$(grep -c '^# .*(commsweep [^)]*)$' "$1")" = 1 ] &&
        awk '/^# .*\(commsweep [^)]*\)$/ { exit 0 } /^#/ || NF == 0 { next } { exit 1 }' "$1" &&
        [ "$(grep -c '^# ranks: ' "$1")" = 1 ] &&
        grep -qx "# ranks: $2" "$1"
}

# Numeric data lines: every field a finite number (OSU's validation column
# may say Pass), no Fail.
outputs_numbers_ok() { # FILE
    awk '/^#/ || /^[[:space:]]*$/ { next }
         { n++
           for (i = 1; i <= NF; i++) {
               if ($i == "Pass") continue
               if ($i !~ /^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/) { bad = 1; print FILENAME ": field " i " of line " NR ": " $i }
           } }
         END { if (n == 0) print FILENAME ": no data lines"; exit (bad || n == 0) }' "$1"
}

# Values of column COL, one block per line, space separated.
outputs_block_column() { # FILE COL
    awk -v c="$2" '/^#/ { next }
        /^[[:space:]]*$/ { if (inb) printf "\n"; inb = 0; next }
        { printf "%s%s", (inb ? " " : ""), $c; inb = 1 }
        END { if (inb) printf "\n" }' "$1"
}

# The ranks-per-communicator sequence NP, NP/2, ..., 1 (the seeds' halving).
outputs_halving() { # NP
    local n=$1 s=""
    while [ "$n" -ge 1 ]; do s="$s $n"; n=$((n / 2)); done
    echo "${s# }"
}

outputs_check_file() { # DESCRIPTION FILE NP [EXTRA_CHECK_FUNCTION]
    local what=$1 file=$2 np=$3 extra=${4:-} why
    if [ ! -s "$file" ]; then
        not_ok "$what" "missing or empty (see the job log): $file"
    elif ! outputs_header_ok "$file" "$np"; then
        not_ok "$what" "no single header of $np ranks in $file:
$(grep -E '^# (ranks|.*commsweep)' "$file")"
    elif [ "${extra#outputs_netmap}" = "$extra" ] && ! why=$(outputs_numbers_ok "$file"); then
        not_ok "$what" "$why"
    elif [ -n "$extra" ] && ! why=$("$extra" "$file" "$np"); then
        not_ok "$what" "$why"
    else
        ok "$what"
    fi
}

# alltoall/all: one block per halving of the communicator size; column 2 is
# the ranks per communicator, constant within a block; column 4..6 min <= avg
# <= max and positive.
outputs_alltoall_shape() { # FILE NP
    local want got
    want=$(outputs_halving "$2")
    got=$(outputs_block_column "$1" 2 | awk '{ print $1 }' | tr '\n' ' ')
    [ "${got% }" = "$want" ] || { echo "ranks per block: '${got% }', want '$want'"; return 1; }
    awk '/^#/ || /^[[:space:]]*$/ { next }
         !($4 > 0 && $4 <= $5 && $5 <= $6) { print "line " NR ": times not 0 < min <= avg <= max"; bad = 1 }
         END { exit bad }' "$1"
}

# always: one block per doubling of the communicator count, tasks per
# communicator halving from NP; calls double from 1 within a block.
outputs_always_shape() { # FILE NP
    local want got
    want=$(outputs_halving "$2")
    got=$(outputs_block_column "$1" 1 | awk '{ print $1 }' | tr '\n' ' ')
    [ "${got% }" = "$want" ] || { echo "tasks per block: '${got% }', want '$want'"; return 1; }
    outputs_block_column "$1" 2 | awk '{ for (i = 1; i <= NF; i++) if ($i != 2 ^ (i - 1)) { print "calls " $0 " do not double from 1"; exit 1 } }'
}

# OSU: sizes ascending powers of two within OSU_SIZES (or one size-less row
# for barrier-like programs).
outputs_osu_shape() { # FILE NP
    awk -v lo="${OSU_SIZES%%:*}" -v hi="${OSU_SIZES##*:}" '
        /^#/ || /^[[:space:]]*$/ { next }
        { n++ }
        NF == 1 || $1 ~ /\./ { next }
        { s = $1 + 0
          if (s < lo || s > hi || (s > 0 && 2 ^ int(log(s) / log(2) + 0.5) != s) || s <= last) {
              print "line " NR ": size " $1 " out of order or range " lo ":" hi; bad = 1 }
          last = s }
        END { exit bad }' "$1"
}

outputs_check_alltoall() { # RESULTS TAG NP
    local part
    for part in contig strided; do
        outputs_check_file "alltoall/all $part: $3 ranks, blocks $(outputs_halving "$3")" \
            "$1/all-$part.$2.dat" "$3" outputs_alltoall_shape
    done
}

# Every file the whole sweep must have written. make check-slurm builds
# every program first, so a program of the sweep that is not built fails.
outputs_check_sweep() { # RESULTS TAG NP BUILD JOB_LOG
    local results=$1 tag=$2 np=$3 build=$4 log=$5 prog part lists pair multi coll n
    outputs_check_alltoall "$results" "$tag" "$np"
    for prog in all iall; do
        for part in contig strided; do
            if [ -x "$build/always/$prog" ]; then
                outputs_check_file "always/$prog $part: $np ranks, blocks $(outputs_halving "$np")" \
                    "$results/always-$prog-$part.$tag.dat" "$np" outputs_always_shape
            else
                not_ok "always/$prog $part" "$build/always/$prog is not built"
            fi
        done
    done
    mapfile -t lists < <(outputs_osu_lists)
    pair=${lists[0]} multi=${lists[1]} coll=${lists[2]}
    n=0
    for prog in $pair $multi $coll; do
        n=$((n + 1))
        if [ ! -x "$build/osu/$prog" ]; then
            not_ok "osu $prog" "$build/osu/$prog is not built"
            continue
        fi
        case " $pair " in
            *" $prog "*) outputs_check_file "osu $prog: 2 ranks" "$results/$prog.$tag.dat" 2 outputs_osu_shape ;;
            *) outputs_check_file "osu $prog: $np ranks" "$results/$prog.$tag.dat" "$np" outputs_osu_shape ;;
        esac
    done
    [ "$n" = 0 ] && not_ok "osu programs of the sweep" "machines/sweep.sh lists none"
    # The network map, per rank on one node: a matrix of np x np.
    outputs_check_file "netmap pairs: $np ranks, $np x $np maps" "$results/pairs.$tag.dat" "$np" \
        outputs_netmap_pairs_shape
    for prog in rings bisection congestion; do
        [ "$prog" = congestion ] && [ "$np" -lt 4 ] && continue
        outputs_check_file "netmap $prog: $np ranks" "$results/$prog.$tag.dat" "$np" outputs_netmap_shape
    done
    [ "$np" -ge 4 ] && outputs_check_file "netmap locate: $np ranks judged" "$results/locate.$tag.dat" \
        "$np" outputs_netmap_locate_shape
    n=$(find "$results" -name "*.$tag.dat" | wc -l)
    if grep -q ' 0 failed$' "$log" && grep -q "^commsweep: $n written" "$log"; then
        ok "job log: $n files written, none failed"
    else
        not_ok "job log: $n files written, none failed" "$(grep '^commsweep: ' "$log" | tail -n 5)"
    fi
}

# The network map's files hold words (host names, ring kinds) and a
# map's diagonal is nan: they are checked here instead of by
# outputs_numbers_ok. A pairs file's first block is a matrix of NP lines of
# NP fields, nan on the diagonal and positive numbers elsewhere.
outputs_netmap_pairs_shape() { # FILE NP
    awk -v n="$2" '/^#/ { next } /^[[:space:]]*$/ { if (r) exit; next }
        { r++; if (NF != n) bad = 1
          for (i = 1; i <= NF; i++) if (i == r ? $i != "nan" : !($i + 0 > 0)) bad = 1 }
        END { exit bad || r != n }' "$1" || echo "not an $2 x $2 matrix with nan on its diagonal"
}
# A locate file: its verdict over NP nodes, and NP node rows.
outputs_netmap_locate_shape() { # FILE NP
    grep -q "^# verdict: $2 nodes and " "$1" &&
        [ "$(awk '/^#/ || /^[[:space:]]*$/ { next } $NF ~ /^(ok|cleared|named)$/' "$1" | wc -l)" = "$2" ] ||
        echo "no verdict over $2 nodes, or not $2 node rows"
}
# Any other netmap file: data rows whose last field is a positive number.
outputs_netmap_shape() { # FILE NP
    awk '/^#/ || /^[[:space:]]*$/ { next } { n++; if (!($NF + 0 > 0)) bad = 1 }
        END { exit bad || n == 0 }' "$1" || echo "no data rows, or one without a positive last field"
}

# A PNG beside every file that has something to plot (every file but OSU
# output without a size column, and the network map's tables); pairs
# files have one per matrix, NAME-bandwidth-shifted.png and NAME-latency.png.
outputs_check_plots() { # RESULTS TAG
    local f want=0 missing=()
    for f in "$1"/*."$2".dat; do
        [ -f "$f" ] || continue
        case "$(basename "$f")" in
            osu_*) grep -q '^# Size' "$f" || continue ;;
            rings.* | bisection.* | congestion.* | locate.*) continue ;;
            pairs.*)
                want=$((want + 1))
                [ -s "${f%.dat}-bandwidth-shifted.png" ] && [ -s "${f%.dat}-latency.png" ] ||
                    missing+=("$(basename "${f%.dat}")-{bandwidth-shifted,latency}.png")
                continue ;;
        esac
        want=$((want + 1))
        [ -s "${f%.dat}.png" ] || missing+=("$(basename "${f%.dat}.png")")
    done
    if [ "$want" -gt 0 ] && [ "${#missing[@]}" = 0 ]; then
        ok "the job rendered $want PNG plots"
    else
        not_ok "the job rendered a PNG for each of $want files" "missing: ${missing[*]}"
    fi
}
