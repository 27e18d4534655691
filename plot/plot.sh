#!/bin/bash
# Renders commsweep output to PNG: every .dat in the folders given (and any
# .dat file given) becomes a .png beside it. The script is chosen from the
# file's first line "# <title> (commsweep VERSION)", else from its name:
#   All to All algorithms ... / aller-*.dat
#                                   -> aller.gp (one PNG per communicator
#                                      size, FILE-CxR.png: one curve per
#                                      algorithm)
#   All to All ... / all-*.dat      -> alltoall.gp (one curve per block)
#   Always ...     / always-*.dat   -> always.gp   (one curve per block)
#   OSU ...        / osu_*.dat      -> osu.gp      (value against size)
#   Network map: bandwidth and latency ... / pairs*.dat
#                                   -> netmap.gp   (a heatmap per matrix,
#                                      FILE-bandwidth-shifted.png, ...)
# Columns are looked up by their names in the file's header, so a change of
# column order in a program cannot silently plot the wrong numbers.
#   plot/plot.sh results/            plot/plot.sh results/osu_bw.123.N2.dat
# A PNG is whole or not there: it is written under a temporary name beside
# it and renamed when complete, so a full disk leaves the old picture, or
# none; a device or a symbolic link in its place is written through, a
# folder or a FIFO is left alone.
# Exit status: 0 when every file that has a script was rendered, 1 if one
# failed, 4 if a PNG could not be written (a full disk), 2 on bad usage.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { echo "plot.sh: $1 (usage: plot.sh RESULTS_DIR|FILE.dat...)" >&2; exit 2; }
[ $# -ge 1 ] || usage "give a results folder or .dat files"
command -v gnuplot > /dev/null || { echo "plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }

failed=0 rendered=0 unwritten=0

# Which script: from the title line, else from the file name.
plot_kind() { # FILE
    local title name
    title=$(head -n 1 "$1")
    name=$(basename "$1")
    case "$title" in
        "# Comparison of two runs"*) echo none; return ;; # compare --png draws its own
        "# OSU "*) echo osu; return ;;
        "# All to All algorithms"*) echo aller; return ;;
        "# All to All"*) echo alltoall; return ;;
        "# Always"*) echo always; return ;;
        "# Network map: bandwidth and latency"*) echo netmap; return ;;
        "# Network map"*) echo table; return ;; # a few rows: read, not drawn
    esac
    case "$name" in
        osu_*) echo osu ;;
        aller-*) echo aller ;;
        all-*) echo alltoall ;;
        always-*) echo always ;;
        pairs*) echo netmap ;;
        *) echo none ;;
    esac
}

# 1-based column of NAME in a '#' header line of whitespace-separated names.
plot_word_col() { # HEADER NAME
    awk -v want="$2" '{ for (i = 2; i <= NF; i++) if ($i == want) { print i - 1; exit } }' <<< "$1"
}

# gnuplot -e assignments NAME=COLUMN for the named columns of a block
# header (the '#' line that names the columns: names of letters, digits and
# underscores, as --stats' time_p5_s); fails naming what is missing.
plot_block_cols() { # FILE MARKER_COLUMN VAR=NAME...
    local file=$1 marker=$2 header pair col
    shift 2
    header=$(grep -E '^#([[:space:]]+[A-Za-z0-9_]+)+[[:space:]]*$' "$file" |
        grep -m 1 -E "[[:space:]]$marker([[:space:]]|$)")
    [ -n "$header" ] || { echo "no header naming $marker" >&2; return 1; }
    for pair in "$@"; do
        col=$(plot_word_col "$header" "${pair#*=}")
        [ -n "$col" ] || { echo "no column ${pair#*=} in: $header" >&2; return 1; }
        printf '%s = %s; ' "${pair%%=*}" "$col"
    done
}

# OSU: "# Size" then names separated by two or more spaces. The value is
# the first column after Size; "Min X"/"Max X" (from -f) become the bars.
plot_osu_cols() { # FILE
    local header names=() i value base low=0 high=0
    header=$(grep -m 1 -E '^# Size([[:space:]]|$)' "$1")
    if [ -z "$header" ]; then
        echo "no '# Size' column: nothing to plot against message size" >&2
        return 3
    fi
    mapfile -t names < <(sed -e 's/^# //' -e 's/   */\n/g' <<< "$header")
    [ "${#names[@]}" -ge 2 ] || { echo "no value column in: $header" >&2; return 1; }
    value=${names[1]}
    base=${value#Avg }
    for i in "${!names[@]}"; do
        [ "${names[i]}" = "Min $base" ] && low=$((i + 1))
        [ "${names[i]}" = "Max $base" ] && high=$((i + 1))
    done
    printf "size_col = 1; value_col = 2; low_col = %d; high_col = %d; value_label = '%s'; " \
        "$low" "$high" "${value//\'/\'\'}"
}

# The reason at the end of a tool's message ("cat: write error: No space
# left on device" -> "No space left on device").
plot_reason() { sed -n '$s/.*: //p' "$1"; }

# A temporary file beside PNG with the mode the PNG would get, for the
# rename; prints its name.
plot_temp() { # PNG
    local tmp
    tmp=$(mktemp "$(dirname "$1")/.$(basename "$1").XXXXXX") || return 1
    if [ -f "$1" ]; then
        chmod --reference="$1" "$tmp"
    else
        chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$tmp"
    fi
    echo "$tmp"
}

# TMP, a complete picture, becomes PNG: renamed over a regular file (or
# none), written through a device or a symbolic link; the error on stderr.
plot_install() { # TMP PNG
    if [ -L "$2" ] || { [ -e "$2" ] && [ ! -f "$2" ]; }; then
        cat "$1" > "$2"
        local rc=$?
        rm -f "$1"
        return "$rc"
    fi
    sync "$1" && mv -f "$1" "$2"
}

# Runs SCRIPT.gp on FILE into PNG with the gnuplot assignments given; prints
# the PNG, or why not on stderr. Status 0 when a picture was drawn cleanly.
# gnuplot does not notice a full disk: its picture comes through a pipe,
# whose writer does.
plot_render() { # FILE SCRIPT PNG ASSIGNMENTS
    local file=$1 script=$2 png=$3 err werr tmp rc wrc
    if [ -d "$png" ] || [ -p "$png" ]; then
        echo "plot.sh: $file: not rendered: $png is a $([ -d "$png" ] && echo folder || echo FIFO)" >&2
        failed=$((failed + 1))
        return 1
    fi
    err=$(mktemp "${TMPDIR:-/tmp}/commsweep-plot.XXXXXX")
    werr=$(mktemp "${TMPDIR:-/tmp}/commsweep-plot.XXXXXX")
    if ! tmp=$(plot_temp "$png" 2> "$werr"); then
        echo "plot.sh: cannot write $png: $(plot_reason "$werr")" >&2
        unwritten=$((unwritten + 1))
        rm -f "$err" "$werr"
        return 1
    fi
    gnuplot -e "datafile = '${file//\'/\'\'}'; outfile = '/dev/stdout'; dir = '$here/'; $4" \
        "$here/$script.gp" 2> "$err" | cat > "$tmp" 2> "$werr"
    rc=${PIPESTATUS[0]} wrc=${PIPESTATUS[1]}
    # gnuplot warns (and still writes a picture) when columns hold no numbers.
    # A map's diagonal is nan by design: that warning of a matrix is no fault.
    grep -v 'matrix contains missing or undefined values' "$err" | grep -qiE 'warning|error' && rc=1
    [ -s "$tmp" ] || rc=1
    if [ "$wrc" = 0 ] && [ "$rc" = 0 ] && ! plot_install "$tmp" "$png" 2> "$werr"; then
        wrc=1
    fi
    if [ "$wrc" != 0 ]; then
        echo "plot.sh: cannot write $png: $(plot_reason "$werr")" >&2
        unwritten=$((unwritten + 1))
        rc=1
    elif [ "$rc" = 0 ]; then
        rendered=$((rendered + 1))
        if ! echo "$png" 2> "$werr"; then
            echo "plot.sh: cannot write standard output: $(plot_reason "$werr")" >&2
            unwritten=$((unwritten + 1))
        fi
    else
        echo "plot.sh: $file: not rendered with $script.gp: $(head -n 3 "$err" | tr '\n' ' ')" >&2
        failed=$((failed + 1))
    fi
    rm -f "$tmp" "$err" "$werr"
    return "$rc"
}

# aller: the blocks of one communicator size, one per algorithm, are drawn
# together; the algorithms are those of the "# algorithms:" line.
plot_aller() { # FILE COLUMN_ASSIGNMENTS
    local file=$1 cols=$2 names nalgs nblocks first shape
    names=$(sed -n 's/^# algorithms: //p' "$file" | head -n 1 | tr -d ',')
    nalgs=$(wc -w <<< "$names")
    nblocks=$(awk '/^#/ { next } /^[[:space:]]*$/ { blank++; next }
        { if (blank >= 2 || !n) n++; blank = 0 } END { print n + 0 }' "$file")
    if [ "$nalgs" -lt 1 ] || [ "$nblocks" -lt 1 ] || [ $((nblocks % nalgs)) != 0 ]; then
        echo "plot.sh: $file: $nblocks blocks do not hold the $nalgs algorithms of its '# algorithms:' line" >&2
        failed=$((failed + 1))
        return
    fi
    for ((first = 0; first < nblocks; first += nalgs)); do
        # comms x ranks from the first data line of the size's first block.
        shape=$(awk -v want=$((first + 1)) '/^#/ { next } /^[[:space:]]*$/ { blank++; next }
            { if (blank >= 2 || !n) n++; blank = 0 } n == want { print $1 "x" $2; exit }' "$file")
        plot_render "$file" aller "${file%.dat}-$shape.png" \
            "$cols first_block = $first; names = '$names'; shape = '${shape/x/ x } ranks'" || true
    done
}

# netmap/pairs: one heatmap per matrix block, the blocks that follow a
# "..., UNIT: row = from endpoint ... (gnuplot: matrix)" line.
plot_netmap() { # FILE
    local file=$1 block what slug lower found=0
    while IFS='|' read -r block what; do
        found=1
        # "bandwidth, shifted mode, MB/s" -> bandwidth-shifted; "latency, each pair alone, us" -> latency
        slug=$(sed -e 's/, [^,]*$//' -e 's/ mode$//' -e 's/, each pair alone$//' <<< "$what" |
            tr -c 'a-z0-9\n' '-' | sed 's/--*/-/g; s/-$//')
        case "$what" in latency*) lower=1 ;; *) lower=0 ;; esac
        plot_render "$file" netmap "${file%.dat}-$slug.png" \
            "block = $block; what = '${what//\'/\'\'}'; lower_better = $lower" || true
    done < <(awk '/^# .*\(gnuplot: matrix\)$/ { sub(/^# /, ""); sub(/: row = from endpoint.*/, ""); want = $0; next }
        /^#/ { next } /^[[:space:]]*$/ { blank++; next }
        { if (blank >= 2 || !n) { n++; if (want != "") print n - 1 "|" want; want = "" } blank = 0 }' "$file")
    if [ "$found" = 0 ] && grep -q '^# .* matrix and the per-pair rows are left out' "$file"; then
        echo "plot.sh: $file: no heatmap, the run left its matrices out (netmap/pairs --matrix=yes prints them)" >&2
    elif [ "$found" = 0 ]; then
        echo "plot.sh: $file: no matrix block" >&2
        failed=$((failed + 1))
    fi
}

plot_file() { # FILE
    local file=$1 kind cols err rc
    kind=$(plot_kind "$file")
    err=$(mktemp "${TMPDIR:-/tmp}/commsweep-plot.XXXXXX")
    case "$kind" in
        alltoall | aller) cols=$(plot_block_cols "$file" GiBps_avg comms_col=comms ranks_col=ranks \
            size_col=GiB_per_rank low_col=GiBps_min avg_col=GiBps_avg high_col=GiBps_max 2> "$err") ;;
        always) cols=$(plot_block_cols "$file" GiBps_task tasks_col=tasks \
            size_col=MiB_per_call bw_col=GiBps_task 2> "$err") ;;
        osu) cols=$(plot_osu_cols "$file" 2> "$err") ;;
        netmap) rm -f "$err"; plot_netmap "$file"; return 0 ;;
        table) rm -f "$err"; return 0 ;;
        *) echo "plot.sh: $file: no plot script for '$(head -n 1 "$file" | cut -c 1-60)'" >&2
           rm -f "$err"; return 0 ;;
    esac
    rc=$?
    if [ "$rc" = 3 ]; then
        echo "plot.sh: $file: $(cat "$err")" >&2
    elif [ "$rc" != 0 ]; then
        echo "plot.sh: $file: not rendered with $kind.gp: $(head -n 3 "$err" | tr '\n' ' ')" >&2
        failed=$((failed + 1))
    elif [ "$kind" = aller ]; then
        plot_aller "$file" "$cols"
    else
        plot_render "$file" "$kind" "${file%.dat}.png" "$cols" || true
    fi
    rm -f "$err"
}

for arg in "$@"; do
    if [ -d "$arg" ]; then
        found=0
        for f in "$arg"/*.dat; do
            [ -f "$f" ] || continue
            found=1
            plot_file "$f"
        done
        [ "$found" = 1 ] || echo "plot.sh: no .dat files in $arg" >&2
    elif [ -f "$arg" ]; then
        plot_file "$arg"
    else
        usage "$arg is neither a folder nor a file"
    fi
done
[ "$unwritten" = 0 ] || exit 4
[ "$failed" = 0 ]
