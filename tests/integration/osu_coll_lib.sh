# Checks shared by the collective integration scripts (sourced after lib.sh;
# osu_coll_checker.sh tests the checks themselves).

# The sizes a program must print for -m MIN:MAX: doubling, reductions only
# whole 4-byte floats, barriers none.
coll_sizes() { # PROGRAM MIN MAX
    case $1 in *barrier | *barrier_persistent) return ;; esac
    doubling_sizes "$2" "$3" "$(case $1 in *reduce*) echo 4 ;; *) echo 1 ;; esac)"
}

# Checks $OUT of a run with -f -c: the heading, the first column against
# SIZES, every row's width (OMB 7.4's: size 10, values 18, Iterations 12;
# the barriers' first column as wide as its heading), min <= avg <= max, the
# iteration count (blocking) and Pass (barriers: no size column, no
# validation). Non-blocking -f columns: Overall, Compute, Coll. Init,
# MPI_Test, MPI_Wait, Pure Comm., Min Comm., Max Comm., Overlap; their
# min <= avg <= max is that of the pure communication.
coll_check_full() { # PROGRAM ITERS SIZES
    local p=$1 iters=$2 sizes=$3 heading sized=1 pass=1 values got w avg iter
    local nb='Overall\(us\) +Compute\(us\) +Coll\. Init\(us\) +MPI_Test\(us\) +MPI_Wait\(us\) +Pure Comm\.\(us\) +Min Comm\.\(us\) +Max Comm\.\(us\) +Overlap\(%\)'
    case $p in
        ibarrier) heading="^# $nb\$" sized=0 pass=0 values=9 w=$((13 + 8 * 18)) avg=6 iter=0 ;;
        barrier | barrier_persistent) heading='^# Avg Latency\(us\) +Min Latency\(us\) +Max Latency\(us\) +Iterations$'
                 sized=0 pass=0 values=4 w=$((17 + 2 * 18 + 12)) avg=1 iter=4 ;;
        i*) heading="^# Size +$nb +Validation\$" values=10 w=$((10 + 10 * 18)) avg=6 iter=0 ;;
        *) heading='^# Size +Avg Latency\(us\) +Min Latency\(us\) +Max Latency\(us\) +Iterations +Validation$'
           values=5 w=$((10 + 3 * 18 + 12 + 18)) avg=1 iter=4 ;;
    esac
    grep -qE "$heading" "$OUT" || { echo "no heading matching /$heading/"; return 1; }
    if [ $sized = 1 ]; then
        got=$(data_lines | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//')
        [ "$got" = "$sizes" ] || { echo "sizes: got '$got', want '$sizes'"; return 1; }
    fi
    data_lines | awk -v n="$values" -v it="$iters" -v sized=$sized -v pass=$pass -v w=$w \
        -v a=$avg -v itcol=$iter '
        { f = sized + n; avg = $(sized + a); min = $(sized + a + 1); max = $(sized + a + 2) }
        length($0) != w { print "width " length($0) " want " w ": " $0; bad = 1 }
        NF != f { print NF " fields, want " f ": " $0; bad = 1 }
        !(min + 0 <= avg + 0 && avg + 0 <= max + 0) { print "not min <= avg <= max: " $0; bad = 1 }
        itcol && $(sized + itcol) != it { print "iterations: " $0; bad = 1 }
        pass && $NF != "Pass" { print "validation: " $0; bad = 1 }
        END { if (NR == 0) { print "no data rows"; bad = 1 }; exit bad }'
}

# What the build's compiler wrapper preprocesses WORD into, with HEADER
# included: how osu/coll.mk and the Makefile ask the MPI library.
coll_build_define() { # HEADER WORD
    local cc
    cc=$(sed -n 's/.* MPICC=\(.*\) CFLAGS=.*/\1/p' "$BUILD/.config" 2>/dev/null)
    echo "$2" | ${cc:-mpicc} -E -I"$TOP/common" -include "$1" -x c - 2>/dev/null | tail -n 1
}
# The collectives that have a persistent program, osu_NAME_persistent
# (osu/coll.mk's COLL_PERSISTENT).
COLL_PERSISTENT_NAMES="allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast
    gather gatherv reduce reduce_scatter scatter scatterv"
# Whether $BUILD has the persistent collectives (common/pcoll.h).
# MPICH 4.0-4.2's default schedules of persistent allgather, gather and
# scatter deliver wrong data (pmodels/mpich#6423, #7078; see
# osu_coll_persistent.sh): selects the ring and tree ones, which do not.
coll_mpich_persistent_schedules() {
    case $(coll_build_mpich_version) in
        4.[012].*)
            export MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM=tsp_ring
            export MPIR_CVAR_IGATHER_INTRA_ALGORITHM=tsp_tree MPIR_CVAR_ISCATTER_INTRA_ALGORITHM=tsp_tree
            ;;
    esac
}
coll_persistent_built() { [ "$(coll_build_define pcoll.h PCOLL_AVAILABLE)" = 1 ]; }
# MPICH's version (4.0.2) when $BUILD is built with MPICH, else nothing.
coll_build_mpich_version() { coll_build_define mpi.h MPICH_VERSION | sed -n 's/^"\(.*\)"$/\1/p'; }

# Prints why PROGRAM at NP ranks may fail for a reason outside this suite (a
# defect of the MPI library); nothing by default. A script that knows one
# defines its own; coll_run_programs then skips that failed run.
coll_known_failure() { :; } # PROGRAM NP

# Every program named (osu_ left out) at 1, 2, 3, 4 and 8 ranks (short,
# under MPICH: 1, 3 and 8) with -c -f: status 0, then coll_check_full.
coll_run_programs() { # NAME...
    local np p nps="1 2 3 4 8"
    test_short && nps="1 3 8"
    for np in $nps; do
        for p in "$@"; do in_parallel coll_run_program "$p" "$np"; done
    done
    in_parallel_end
}
coll_run_program() { # NAME NP
    local p=$1 np=$2 prog=osu_$1 max iters msg known
    # 8 ranks share 2 cores: fewer sizes and iterations; fewer still where
    # the ranks poll (short: MPICH), 4 sizes, the small ones of the others.
    if [ "$np" = 8 ]; then max=64 iters=2; else max=1024 iters=3; fi
    [ "$np" = 8 ] && test_short && max=8
    run "$np" "$BUILD/osu/$prog" -m 1:$max -i $iters -x 1 -c -f
    if [ "$RC" != 0 ] && known=$(coll_known_failure "$prog" "$np") && [ -n "$known" ]; then
        skip "$prog at $np ranks: status $RC" "$known"
        return
    elif [ "$RC" != 0 ]; then
        not_ok "$prog at $np ranks" "status $RC
$(head -c 1500 "$ERR")"
        return
    fi
    msg=$(coll_check_full "$p" "$iters" "$(coll_sizes "$p" 1 $max)") \
        && ok "$prog at $np ranks: headings, sizes, widths, min <= avg <= max, Pass" \
        || not_ok "$prog at $np ranks" "$msg"
}

# Bad input: one line from the program, status 2 on every rank (2 ranks).
bad() { # DESCRIPTION PROGRAM ARGS...
    local what=$1 prog=$2; shift 2
    run 2 "$BUILD/osu/$prog" "$@"
    expect_usage_error "$prog $what refused" "$prog"
}

# A corrupted receive buffer (COMMSWEEP_CORRUPT on RANK) fails validation:
# the failing size's row ends in Fail (the last row; the sizes before it
# Pass), one message on stderr names it and matches WANT_REGEX, status 1.
corrupt() { # DESCRIPTION NP PROGRAM RANK WANT_REGEX ARGS...
    local what=$1 np=$2 prog=$3 rank=$4 want=$5; shift 5
    COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=$rank run $np "$BUILD/osu/$prog" "$@"
    local failed
    failed=$(sed -n "s/^$prog: validation failed at size \([0-9]*\) .*/\1/p" "$ERR")
    if [ "$RC" = 1 ] && [ "$(program_lines "$prog")" = 1 ] \
        && grep -qE "^$prog: validation failed at size $want" "$ERR" \
        && data_lines | tail -1 | awk -v s="$failed" '$1 != s || $NF != "Fail" { exit 1 }' \
        && ! data_lines | sed '$d' | grep -qv ' Pass$'; then
        ok "$prog: $what prints the row with Fail, one message, status 1"
    else
        not_ok "$prog: $what" "status $RC (want 1), $(program_lines "$prog") messages (want 1) \
matching /$want/, last row for size '$failed' ending in Fail:
$(data_lines | tail -2)
$(head -c 1200 "$ERR")"
    fi
}
