#!/usr/bin/env bash
# CPM model builder and predictor end to end: every model at 2, 3 and 4
# ranks with a small message set, then prediction on the files written,
# then malformed input refused with status 2.
. "$(dirname "$0")/../lib.sh"
MODEL="$BUILD/cpm/model"
PRED="$BUILD/cpm/prediction"
SMALL="-m 0 -M 2048 -S 1024 -r 2 -R 3"

# At least one data line, and every field of each a number.
numeric_lines() { data_lines "${1:-$OUT}" | awk '{n++; for(i=1;i<=NF;i++) if ($i !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) bad=1} END{exit bad || !n}'; }

for np in 2 3 4; do
    for m in Hockney LinInterp PLogP LMO; do
        f="$TMPD/$m-$np.out"
        run "$np" "$MODEL" -C "$m" -o "$f" $SMALL
        if [ "$m" = LMO ] && [ "$np" -lt 3 ]; then
            expect_usage_error "model -C LMO at $np ranks refused (needs triplets)" model
            continue
        fi
        expect '[ "$RC" = 0 ] && head -1 "$f" | grep -qx "model $m"' "model -C $m at $np ranks writes its file"
        expect 'grep -q "^# model written to" "$OUT" && grep -q "^# processors: $np" "$OUT"' \
            "model -C $m at $np ranks reports its preamble"

        run1 "$PRED" -n "$np" -O p2p -i "$f" -C "$m" -m 1024 -M 2048
        want=$((np * (np - 1) * 2))
        expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = "$want" ] && numeric_lines' \
            "prediction p2p from the $m file at $np ranks: $want lines"
        expect '[ "$(count_blocks)" = "$((np * (np - 1)))" ]' \
            "prediction p2p from the $m file at $np ranks: one block per pair"
        run1 "$PRED" -n "$np" -O scatter_binomial -i "$f" -C "$m" -m 0 -M 4096 -S 1024
        expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 5 ] && numeric_lines' \
            "prediction scatter_binomial from the $m file at $np ranks"
    done
done

# The model's own collective predictions and the LogGP view of PLogP data.
run1 "$PRED" -n 4 -O hsg_binomial -i "$TMPD/Hockney-4.out" -C Hockney -M 4096
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 14 ]' "prediction hsg_binomial (Hockney), doubling sizes"
run1 "$PRED" -n 4 -O hsg_linear -i "$TMPD/PLogP-4.out" -C LogGP -m 1 -M 1024
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 11 ]' "prediction hsg_linear with LogGP from a PLogP file"
run1 "$PRED" -n 3 -O gather_flat -i "$TMPD/LMO-3.out" -C LMO -M 2048 -S 512
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 5 ] && numeric_lines' "prediction gather_flat (LMO)"
run1 "$PRED" -n 3 -O MPIB_Scatter_binomial -i "$TMPD/Hockney-3.out" -C Hockney -m 1024 -M 2049
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 2 ]' "prediction accepts the MPIBlib operation name"

# Hockney from two sizes, the parallel experiments, adaptive sets, homogeneous LMO.
run 3 "$MODEL" -C Hockney --two-point -o "$TMPD/h2.out" -M 1024 -r 2 -R 3
expect '[ "$RC" = 0 ] && [ "$(grep -c "^[0-9]" "$TMPD/h2.out")" = 3 ]' "model -C Hockney --two-point"
run 4 "$MODEL" -C LinInterp -p -o "$TMPD/lp.out" $SMALL
expect '[ "$RC" = 0 ] && grep -q "^# experiments: parallel" "$OUT" && [ "$(grep -c "^[0-9]" "$TMPD/lp.out")" = 6 ]' \
    "model -p at 4 ranks measures all 6 pairs"
run 4 "$MODEL" -C LMO -p --homogeneous -o "$TMPD/lh.out" -m 0 -M 4096 -S 0 -s 512 -d 0.2 -n 8 -r 2 -R 3
expect '[ "$RC" = 0 ] && grep -qx "homogeneous 1" "$TMPD/lh.out" && [ "$(grep -c "^link" "$TMPD/lh.out")" = 1 ]' \
    "model -C LMO --homogeneous -p with an adaptive set"
run1 "$PRED" -n 4 -O scatter_flat -i "$TMPD/lh.out" -C LMO -m 1024 -M 2048
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 2 ]' "prediction from the homogeneous LMO file"

# Bad input: one line, status 2.
refused 2 model "model without -C refused" "$MODEL" -o "$TMPD/x.out"
refused 2 model "model without -o refused" "$MODEL" -C Hockney
refused 2 model "model with an unknown model refused" "$MODEL" -C Bogus -o "$TMPD/x.out"
refused 2 model "model -r 0 refused" "$MODEL" -C Hockney -o "$TMPD/x.out" -r 0
refused 2 model "model with min above max refused" "$MODEL" -C Hockney -o "$TMPD/x.out" -m 10 -M 5
refused 2 model "model -c 1.5 refused" "$MODEL" -C Hockney -o "$TMPD/x.out" -c 1.5
refused 2 model "model with an unwritable file refused" "$MODEL" -C Hockney -o /nonexistent/dir/x.out -M 1024
refused 1 model "model at 1 rank refused" "$MODEL" -C Hockney -o "$TMPD/x.out" $SMALL
refused 2 model "model with an impossible -M refused" "$MODEL" -C Hockney -o "$TMPD/x.out" -M 100000000000000000
refused 2 model "model Hockney regression with one size refused" "$MODEL" -C Hockney -o "$TMPD/x.out" -m 0 -M 0

refused 0 prediction "prediction with the wrong number of processes refused" "$PRED" -n 3 -O p2p -i "$TMPD/Hockney-4.out" -C Hockney
refused 0 prediction "prediction of a Hockney file as LMO refused" "$PRED" -n 4 -O p2p -i "$TMPD/Hockney-4.out" -C LMO
refused 0 prediction "prediction of an unknown operation refused" "$PRED" -n 4 -O bogus -i "$TMPD/Hockney-4.out" -C Hockney
refused 0 prediction "prediction of another model's operation refused" "$PRED" -n 4 -O hsg_linear -i "$TMPD/Hockney-4.out" -C Hockney
head -c 60 "$TMPD/Hockney-4.out" > "$TMPD/cut.out"
refused 0 prediction "prediction of a truncated file refused" "$PRED" -n 4 -O p2p -i "$TMPD/cut.out" -C Hockney
sed 's/^0 1 /0 1 x/' "$TMPD/Hockney-4.out" > "$TMPD/nan.out"
refused 0 prediction "prediction of a non-numeric file refused" "$PRED" -n 4 -O p2p -i "$TMPD/nan.out" -C Hockney
refused 0 prediction "prediction of a missing file refused" "$PRED" -n 4 -O p2p -i "$TMPD/none.out" -C Hockney
refused 0 prediction "prediction -n 0 refused" "$PRED" -n 0 -O p2p -i "$TMPD/Hockney-4.out" -C Hockney
refused 0 prediction "prediction without -n refused" "$PRED" -O p2p -i "$TMPD/Hockney-4.out" -C Hockney
