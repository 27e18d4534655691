#!/usr/bin/env bash
# The frameworks that run OMB 7.4 (Ramble and Benchpark, ReFrame's
# hpctestlib and tutorial, CSCS's checks, cloudai, metrics-operator,
# hpcbench) read every OSU program here as they read OMB 7.4's: each
# framework's own command lines (frameworks/commands.txt), its parsing rules
# (frameworks/parsers.py, rewritten from its public source), applied to
# OMB 7.4's recorded output (frameworks/omb74/) and to ours. One TAP line
# per (framework, command line). The command lines are run as the
# frameworks give them; COMMSWEEP_TEST_ITERATIONS caps the iterations so
# that the default sweeps (thousands of iterations up to 4 MiB) take
# seconds: what a parser reads does not depend on them.
. "$(dirname "$0")/../lib.sh"
unset COMMSWEEP_DEFAULTS COMMSWEEP_DESCRIBE
here=$(cd "$(dirname "$0")/frameworks" && pwd)
export COMMSWEEP_TEST_ITERATIONS=2 CASE_TIMEOUT=$TEST_TIMEOUT CHECK_OUT="$TMPD/frameworks"
# COMMSWEEP_TEST_SHORT=1 (the MPICH run): one command line per program, the
# first of commands.txt; the full set runs under Open MPI.
if test_short; then
    CHECK_CASES="^($(python3 "$here/parsers.py" cases "$here/commands.txt" |
        awk '!seen[$3]++ { gsub(/[][.*+?(){}|^$\\]/, "\\\\&", $1); print $1 }' | paste -sd'|'))\$"
    export CHECK_CASES
fi
"$here/check.sh" "$BUILD" > "$TMPD/check" 2>&1
status=$?
while read -r verdict rest; do
    case $verdict in
        PASS) ok "$rest" ;;
        FAIL) not_ok "${rest%%  *}" "${rest#*  }" ;;
        SKIP) skip "${rest%%  *}" "${rest#*  }" ;;
    esac
done < "$TMPD/check"
grep -E "^(pairs read the same|commsweep runs took)" "$TMPD/check" | sed 's/^/# /'
expect '[ "$status" = 0 ] && grep -q "^pairs read the same: \([0-9]*\) / \1" "$TMPD/check"' \
    "every pair read the same ($(grep -o "^pairs read the same: [0-9]* / [0-9]*" "$TMPD/check"))"
