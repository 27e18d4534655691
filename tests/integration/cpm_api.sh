#!/usr/bin/env bash
# The CPM manual's API names against an installed copy: make install into a
# temporary PREFIX, then the manual's example of section 5.3
# (tests/api/cpm_coll_example.c, only its include line changed) is compiled
# with the installed header and linked with the installed libraries, and
# run: it reads a Hockney model on rank 0 (Hockney_read), hands it to every
# rank (Hockney_initialize) and broadcasts with
# Hockney_Bcast_ucs_binomial_min, whose n - 1 sends a counter linked in
# (tests/api/count_sends.c) reports; its own messages for a missing
# argument and an unreadable file. Then the programs written from the
# manual's sections 6-8 (tests/api/cpm_manual_snippets.c), built the same
# way and run at 3 and 4 ranks.
. "$(dirname "$0")/../lib.sh"
PREFIX="$TMPD/prefix"
EXAMPLE="$TMPD/cpm_coll_example"

# The install of this very build: the variables it was configured with
# (BUILD/.config) keep make from rebuilding anything.
config=$(cat "$BUILD/.config")
read -r -a vars <<< "${config%% CFLAGS=*}"
make -s -C "$TOP" BUILD="$BUILD" "${vars[@]}" CFLAGS="${config#* CFLAGS=}" PREFIX="$PREFIX" \
    install > "$TMPD/install.log" 2>&1
RC=$?
expect '[ "$RC" = 0 ] && [ -f "$PREFIX/include/commsweep/cpm_api.h" ] && [ -f "$PREFIX/lib/libcpm_coll.so" ]' \
    "make install PREFIX=... installs the CPM headers and libraries"

${MPICC:-mpicc} -Wall -Wextra -Werror -I"$PREFIX/include" -o "$EXAMPLE" "$TOP/tests/api/cpm_coll_example.c" \
    "$TOP/tests/api/count_sends.c" -L"$PREFIX/lib" -lcpm_coll -lcpm -lgsl -lgslcblas -lhwloc -lm \
    -Wl,-rpath,"$PREFIX/lib" > "$TMPD/cc.log" 2>&1
RC=$?
cp "$TMPD/cc.log" "$ERR"
expect '[ "$RC" = 0 ]' "the manual's example (5.3) compiles against the installed header, warning-free"
expect 'ldd "$EXAMPLE" | grep -q "libcpm_coll.so => $PREFIX/lib/"' \
    "the example runs on the installed libcpm_coll.so"

awk -v n=4 'BEGIN { print "model Hockney"; print "processes " n
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) printf "%d %d %g %g\n", i, j, 2e-5 + 1e-6 * j, 1e-9 * (i + j) }' \
    > "$TMPD/Hockney.model"
for np in 1 2 4; do
    run "$np" "$EXAMPLE" -i "$TMPD/Hockney.model"
    expect '[ "$RC" = 0 ] && [ ! -s "$ERR" ] && grep -qx "sends $((np - 1))" "$OUT"' \
        "the example at $np ranks: $((np - 1)) sends of its broadcast, nothing on stderr, status 0"
done
# A file of the wrong kind: Hockney_read gives NULL and the example leaves
# before any broadcast.
sed 's/^model Hockney/model LMO/' "$TMPD/Hockney.model" > "$TMPD/lmo.model"
run 2 "$EXAMPLE" -i "$TMPD/lmo.model"
expect '[ "$RC" = 0 ] && grep -qx "sends 0" "$OUT"' "the example leaves without a broadcast when the file is not a Hockney model"
run 2 "$EXAMPLE"
expect '[ "$RC" = 0 ] && grep -q "You must specify an input argument" "$ERR"' "the example without -i says so"
run 2 "$EXAMPLE" -i "$TMPD/none.model"
expect '[ "$RC" = 0 ] && grep -q "Cannot read input file" "$ERR"' "the example with a missing file says so"

# Programs written from the manual's sections 6-8 (tests/api/cpm_manual_snippets.c):
# measurement, estimates, every model's predictions, the generic
# predictions, LMO's triplet index, the model structs' fields, a predictor
# of one's own with the generic collectives, and the bindings; compiled
# against the installed header alone, warning-free, then run.
SNIPPETS="$TMPD/cpm_manual_snippets"
${MPICC:-mpicc} -Wall -Wextra -Werror -I"$PREFIX/include" -o "$SNIPPETS" \
    "$TOP/tests/api/cpm_manual_snippets.c" -L"$PREFIX/lib" -lcpm_coll -lcpm -lgsl -lgslcblas \
    -lhwloc -lm -Wl,-rpath,"$PREFIX/lib" > "$TMPD/cc.log" 2>&1
RC=$?
cp "$TMPD/cc.log" "$ERR"
expect '[ "$RC" = 0 ]' "the snippets written from the manual's sections 6-8 compile against the installed header"
for np in 3 4; do
    run "$np" "$SNIPPETS"
    expect '[ "$RC" = 0 ] && [ "$(grep -c "^snippet .*: ok$" "$OUT")" = 11 ] && grep -qx "0 snippets failed" "$OUT"' \
        "the 11 snippets of the manual's sections 6-8 at $np ranks"
done
