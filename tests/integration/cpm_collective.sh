#!/usr/bin/env bash
# collective's reductions and the size rule it shares with prediction:
# MPI_Reduce and MPI_Allreduce sum bytes that show every contribution
# counted once (cpm/reduce_data.h), right at 1, 2 and 4 ranks and every
# size, and a flipped bit of the sum is caught (status 1); collective and
# prediction give the same sizes for the same -m, -M and -S, doubling from
# -m up to -M by default (the manual's -m 1024 -M 2049: 1024 and 2048).
. "$(dirname "$0")/../lib.sh"
COLL="$BUILD/cpm/collective"

# Reductions sum bytes that show every contribution once (cpm/reduce_data.h):
# right at every rank count and root, and a flipped bit is caught.
for np in 1 2 4; do
    for op in MPI_Reduce MPI_Allreduce; do
        run "$np" "$COLL" -O "$op" --root $((np - 1)) -m 1 -M 4099 -r 2 -R 2
        expect '[ "$RC" = 0 ] && grep -q "^# data: checked" "$OUT" && [ "$(data_lines | wc -l)" = 13 ]' \
            "collective -O $op at $np ranks, root $((np - 1)): 13 sizes summed and checked"
    done
done
# The model-based Reduce of libcpm_coll, checked the same way.
printf 'model Hockney\nprocesses 3\n0 1 1e-5 1e-9\n0 2 2e-5 1e-9\n1 2 1e-5 2e-9\n' > "$TMPD/h3.model"
run 3 "$COLL" -l libcpm_coll.so -O Hockney_Reduce_ucs_binomial_min \
    -o "model=Hockney,file=$TMPD/h3.model" --root 2 -m 1 -M 4099 -r 2 -R 2
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 13 ]' \
    "collective -l -O Hockney_Reduce_ucs_binomial_min at 3 ranks, root 2: summed and checked"
for op in MPI_Reduce MPI_Allreduce; do
    COMMSWEEP_CORRUPT=1 run 3 "$COLL" -O "$op" -m 1 -M 64 -r 2 -R 2
    expect '[ "$RC" = 1 ] && grep -q "^# Fail" "$OUT"' "collective -O $op: a flipped bit of the sum fails (status 1)"
done

# The manual's size rule, in collective and prediction alike: sizes double
# from -m up to -M (-m 1024 -M 2049: 1024 and 2048); with -S a regular set
# by the stride, -M itself last, in both.
printf 'model Hockney\nprocesses 2\n0 1 1e-5 1e-9\n' > "$TMPD/h2.model"
for sizes in "-m 1024 -M 2049" "-m 0 -M 8" "-m 1000 -M 3000 -S 1000" "-m 0 -M 2500 -S 1024"; do
    # shellcheck disable=SC2086
    run 2 "$COLL" -O MPI_Bcast $sizes -r 2 -R 2
    measured=$(data_lines | awk '{print $1}' | tr '\n' ' ')
    # shellcheck disable=SC2086
    run1 "$BUILD/cpm/prediction" -n 2 -C Hockney -i "$TMPD/h2.model" -O bcast_binomial $sizes
    predicted=$(data_lines | awk '{print $1}' | tr '\n' ' ')
    expect '[ -n "$measured" ] && [ "$measured" = "$predicted" ]' \
        "collective and prediction $sizes: the same sizes ($measured| $predicted)"
done
run 2 "$COLL" -O MPI_Bcast -m 1024 -M 2049 -r 2 -R 2
expect '[ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "1024 2048 " ] && grep -q "^# message set: min 1024, max 2049, doubling" "$OUT"' \
    "collective -m 1024 -M 2049 measures 1024 and 2048, as the manual says"
