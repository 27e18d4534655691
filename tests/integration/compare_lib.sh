# Helpers of the tests of tools/compare (compare.sh, compare_omb.sh),
# sourced after lib.sh.
C="$BUILD/tools/compare"

# compare_run A B [OPTIONS...]: compare into $OUT/$ERR, status in $RC.
compare_run() { run1 "$C" "$@" < /dev/null; }

# Bad input: status 2, one line on stderr, nothing on stdout.
refused_compare() { # DESCRIPTION ARGS...
    local desc=$1
    shift
    compare_run "$@"
    expect_usage_error "$desc" compare
    if [ -s "$OUT" ]; then not_ok "$desc: nothing on stdout" "$(head -c 300 "$OUT")"; fi
}
