#!/usr/bin/env bash
# CPM inputs at their edges: a maximum size below the stride still gives a
# model of two sizes with a size dependence; message sets too small for a
# model, flags a model does not take and model files for another number of
# processes are refused with one line and status 2 (the files at their
# header, before anything is allocated); parallel triplet rounds with idle
# ranks; model files cut at any of their last 20 bytes, hexadecimal floats,
# a directory and C1 control bytes refused with one line.
. "$(dirname "$0")/../lib.sh"
MODEL="$BUILD/cpm/model"
PRED="$BUILD/cpm/prediction"
P2P="$BUILD/cpm/p2p"
FEW="-r 2 -R 3"

# -M 4096 with the default stride of 8192: sizes 0 and 4096.
run 2 "$MODEL" -C Hockney -M 4096 $FEW -o "$TMPD/h.out"
expect '[ "$RC" = 0 ] && awk "/^0 1 / { exit !(\$4 != 0) }" "$TMPD/h.out"' \
    "model -C Hockney -M 4096 fits a nonzero time per byte"
run 2 "$MODEL" -C LinInterp -M 4096 $FEW -o "$TMPD/l.out"
expect '[ "$RC" = 0 ] && grep -qx "points 2" "$TMPD/l.out" && grep -qx "sizes 0 4096" "$TMPD/l.out"' \
    "model -C LinInterp -M 4096 measures 0 and 4096"
run 2 "$MODEL" -C PLogP -M 4096 $FEW -o "$TMPD/p.out"
expect '[ "$RC" = 0 ] && grep -qx "points 2" "$TMPD/p.out" && grep -qx "sizes 0 4096" "$TMPD/p.out"' \
    "model -C PLogP -M 4096 has two points"
expect 'awk "\$1 == \"g\" { exit !(NF == 3 && \$2 >= 0 && \$3 >= 0) }" "$TMPD/p.out"' \
    "model -C PLogP measures g at both sizes"
run 2 "$P2P" -m 0 -M 3000 -S 1024 $FEW
expect '[ "$RC" = 0 ] && [ "$(data_lines | cut -d" " -f1 | tr "\n" " ")" = "0 1024 2048 3000 " ]' \
    "p2p regular set ends with -M itself"

# Sets too small, flags the model does not take.
refused 2 model "model Hockney with one size allowed refused" "$MODEL" -C Hockney -M 4096 -n 1 -o "$TMPD/x.out"
refused 2 model "model PLogP without a size above 0 refused" "$MODEL" -C PLogP -M 0 -o "$TMPD/x.out"
refused 2 model "model Hockney --homogeneous refused" "$MODEL" -C Hockney --homogeneous -o "$TMPD/x.out"
refused 3 model "model LMO --two-point refused" "$MODEL" -C LMO --two-point -o "$TMPD/x.out"
refused 2 model "model LinInterp --two-point refused" "$MODEL" -C LinInterp --two-point -o "$TMPD/x.out"

# A model file for another number of processes: refused at its header.
for np in 8000 60000 1048576; do
    printf 'model PLogP\nprocesses %s\npoints 1\nsizes 0\n' "$np" > "$TMPD/big.out"
    start=$(date +%s)
    run1 "$PRED" -n 4 -O p2p -i "$TMPD/big.out" -C PLogP
    expect_usage_error "prediction -n 4 of a file of $np processes refused" prediction
    expect 'grep -q "big.out.*describes $np processes, expected 4" "$ERR" && [ $(( $(date +%s) - start )) -le 2 ]' \
        "the refusal names the file and both counts, at once"
done

# The same counts with -n matching: the file is read, found truncated at
# once, and nothing was allocated for the count (it grew to 9 GB).
printf 'model PLogP\nprocesses 2000\npoints 1048576\nsizes 0\n' > "$TMPD/big.out"
(ulimit -v 204800; run1 "$PRED" -n 2000 -O p2p -i "$TMPD/big.out" -C PLogP; echo "$RC" > "$TMPD/rc")
RC=$(cat "$TMPD/rc")
expect_usage_error "a 4-line file of 2000 processes and 2^20 points refused under 200 MB" prediction
expect 'grep -q "big.out, line 5: the file ends" "$ERR"' "... as truncated, not out of memory"
# Values no measurement gives, and sizes whose product with -n wraps.
printf 'model Hockney\nprocesses 2\n0 1 1e-5 -1e-9\n' > "$TMPD/neg.out"
refused 0 prediction "a negative time per byte refused" "$PRED" -n 2 -O p2p -i "$TMPD/neg.out" -C Hockney
expect 'grep -q "line 3: time per byte b: -1e-09 s/byte is negative" "$ERR"' "... naming the line and why"
printf 'model Hockney\nprocesses 2\n0 1 1e308 1e-9\n' > "$TMPD/inf.out"
refused 0 prediction "a latency of 1e308 s refused" "$PRED" -n 2 -O p2p -i "$TMPD/inf.out" -C Hockney
sed 's/1e308/1e-5/' "$TMPD/inf.out" > "$TMPD/ok.out"
refused 0 prediction "a scatter of 2^62 bytes to each of 4 processes refused" \
    "$PRED" -n 4 -O scatter_binomial -i "$TMPD/ok.out" -C Hockney -M 4611686018427387904
expect 'grep -q "does not fit in 64 bits" "$ERR"' "... because the bytes in all do not fit in 64 bits"
run1 "$PRED" -n 2 -O scatter_binomial -i "$TMPD/ok.out" -C Hockney -m 4611686018427387904 -M 4611686018427387904
expect '[ "$RC" = 0 ] && data_lines | grep -qx "4611686018427387904 4.61168602e+09"' \
    "the same size to 2 processes is predicted"

# The models' own operations listed from the registry.
run1 "$PRED" --help
expect '[ "$RC" = 0 ] && grep -q "LMO: scatter_flat:" "$OUT" && grep -q "Hockney: hsg_binomial:" "$OUT" && grep -q "LogGP: hsg_linear:" "$OUT"' \
    "prediction --help lists each model's own operations"

# Parallel triplet rounds with idle ranks (5 ranks: one triplet a round),
# and the tool's report of the LMO estimate.
run 5 "$MODEL" -C LMO -p -m 0 -M 2048 -S 1024 $FEW -o "$TMPD/lmo5.out"
expect '[ "$RC" = 0 ] && [ "$(grep -c "^link" "$TMPD/lmo5.out")" = 10 ] && grep -q "^# LMO: largest relative confidence interval" "$OUT"' \
    "model -C LMO -p at 5 ranks: every link, and the report"
run1 "$PRED" -n 5 -O gather_flat -i "$TMPD/lmo5.out" -C LMO -m 1024 -M 2048
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 2 ]' "prediction from the 5-rank LMO file"

# Model files cut at any of their last 20 bytes (a newline alone included):
# the files libcpm writes for every kind, and those model wrote above.
# A cut inside the last number read as a shorter number, with status 0.
mkdir -p "$TMPD/seeds"
"$BUILD/tests/fuzz/cpm_mutate" seeds "$TMPD/seeds"
cut_bad="" cut_runs=0
for spec in Hockney:4:seeds/Hockney.model LinInterp:4:seeds/LinInterp.model \
    PLogP:4:seeds/PLogP.model LMO:4:seeds/LMO.model LMO:3:seeds/LMOh.model \
    Hockney:2:h.out LinInterp:2:l.out PLogP:2:p.out LMO:5:lmo5.out; do
    IFS=: read -r kind np file <<< "$spec"
    size=$(wc -c < "$TMPD/$file")
    for cut in $(seq 1 20); do
        head -c $((size - cut)) "$TMPD/$file" > "$TMPD/cut.model"
        run1 "$PRED" -n "$np" -C "$kind" -O p2p -i "$TMPD/cut.model" -M 16
        cut_runs=$((cut_runs + 1))
        [ "$RC" = 2 ] && [ "$(wc -l < "$ERR")" = 1 ] || cut_bad="$cut_bad $file-$cut:$RC"
    done
    run1 "$PRED" -n "$np" -C "$kind" -O p2p -i "$TMPD/$file" -M 16
    [ "$RC" = 0 ] || cut_bad="$cut_bad $file(whole):$RC"
done
expect '[ -z "$cut_bad" ] && [ "$cut_runs" = 180 ]' \
    "9 model files cut at each of their last 20 bytes refused with one line, whole read${cut_bad:+ (not:$cut_bad)}"
# b = 7.4195638e-11 cut to 7.4195638e-1, which predicted 48,625 s.
printf 'model Hockney\nprocesses 2\n0 1 1e-5 7.4195638e-1' > "$TMPD/cut.model"
run1 "$PRED" -n 2 -C Hockney -O p2p -i "$TMPD/cut.model"
expect 'grep -q "cut.model, line 3: the last line does not end with a newline (truncated?)" "$ERR"' \
    "... a cut inside the last number says so"

# Hexadecimal floats (strtod's) are no model file's numbers.
printf 'model Hockney\nprocesses 2\n0 1 0x1p-20 1e-9\n' > "$TMPD/hex.out"
refused 0 prediction "a hexadecimal float refused" "$PRED" -n 2 -O p2p -i "$TMPD/hex.out" -C Hockney
expect 'grep -q "line 3: latency a: .0x1p-20. is not a finite number" "$ERR"' "... naming it"
# A directory, and bytes that would drive a terminal, quoted as '?'.
refused 0 prediction "a directory as a model file refused" "$PRED" -n 2 -O p2p -i "$TMPD" -C Hockney
expect 'grep -q "a folder, not a regular file" "$ERR"' "... as a folder"
printf 'model Hockney\nprocesses 2\n0 1 1\2332\233[2J 1e-9\n' > "$TMPD/c1.out"
refused 0 prediction "a C1 control byte in a number refused" "$PRED" -n 2 -O p2p -i "$TMPD/c1.out" -C Hockney
expect '! LC_ALL=C grep -q "[[:cntrl:]]" "$ERR" && ! LC_ALL=C grep -q "$(printf "\\233")" "$ERR" && grep -q "1?2?\[2J" "$ERR"' \
    "... with the byte written '?'"
