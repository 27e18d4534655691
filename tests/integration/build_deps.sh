#!/usr/bin/env bash
# The build on a machine that lacks one library: a plain make needs no
# cmocka (only make check does), and a missing hwloc, GSL or cmocka is named
# with how to get it before anything is compiled. Each library is hidden by
# tests/without.sh (root only); .ci/run builds the whole suite that way
# without cmocka.
. "$(dirname "$0")/../lib.sh"
cd "$TOP" || exit 1

if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null; then
    skip "the build without hwloc, GSL or cmocka" "needs root and unshare -m"
    exit 0
fi

# Runs make ARGS... with LIBRARY hidden; status in RC, output in OUT.
hidden_make() { # LIBRARY MAKE_ARGS...
    local lib=$1
    shift
    "$TOP/tests/without.sh" "$lib" make "$@" > "$OUT" 2>&1
    RC=$?
}

for lib in hwloc gsl; do
    b="$TMPD/build-$lib"
    hidden_make "$lib" BUILD="$b" "$b/osu/osu_latency"
    name=$lib; [ "$lib" = gsl ] && name=GSL
    expect '[ "$RC" != 0 ] && grep -q "^commsweep: $name (.*) is missing: install lib$lib-dev" "$OUT" &&
            [ -z "$(find "$b" -name "*.o" 2> /dev/null)" ]' \
        "without $lib: make stops before compiling, naming $lib and how to get it"
done

b="$TMPD/build-cmocka"
hidden_make cmocka BUILD="$b" unit-tests
expect '[ "$RC" != 0 ] && grep -q "^commsweep: cmocka (.*) is missing; only the unit tests need it" "$OUT"' \
    "without cmocka: make unit-tests names cmocka and says a plain make does not need it"
# The whole plain build without cmocka is .ci/run's first build; here one
# program and libcommon, which every program links.
hidden_make cmocka BUILD="$b" "$b/osu/osu_latency" "$b/always/all"
expect '[ "$RC" = 0 ] && [ -x "$b/osu/osu_latency" ] && [ -x "$b/always/all" ]' \
    "without cmocka: programs build"
expect '! make -n BUILD="$b" all | grep -q -- -lcmocka' "a plain make links nothing with cmocka"

# The Cray systems' env files load GSL and hwloc (their modules, or an
# install named by GSL_DIR / HWLOC_DIR). A stand-in module command logs what
# is asked and provides the gsl module only.
mkdir -p "$TMPD/hwloc/include" "$TMPD/hwloc/lib64" "$TMPD/gsl/include" "$TMPD/gsl/lib"
for system in frontier perlmutter; do
    env -u GSL_DIR HWLOC_DIR="$TMPD/hwloc" LOG="$TMPD/m.log" GSL="$TMPD/gsl" ENV="$TOP/machines/$system/env" \
        bash -c 'module() { echo "module $*" >> "$LOG"; [ "$2" != hwloc ] || return 1
                            [ "$2" = gsl ] && export GSL_DIR=$GSL; return 0; }
                 . "$ENV"
                 echo "CPATH=$CPATH"; echo "LIBRARY_PATH=$LIBRARY_PATH"' > "$OUT" 2> "$ERR"
    expect 'grep -qx "module load gsl" "$TMPD/m.log" && ! grep -q "module load hwloc" "$TMPD/m.log" &&
            grep -q "^CPATH=$TMPD/hwloc/include:$TMPD/gsl/include" "$OUT" &&
            grep -q "^LIBRARY_PATH=$TMPD/hwloc/lib64:$TMPD/gsl/lib" "$OUT"' \
        "machines/$system/env loads the gsl module and takes hwloc from HWLOC_DIR"
    rm -f "$TMPD/m.log"
done
