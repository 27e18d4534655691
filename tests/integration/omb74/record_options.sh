#!/usr/bin/env bash
# Records omb74/options.txt, the fixture of osu_omb74_options.sh, from OMB
# 7.4 builds:
#   tests/integration/omb74/record_options.sh OMB_DIR [OMB_MPI4_DIR [PATTERN]]
# OMB_DIR holds c/mpi/... built with Open MPI (run with mpirun, or
# $MPIEXEC); OMB_MPI4_DIR, when given, the same built with MPICH 4 (run
# with $MPIEXEC4, default mpiexec.mpich): the programs that OMB_DIR lacks
# (the persistent collectives, which need MPI 4) come from it, and so do
# the -I (--session) lines of every program, since only an MPI 4 build of
# OMB takes -I. With PATTERN (a shell pattern) only the programs it matches
# are recorded again, their lines replacing theirs in the fixture. Not part
# of make check; the fixture it writes is.
#
# For every program, every option its -h lists (osu_hello and osu_init
# list none and take any: every option any other program lists), one line
# of the short sweep with that option and a valid value, and one line with
# every long name at once (but --help, --version, --papi, --session,
# --vary-window, whose OMB spelling wants a value, and --ddt beside
# --validation, which OMB refuses together); each line records OMB's
# verdict (ran, or refused: an exit status other than 0 and no data row;
# OMB's osu_latency_mt ends with status 1 when it ran) and its data rows
# (rows.awk). osu_latency_mt's -c and long lines take -t 2:2 (OMB checks
# data only with as many threads on both sides); the one-sided long lines
# take --type mpi_int (OMB 7.4's osu_acc_latency crashes with --graph and
# --tail-lat over several types). Every line runs at 2 ranks but those of
# the neighborhood collectives, at 3 (where OMB's default topology, radius
# 1, has distinct neighbours). The fan tests run at 2 ranks, each under
# fake_node.sh as a node of its own (root, unshare); their lines carry our
# --ranks-per-node 1, which OMB is not given.
set -eu
shopt -s extglob # PATTERN may be osu_@(a|b)
here=$(cd "$(dirname "$0")" && pwd)
omb=${1:?usage: record_options.sh OMB_DIR [OMB_MPI4_DIR [PATTERN]]}
omb4=${2:-}
pattern=${3:-*}
launch=${MPIEXEC:-mpirun --oversubscribe --allow-run-as-root}
launch4=${MPIEXEC4:-mpiexec.mpich}
# MPICH 4.0-4.2's default schedules of persistent allgather, gather and
# scatter deliver wrong data (pmodels/mpich#6423, #7078), which OMB's -c
# would report as its own: its ring and tree schedules, as in
# osu_coll_persistent.sh (only MPICH reads these).
export MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM=tsp_ring
export MPIR_CVAR_IGATHER_INTRA_ALGORITHM=tsp_tree MPIR_CVAR_ISCATTER_INTRA_ALGORITHM=tsp_tree
out=$here/options.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" # -G png writes its pictures here

find_prog() { # DIR NAME
    [ -n "$1" ] || return 0
    find "$1/c/mpi" -type f -name "$2" -perm -u+x | head -1
}

# The value each option gets on its line.
value_of() { # PROG LETTER
    case $2 in
        m) echo 2:8 ;; i) echo 3 ;; x) echo 0 ;; M) echo 1048576 ;; W) echo 4 ;;
        t) echo 2 ;; a) echo 16 ;; u) echo 1 ;; G) echo png ;; D) echo cont ;;
        P) echo PAPI_TOT_INS ;; T) echo all ;; k) echo fixed:1 ;; N) echo cart:1:1 ;;
        w) echo create ;; R) echo 0 ;; p) echo 1 ;; b) echo multiple ;; d) echo cuda ;;
        r) echo cpu ;;
        s) case $1 in *bibw*) echo fence ;; *) echo lock ;; esac ;;
        *) ;; # flags: h v f c V l z I
    esac
}

# OMB's verdict (ran or refused) and data rows of one line; the output kept
# in $work/last.
run_omb() { # EXE WRAP_PER_NODE LAUNCH ARGS...
    local exe=$1 per=$2 how=$3 rc np=2
    shift 3
    case $exe in *neighbor_*) np=3 ;; esac
    local wrap=()
    [ "$per" = 0 ] || wrap=("$here/fake_node.sh" "$per")
    rc=0
    # shellcheck disable=SC2086
    timeout 120 $how -np "$np" "${wrap[@]}" "$exe" "$@" > "$work/last" 2> "$work/err" < /dev/null ||
        rc=$?
    local rows verdict=ran
    rows=$(awk -f "$here/rows.awk" "$work/last")
    [ "$rc" != 0 ] && [ "$rows" = 0 ] && verdict=refused
    echo "$verdict $rows"
}

# Help texts: the options of each program, and all of them together.
declare -A letters=() longs=() exes=() all_long=()
all_order=""
progs=()
for exe in $(find "$omb/c/mpi" -type f -name 'osu_*' -perm -u+x | sort); do
    progs+=("$(basename "$exe")")
    exes[$(basename "$exe")]=$exe
done
if [ -n "$omb4" ]; then
    for exe in $(find "$omb4/c/mpi" -type f -name 'osu_*' -perm -u+x | sort); do
        p=$(basename "$exe")
        [ -n "${exes[$p]:-}" ] && continue
        progs+=("$p")
        exes[$p]=$exe
    done
fi
for p in "${progs[@]}"; do
    per=0
    case $p in osu_bw_fan_*) per=1 ;; esac
    how=$launch
    [[ ${exes[$p]} == "$omb4"/* && -n "$omb4" ]] && how=$launch4
    run_omb "${exes[$p]}" "$per" "$how" -h > /dev/null || true
    letters[$p]="" longs[$p]=""
    while read -r l n; do
        letters[$p]+="$l "
        longs[$p]+="$n "
        if [ -z "${all_long[$l]:-}" ]; then
            all_long[$l]=$n
            all_order+="$l "
        fi
    done < <(sed -nE 's/^  -([A-Za-z]), --([a-z-]+) .*/\1 \2/p' "$work/last")
done
# osu_hello and osu_init take any option and use none (or -I).
for p in osu_hello osu_init; do
    letters[$p]=$all_order
    longs[$p]=""
    for l in $all_order; do longs[$p]+="${all_long[$l]} "; done
done

{
    echo "# OMB 7.4's options, one line each: PROGRAM RANKS OPTION OMB ROWS ARGS..."
    echo "# OMB and ROWS: whether OMB 7.4 ran the line or refused it, and its data"
    echo "# rows (rows.awk; - where they are not compared: help and version)."
    echo "# OPTION 'long' is the line of every long name at once. Recorded by"
    echo "# record_options.sh from OMB 7.4 built with Open MPI 4.1; the persistent"
    echo "# collectives and every -I line from OMB 7.4 built with MPICH 4.0.2 (the"
    echo "# Open MPI 4.1 build has neither)."
    for p in "${progs[@]}"; do
        # shellcheck disable=SC2254
        case $p in $pattern) ;; *) grep "^$p " "$out" || true; continue ;; esac
        per=0 ours="" np=2
        case $p in
            osu_bw_fan_*) per=1 ours=" --ranks-per-node 1" ;;
            *neighbor_*) np=3 ;; # OMB's default topology, radius 1, needs 3 ranks
        esac
        base="-m 1:4 -i 2 -x 1"
        case $p in osu_hello | osu_init) base="" ;; esac
        # shellcheck disable=SC2086
        set -- ${longs[$p]}
        long_args=""
        for l in ${letters[$p]}; do
            name=$1
            shift
            v=$(value_of "$p" "$l")
            case $l in
                m) args="-m $v -i 2 -x 1" ;;
                i) args="-m 1:4 -i $v -x 1" ;;
                x) args="-m 1:4 -i 2 -x $v" ;;
                *) args="$base -$l${v:+ $v}" ;;
            esac
            [ "$p $l" = "osu_latency_mt c" ] && args="$args -t 2:2"
            [ -n "$base" ] || args="-$l${v:+ $v}"
            exe=${exes[$p]} how=$launch
            [[ -n "$omb4" && $exe == "$omb4"/* ]] && how=$launch4
            if [ "$l" = I ] && [ -n "$omb4" ]; then
                exe=$(find_prog "$omb4" "$p") how=$launch4
            fi
            # shellcheck disable=SC2086
            read -r verdict rows <<< "$(run_omb "$exe" "$per" "$how" ${args# })"
            # Help and version: taken when printed (osu_latency_mt ends with 1).
            case $l in h | v) rows=- && [ -s "$work/last" ] && verdict=ran ;; esac
            echo "$p $np -$l $verdict $rows ${args# }$ours"
            case $name in
                help | version | papi | session | vary-window) ;;
                ddt) [[ " ${letters[$p]} " == *" c "* ]] || long_args+=" --$name${v:+ $v}" ;;
                message-size) long_args+=" --$name 1:4" ;;
                iterations) long_args+=" --$name 2" ;;
                warmup) long_args+=" --$name 1" ;;
                type) case " ${letters[$p]} " in *" w "*) v=mpi_int ;; esac
                      long_args+=" --$name $v" ;;
                num-test-calls) [ "$p" = osu_latency_mt ] && v=2:2; long_args+=" --$name $v" ;;
                *) long_args+=" --$name${v:+ $v}" ;;
            esac
        done
        [ -n "$long_args" ] || continue
        exe=${exes[$p]} how=$launch
        [[ -n "$omb4" && $exe == "$omb4"/* ]] && how=$launch4
        # shellcheck disable=SC2086
        read -r verdict rows <<< "$(run_omb "$exe" "$per" "$how" $long_args)"
        echo "$p $np long $verdict $rows${long_args}$ours"
    done
} > "$out.new"
mv "$out.new" "$out"
echo "$(grep -vc '^#' "$out") lines in $out"
