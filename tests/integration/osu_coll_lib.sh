# Checks shared by the collective integration scripts (sourced after lib.sh;
# osu_coll_checker.sh tests the checks themselves).

# The sizes a program must print for -m MIN:MAX: doubling, reductions only
# whole 4-byte floats, barriers none.
coll_sizes() { # PROGRAM MIN MAX
    case $1 in *barrier) return ;; esac
    doubling_sizes "$2" "$3" "$(case $1 in *reduce*) echo 4 ;; *) echo 1 ;; esac)"
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
