#!/usr/bin/env bash
# Runs the unit test binaries given as arguments (cmocka, TAP output) and the
# integration scripts tests/integration/*.sh (TAP lines), counts the "ok" and
# "not ok" lines of all of them and ends with "N passed, N failed".
# TESTS=PATTERN runs only the integration scripts whose name matches the shell
# pattern (e.g. TESTS='osu_*'); TESTS=none runs none.
set -u
here=$(cd "$(dirname "$0")" && pwd)
log_dir=${BUILD:-build}/tests/logs
mkdir -p "$log_dir"
passed=0 failed=0 skipped=0
failures=()

count_tap() { # name log
    local name=$1 log=$2 p f s
    p=$(grep -cE '^ok( |$)' "$log" | tr -d ' ')
    s=$(grep -cE '^ok .*# (SKIP|skip)' "$log" | tr -d ' ')
    f=$(grep -cE '^not ok( |$)' "$log" | tr -d ' ')
    p=$((p - s))
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    # A sourced helper run on its own reports nothing: no row for it.
    [ $((p + f + s)) -eq 0 ] && return 0
    [ "$f" -gt 0 ] && failures+=("$name: $(grep -E '^not ok' "$log" | head -3 | tr '\n' ';')")
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
        if [ -n "${TESTS:-}" ]; then
            case "$name" in $TESTS) ;; *) continue ;; esac
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

for f in "${failures[@]+"${failures[@]}"}"; do echo "FAILED $f"; done
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
