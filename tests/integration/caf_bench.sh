#!/usr/bin/env bash
# cafbench at 1, 2, 3, 4 and 8 ranks (under MPICH: up to 4, elements up to
# 4 instead of 16) with tiny sizes and --check: every
# pattern and mode runs or is skipped with a reason, data verify, sync
# overheads are finite, halo checks pass; selection of sections and modes;
# a damaged transfer fails the check; bad options are refused.
. "$(dirname "$0")/../lib.sh"
PROG="$BUILD/caf/cafbench"
SMALL="--target-time 0.001 --maxndata 16 --sync-outer 3 --sync-inner 5 --sync-delay 100 --halo-sizes 4,6"

PATTERNS="%s sub%s simple_sub%s all_%s many_%s sub_many%s many_sub%s strided_%s strided_sub%s strided_many_%s"
# The full --check runs' --maxndata: 16, or 4 where the ranks poll (short:
# MPICH), each of its ~600 measurements slowed by the waiting ranks (the
# sizes above 4 run under Open MPI).
CHECK_MAX=16
test_short && CHECK_MAX=4
CHECK_SMALL=${SMALL/--maxndata 16/--maxndata $CHECK_MAX}
# Data lines per block at --maxndata $CHECK_MAX (a power of 2): sizes 1..max
# and strides max..1 (5 at 16), strided many strides max..2 (4 at 16).
lines_for() {
    local n=1 s
    for ((s = CHECK_MAX; s > 1; s /= 2)); do n=$((n + 1)); done
    case "$1" in strided_many_*) echo $((n - 1)) ;; *) echo $n ;; esac
}

# Data lines of the block that follows the comment line starting with $1.
block_lines() {
    awk -v h="$1" 'index($0, h) == 1 {inb = 1; next}
        inb && /^[[:space:]]*$/ {exit}
        inb && !/^#/ {print}' "$OUT"
}

# Every p2p data line: 9 numbers, ndata = count * blksize, positive times.
p2p_lines_valid() {
    awk '/^# p2p pattern=/ {inb = 1; next} /^[[:space:]]*$/ {inb = 0; next} /^#/ {next}
        inb { if (NF != 9 || $4 != $1 * $2 || $6 < 1 || !($7 > 0) || !($8 > 0) || !($9 > 0)) bad++; n++ }
        END {exit (bad > 0 || n == 0)}' "$OUT"
}

check_mode() { # NP MODE EXPECTED(run|skip)
    local np=$1 mode=$2 want=$3 missing="" s p d name n
    if [ "$want" = skip ]; then
        expect "grep -q '^# p2p mode=$mode skipped: .* (have $np)' '$OUT' && ! grep -q 'mode=$mode sync' '$OUT'" \
            "np $np: $mode ping-pong skipped with a reason"
        return
    fi
    n=$(block_lines "# p2p pattern=mpi_send mode=$mode sync=none" | wc -l)
    [ "$n" = "$(lines_for mpi_send)" ] || missing="$missing mpi_send($n)"
    for s in sync_all sync_images; do
        for p in $PATTERNS; do
            for d in put get; do
                # shellcheck disable=SC2059
                name=$(printf "$p" "$d")
                n=$(block_lines "# p2p pattern=$name mode=$mode sync=$s:" | wc -l)
                [ "$n" = "$(lines_for "$name")" ] || missing="$missing $name/$s($n)"
            done
        done
    done
    if [ -z "$missing" ]; then ok "np $np: $mode: mpi_send and 20 patterns x 2 syncs, every size"
    else not_ok "np $np: $mode: every pattern and size" "missing or short:$missing"; fi
}

# A sync line "NAME NNEIGH OVERHEAD +/- SPREAD REF REF_SD LOOP LOOP_SD
# OUTLIERS SAMPLES" with finite numbers (decimal notation; nan, inf and
# words fail), overhead = loop - reference, spread = 1.96 (sd + ref sd), and
# a reference of at least 0.2 ns per addition of the delay (--sync-delay 100
# is 10000 dependent additions: 2 us or more).
sync_line_ok() { # NAME NNEIGH
    awk -v n="$1" -v k="$2" '$1 == n && $2 == k && $4 == "+/-" && NF == 11 {
        for (i = 3; i <= NF; i++)
            if (i != 4 && $i !~ /^[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/) { bad = 1; exit }
        d = $3 - ($8 - $6); s = $5 - 1.96 * ($7 + $9)
        if (d * d > 1e-4 || s * s > 1e-4 || $6 < 2 || $11 != 3) { bad = 1; exit }
        found = 1 } END {exit bad || !found}' "$OUT"
}

# Whether both lock and critical lines of FILE show a loop at least 0.8
# times the reference.
serialised() { # FILE
    awk '($1 == "lock" || $1 == "critical") && NF == 11 { if ($8 >= 0.8 * $6) n++ }
        END {exit n != 2}' "$1"
}

check_sync() { # NP
    local np=$1 bad="" t
    for t in "sync_all 0" "mpi_barrier 0" "lock 0" "critical 0"; do
        sync_line_ok $t || bad="$bad $t"
    done
    if [ $((np % 2)) = 0 ]; then sync_line_ok images_pairwise 1 || bad="$bad pairwise"
    else grep -q '^# sync images_pairwise skipped: ' "$OUT" || bad="$bad pairwise-skip"; fi
    # Ring and random for 2, 4, ... up to min(12, np - 2), ring first.
    local want="" got k
    for ((k = 2; k <= np - 2 && k <= 12; k += 2)); do want="$want ring$k random$k"; done
    got=$(awk '$1 == "images_ring" || $1 == "images_random" {sub("images_", "", $1); printf " %s%s", $1, $2}' "$OUT")
    [ "$got" = "$want" ] || bad="$bad ring/random($got, want$want)"
    for k in $want; do
        case $k in ring*) sync_line_ok images_ring "${k#ring}" || bad="$bad $k" ;;
            random*) sync_line_ok images_random "${k#random}" || bad="$bad $k" ;; esac
    done
    if [ -z "$want" ]; then
        grep -q '^# sync images_ring skipped: ' "$OUT" && grep -q '^# sync images_random skipped: ' "$OUT" \
            || bad="$bad random/ring-skip"
    fi
    # The 3-D grid from 8 images; at 8 (2x2x2) image 1 has 3 distinct partners.
    if [ "$np" -ge 8 ]; then sync_line_ok images_grid3d 3 || bad="$bad grid3d"
    else grep -q '^# sync images_grid3d skipped: needs at least 8 images' "$OUT" || bad="$bad grid3d-skip"; fi
    if [ "$np" = 2 ]; then
        # The delay is inside the lock: the serialised delays take at least
        # the reference each (a delay outside it would overlap: ref / np).
        # Only where each rank can have a core: oversubscribed, the
        # reference itself is slowed by the other ranks' delays. One
        # reference measured while another process held a core can be
        # inflated, so a miss is measured once more before it counts.
        if ! serialised "$OUT"; then
            timeout -k 5 "$TEST_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n 2 "$PROG" --sync $SMALL \
                > "$TMPD/sync-again" 2> /dev/null
            serialised "$TMPD/sync-again" || bad="$bad lock/critical-serialised"
        fi
    fi
    if [ -z "$bad" ]; then ok "np $np: every synchronisation overhead is a finite number or skipped"
    else not_ok "np $np: synchronisation overheads" "bad:$bad"; fi
}

check_halo() { # NP
    local np=$1 bad="" d s
    for d in put get; do
        for s in sync_all sync_images; do
            block_lines "# halo transfer=$d sync=$s" > "$TMPD/halo"
            awk 'NF == 6 && $2 == 6 * $1 * $1 && $3 >= 1 && $5 > 0 && $6 > 0 {n++} END {exit n != 2}' \
                "$TMPD/halo" || bad="$bad $d/$s"
            grep -q "^# check passed: halo $d $s, every halo cell" "$OUT" || bad="$bad $d/$s-check"
        done
    done
    if [ -z "$bad" ]; then ok "np $np: halo put/get x sync all/images, sizes 4 and 6, checks pass"
    else not_ok "np $np: halo" "bad:$bad"; fi
}

# CAF_TEST_NPS: the rank counts of the full --check runs (the MPICH check
# leaves out 8, see tests/mpich/check.sh).
for np in ${CAF_TEST_NPS:-1 2 3 4 8}; do
    run "$np" "$PROG" --check $CHECK_SMALL
    expect '[ "$RC" = 0 ]' "np $np: --check run succeeds"
    expect "! grep -q 'FAILED' '$OUT' && grep -q '^# all results validated' '$OUT'" "np $np: every check passes"
    expect "grep -q '^# data verification: on (timed, as the original: .*global check' '$OUT'" \
        "np $np: the header says the checks and global checks are timed"
    case $np in
        1) modes="single:skip multiple:skip crossing:skip" ;;
        2|3) modes="single:run multiple:skip crossing:skip" ;;
        *) modes="single:run multiple:run crossing:run" ;;
    esac
    for m in $modes; do check_mode "$np" "${m%%:*}" "${m##*:}"; done
    [ "$np" -ge 2 ] && expect p2p_lines_valid "np $np: every p2p line has 9 consistent numbers"
    check_sync "$np"
    check_halo "$np"
done

# Crossing pairs at 8: 1->5, 6->2, 3->7, 8->4 (images). The pairing does not
# depend on the MPI library: the short run (MPICH, 54 s at 8 ranks) takes 4.
if test_short; then
    run 4 "$PROG" --p2p --crossing $SMALL
    pairs="1->3 4->2"
else
    run 8 "$PROG" --p2p --crossing $SMALL
    pairs="1->5 3->7 6->2 8->4"
fi
expect "[ \"\$RC\" = 0 ] && grep -q 'mode=crossing pairs (first mover -> partner, images): $pairs' '$OUT'" \
    "crossing pairs reverse every other pair: $pairs"
expect "! grep -q 'mode=single\|mode=multiple\|section sync\|section halo' '$OUT'" \
    "--p2p --crossing runs only that section and mode"

# Every block statement completes (as in Fortran): the loops make one local
# completion per block (16 at maxndata 16, 8 for strided many), the single
# statements one.
run 2 "$PROG" --p2p --single $SMALL
completions_ok() {
    awk '/^# p2p [a-z_]+: image 1 made [0-9]+ local completions per transfer at count/ {
            n++; want = ($3 ~ /^(many_|sub_many)/) ? 16 : ($3 ~ /^strided_many_/) ? 8 : 1
            if ($7 != want || ($3 ~ /many/ && $7 != $NF)) bad++ }
        END {exit bad > 0 || n != 40}' "$OUT"
}
expect "[ \"\$RC\" = 0 ] && completions_ok" "np 2: many/sub_many/many_sub complete every block, one completion otherwise"

# Units: latency = time / (2 repetitions) and bandwidth = 8 ndata / latency,
# in us and MB/s by default, in s and MiB/s with --original-units, as the
# column names and the header say.
units_ok() { # LATENCY_SCALE BANDWIDTH_PER_BYTE_PER_S LATENCY_NAME BANDWIDTH_NAME
    awk -v ls="$1" -v bs="$2" -v ln="$3" -v bn="$4" '
        function near(a, b) { return (a - b) * (a - b) <= 1e-8 * b * b + 1e-30 }
        /^# p2p pattern=[a-z_]+ mode=single sync=sync_all:/ {inb = 1; next}
        inb && /^#  *count/ { if ($9 != ln || $10 != bn) bad++; next }
        /^[[:space:]]*$/ {inb = 0; next} /^#/ {next}
        inb { n++; lat = $7 / (2 * $6)
              if (!near($8 / ls, lat) && ($8 / ls - lat) ^ 2 > (1e-5 * lat) ^ 2) bad++
              if (($9 - 8 * $4 / lat * bs) ^ 2 > (1e-4 * $9) ^ 2) bad++ }
        END {exit bad > 0 || n == 0}' "$OUT"
}
expect "units_ok 1e6 1e-6 'latency[us]' 'bandwidth[MB/s]' && grep -q 'units: latency in microseconds, bandwidth in MB/s' '$OUT'" \
    "np 2: default units us and MB/s, values and header"
run 2 "$PROG" --p2p --single --original-units $SMALL
expect "[ \"\$RC\" = 0 ] && units_ok 1 9.5367431640625e-07 'latency[s]' 'bandwidth[MiB/s]' && grep -q 'units: latency in seconds, bandwidth in MiB/s' '$OUT'" \
    "np 2: --original-units gives s and MiB/s, values and header"

# At 2 images the grid is 2x1x1 in MPI's order: the contiguous z faces (the
# slowest index) go to the other image, the strided x faces to oneself.
run 2 "$PROG" --halo --check $SMALL
expect "[ \"\$RC\" = 0 ] && grep -q '^# halo image 1 partners .*: x 1 1, y 1 1, z 2 2 ' '$OUT'" \
    "np 2: halo z faces go to the other image, x and y faces to itself"

run 2 "$PROG" --sync --halo $SMALL
expect "[ \"\$RC\" = 0 ] && ! grep -q 'section p2p' '$OUT' && grep -q 'section sync' '$OUT' && grep -q 'section halo' '$OUT'" \
    "--sync --halo leaves out the p2p section"
expect '[ "$(count_blocks)" = 5 ]' "sync table and 4 halo tables are separate gnuplot blocks"

# Ring sizes at 5 and 6 images too (3, 4 and 8 are above); short (MPICH),
# where the ring sizes are the same arithmetic, 3 and 4 only.
test_short && ring_nps="" || ring_nps="5 6"
for np in $ring_nps; do
    run "$np" "$PROG" --sync $SMALL
    expect '[ "$RC" = 0 ]' "np $np: --sync run succeeds"
    check_sync "$np"
done

# Lock and critical: inner/images per image (at least 2), the rescaling said.
run 3 "$PROG" --sync $SMALL
expect "[ \"\$RC\" = 0 ] && grep -q '^# sync lock: 2 per image x 3 images = 6 delays per sample instead of 5' '$OUT'" \
    "np 3: lock does 2 delays per image, 6 per sample, and says so"

export COMMSWEEP_CORRUPT=1
run 2 "$PROG" --p2p --single --check $SMALL
expect "[ \"\$RC\" = 1 ] && grep -q '^# check FAILED: put ' '$OUT' && grep -q 'check failed: put received' '$ERR'" \
    "damaged ping-pong data fails --check with status 1"
run 4 "$PROG" --halo --check $SMALL
expect "[ \"\$RC\" = 1 ] && grep -q '^# check FAILED: halo put sync_all' '$OUT' && grep -q 'halo face' '$ERR'" \
    "damaged halo cell fails --check with status 1"
run 2 "$PROG" --halo $SMALL
expect '[ "$RC" = 0 ]' "without --check the damage goes unnoticed by design (status 0)"
unset COMMSWEEP_CORRUPT

for bad in "--maxndata abc" "--maxndata -4" "--maxndata 0" "--maxndata 12" \
    "--maxndata 99999999999999999999999" "--maxstride 0" "--target-time 0" \
    "--target-time -1" "--target-time 1e999" "--target-time 1x" \
    "--target-time=99999999999999999999999" "--target-time 86401" "--sync-outer x" \
    "--sync-inner 0" "--sync-delay -3" "--sync-maxneigh 1" "--halo-sizes 4,,6" \
    "--halo-sizes 4," "--halo-sizes 4,x" "--halo-sizes 0" "--halo-sizes 5000" "--bogus" "stray" \
    "--timeout -1" "--timeout 86401" "--timeout x"; do
    # shellcheck disable=SC2086
    in_parallel refused 0 cafbench "refused: $bad" "$PROG" $bad
done
in_parallel_end
# --timeout: a measurement that a rank never reaches (the test hook) ends
# the run with status 3 and lines naming it and the measurement, in each
# section.
for section in "p2p:mpi_send count 1 blksize 1 stride 1" "halo:halo put sync_all n 4" "sync:sync sync_all"; do
    COMMSWEEP_STALL_RANK=1 run 3 "$PROG" "--${section%%:*}" --timeout=1 --maxndata 8 --target-time 0.01 \
        --halo-sizes 4 --sync-outer 2 --sync-inner 2
    expect_stalled "--${section%%:*} --timeout=1, rank 1 stalled: status 3 within seconds, a line naming rank 1 and the measurement" \
        cafbench 1 20 "${section#*:}"
done

# The same verdict on every rank: status 2 from all, one message.
for bad in "--maxndata 12" "--halo-sizes 4,,6" "--sync-inner 0"; do
    run 3 "$PROG" $bad
    expect_usage_error "refused at 3 ranks: $bad" cafbench
done
