#!/usr/bin/env bash
# Runs the unit test binaries given as arguments (cmocka, TAP output) and the
# integration scripts tests/integration/*.sh (TAP lines), counts the "ok" and
# "not ok" lines of all of them and ends with "N passed, N failed".
# The *_lib.sh files there are helpers that scripts source, not tests. A
# test program or script that reports no test line at all counts as failed.
# TESTS=PATTERN runs only the integration scripts whose name matches the shell
# pattern (e.g. TESTS='osu_*'), or one of several separated by |
# (TESTS='always_*|alltoall_*'); TESTS=none runs none.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# lib.sh: BUILD made absolute, the launcher, summary and its counters.
. "$here/lib.sh"
log_dir=$BUILD/tests/logs
mkdir -p "$log_dir"
failures=() failure_detail=()

count_tap() { # name log
    local name=$1 log=$2 p f s
    p=$(grep -cE '^ok( |$)' "$log" | tr -d ' ')
    s=$(grep -cE '^ok .*# (SKIP|skip)' "$log" | tr -d ' ')
    f=$(grep -cE '^not ok( |$)' "$log" | tr -d ' ')
    p=$((p - s))
    if [ $((p + f + s)) -eq 0 ]; then
        echo "not ok - $name reported no test" >> "$log"
        f=1
    fi
    TAP_PASSED=$((TAP_PASSED + p)) TAP_FAILED=$((TAP_FAILED + f)) TAP_SKIPPED=$((TAP_SKIPPED + s))
    if [ "$f" -gt 0 ]; then
        failures+=("$name: $(grep -E '^not ok' "$log" | head -3 | tr '\n' ';')")
        # The failures with their detail lines (a CI log is all there is).
        failure_detail+=("$(awk '/^not ok/ { on = 1; print; next } on && /^#/ { print; next } { on = 0 }' "$log" | head -n 60)")
    fi
    printf '%-40s %4d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
}

for t in "$@"; do
    name=$(basename "$t")
    log="$log_dir/$name.log"
    CMOCKA_MESSAGE_OUTPUT=TAP "$t" > "$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && ! grep -qE '^not ok' "$log"; then
        echo "not ok - $name exited with status $rc" >> "$log"
    fi
    count_tap "$name" "$log"
done

if [ "${TESTS:-}" != none ]; then
    for t in "$here"/integration/*.sh; do
        [ -e "$t" ] || continue
        name=$(basename "$t" .sh)
        case "$name" in *_lib) continue ;; esac
        if [ -n "${TESTS:-}" ] && ! matches_any "$name" "$TESTS"; then
            continue
        fi
        log="$log_dir/$name.log"
        start=$(date +%s)
        bash "$t" > "$log" 2>&1
        rc=$?
        if [ $rc -ne 0 ] && ! grep -qE '^not ok' "$log"; then
            echo "not ok - $name exited with status $rc" >> "$log"
        fi
        count_tap "$name ($(( $(date +%s) - start ))s)" "$log"
    done
fi

for f in "${failure_detail[@]+"${failure_detail[@]}"}"; do printf '%s\n' "$f"; done
for f in "${failures[@]+"${failures[@]}"}"; do echo "FAILED $f"; done
summary
