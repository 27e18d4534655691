# Checks shared by the collective integration scripts (sourced after lib.sh).
# The runner also executes this file: then it tests the checks themselves.

# The sizes a program must print for -m MIN:MAX: doubling, reductions only
# whole 4-byte floats, barriers none.
coll_sizes() { # PROGRAM MIN MAX
    case $1 in *barrier) return ;; esac
    awk -v lo="$2" -v hi="$3" -v r="$(case $1 in *reduce*) echo 4 ;; *) echo 1 ;; esac)" '
        BEGIN { s = lo; while (s <= hi) { if (s % r == 0) out = out (out == "" ? "" : " ") s
                                          s = s ? s * 2 : 1 }
                print out }'
}

# Checks $OUT of a run with -f -c: the heading, the first column against
# SIZES, every row's width (10 + 20 per value column), min <= avg <= max,
# the iteration count and Pass (barriers: no size column, no validation).
coll_check_full() { # PROGRAM ITERS SIZES
    local p=$1 iters=$2 sizes=$3 heading sized=1 pass=1 values got
    case $p in
        ibarrier) heading='^# Overall\(us\) +Compute\(us\) +Pure Comm\.\(us\) +Overlap\(%\) +Min Overall\(us\) +Max Overall\(us\) +Iterations$'
                  sized=0 pass=0 values=7 ;;
        barrier) heading='^# Avg Latency\(us\) +Min Latency\(us\) +Max Latency\(us\) +Iterations$'
                 sized=0 pass=0 values=4 ;;
        i*) heading='^# Size +Overall\(us\) +Compute\(us\) +Pure Comm\.\(us\) +Overlap\(%\) +Min Overall\(us\) +Max Overall\(us\) +Iterations +Validation$'
            values=8 ;;
        *) heading='^# Size +Avg Latency\(us\) +Min Latency\(us\) +Max Latency\(us\) +Iterations +Validation$'
           values=5 ;;
    esac
    grep -qE "$heading" "$OUT" || { echo "no heading matching /$heading/"; return 1; }
    if [ $sized = 1 ]; then
        got=$(data_lines | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//')
        [ "$got" = "$sizes" ] || { echo "sizes: got '$got', want '$sizes'"; return 1; }
    fi
    data_lines | awk -v n="$values" -v it="$iters" -v sized=$sized -v pass=$pass '
        { w = 10 * sized + 20 * n; f = sized + n; last = NF - pass
          avg = $(sized + 1); min = $(last - 2); max = $(last - 1) }
        length($0) != w { print "width " length($0) " want " w ": " $0; bad = 1 }
        NF != f { print NF " fields, want " f ": " $0; bad = 1 }
        !(min + 0 <= avg + 0 && avg + 0 <= max + 0) { print "not min <= avg <= max: " $0; bad = 1 }
        $last != it { print "iterations: " $0; bad = 1 }
        pass && $NF != "Pass" { print "validation: " $0; bad = 1 }
        END { if (NR == 0) { print "no data rows"; bad = 1 }; exit bad }'
}

# Run as a script, it tests the checker itself: a good table passes and each
# kind of defect is caught, so the program tests cannot pass by accident.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    . "$(dirname "$0")/../lib.sh"
    table() { # ROW... (lines after the heading)
        printf '# OSU MPI Allgather Latency Test\n%-10s%20s%20s%20s%20s%20s\n' "# Size" \
            "Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" Iterations Validation > "$OUT"
        printf '%s\n' "$@" >> "$OUT"
    }
    row() { printf '%-10s%20s%20s%20s%20s%20s' "$@"; }
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
fi
