#!/usr/bin/env bash
# --precision in the network-map programs: every measurement stops after its
# --iters (--lat-iters) repetitions when the fake clock makes it precise,
# runs to ten times as many when one rank is noisy, and every rank that
# takes part stops at the same repetition (COMMSWEEP_PRECISION_TRACE), the
# lanes of a node too (a mismatch there would hang the node's reduction);
# the run's tally is a '#' line; bad values end the run with one line and
# status 2.
. "$(dirname "$0")/../lib.sh"
N="$BUILD/netmap"
SMALL="--nodes-by-block=1 --size 4096 --window 2"

# Nothing when at least MIN ranks traced, all the same counts in the same
# order, every count in ALLOWED (space-separated, or upto:N) and, with
# MUST, that count among them; else what is wrong.
same_stops() { # MIN "ALLOWED" [MUST]
    local min=$1 allowed=" $2 " must=${3:-} first="" ranks=0 r seq n
    for r in $(sed -n 's/^precision trace: rank \([0-9]*\): .*/\1/p' "$ERR" | sort -un); do
        seq=$(sed -n "s/^precision trace: rank $r: \([0-9]*\) iterations, .*/\1/p" "$ERR" | tr '\n' ' ')
        [ -z "$first" ] && first=$seq
        [ "$seq" = "$first" ] || { echo "rank $r stopped at '$seq', another at '$first'"; return; }
        ranks=$((ranks + 1))
    done
    [ "$ranks" -ge "$min" ] || { echo "$ranks ranks traced, want $min or more"; return; }
    for n in $first; do
        case $allowed in
            " upto:"*) [ "$n" -le "${allowed#*:}" ] || { echo "count $n above ${allowed#*:}"; return; } ;;
            *" $n "*) ;;
            *) echo "count $n not in ($allowed) of '$first'"; return ;;
        esac
    done
    [ -z "$must" ] || case " $first " in *" $must "*) ;; *) echo "no measurement took $must: '$first'" ;; esac
}

export COMMSWEEP_PRECISION_TRACE=1
# Quiet: each measurement stops at its count (10: enough for an interval
# of the median, which needs 8 repetitions at least).
quiet() { # NP PROGRAM ARGS...
    local np=$1 prog=$2 MIN_TRACED=$1
    shift 2
    [ "$prog" = congestion ] && MIN_TRACED=2 # the victims alone measure
    COMMSWEEP_PRECISION_CLOCK=quiet run "$np" "$N/$prog" $SMALL --iters 10 --lat-iters 10 --precision=5 "$@"
    expect_no_problems "$prog at $np ranks, a quiet clock: every measurement stops after 10 repetitions, on every rank" \
        same_stops "$MIN_TRACED" 10
}
in_parallel quiet 3 pairs
in_parallel quiet 3 pairs --mode=isolated
in_parallel quiet 3 bisection --bisections 2
in_parallel quiet 3 rings --rings 1
in_parallel quiet 4 locate
in_parallel quiet 4 congestion --victims 50 --congestor=alltoall --congestor-size 1024
in_parallel_end

# Noisy rank 1: the measurements it times run to the cap (ten times the
# count; bisection at 4 ranks, where no endpoint sits out a bisection);
# the others go by the real clock (the count, or more where this busy
# machine is noisy too); all ranks alike.
noisy() { # NP PROGRAM ALLOWED MUST ARGS...
    local np=$1 prog=$2 allowed=$3 must=$4
    shift 4
    COMMSWEEP_PRECISION_CLOCK=noisy:1 run "$np" "$N/$prog" $SMALL --iters 10 --lat-iters 10 --precision=5 --max-time=60 "$@"
    expect_no_problems "$prog at $np ranks, rank 1 noisy: its measurements run to 100 repetitions, every rank stops with it" \
        same_stops 2 "$allowed" "$must"
}
in_parallel noisy 4 bisection "100" 100 --bisections 2
in_parallel noisy 3 rings "100" 100 --rings 1
in_parallel noisy 3 pairs upto:100 100 --mode=isolated
in_parallel noisy 4 locate upto:100 100
in_parallel_end

# Lanes: two ranks per node, the victims' lanes decide together (rank 1:
# the second lane of the first victim node).
COMMSWEEP_PRECISION_CLOCK=noisy:1 run 8 "$N/congestion" --nodes-by-block=2 --ranks-per-node=2 --size 4096 \
    --iters 10 --lat-iters 10 --precision=5 --max-time=60 --victims 50 --congestor=alltoall --congestor-size 1024
expect_no_problems "congestion, 4 nodes of 2 lanes, a victim's lane noisy: the victims' lanes run to 100 repetitions together" \
    same_stops 4 "100" 100
expect '[ "$RC" = 0 ] && grep -q "^# precision: 0 of [0-9]* measurements came within 5% (repetitions 100 to 100;" "$OUT"' \
    "congestion --precision: the tally line says none came within"
unset COMMSWEEP_PRECISION_TRACE

# Without --precision: no tally, the counts as given.
run 3 "$N/rings" $SMALL --iters 3 --lat-iters 4 --rings 1
expect '[ "$RC" = 0 ] && ! grep -q "^# precision" "$OUT"' "rings without --precision: no precision line"

for bad in "--precision=0" "--precision=x" "--precision=200" "--max-time=2" "--precision=3 --max-time=0"; do
    # shellcheck disable=SC2086
    run 3 "$N/rings" $SMALL $bad
    expect_usage_error "rings $bad: one line, status 2" rings
done
summary
