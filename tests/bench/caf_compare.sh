#!/usr/bin/env bash
# caf/cafbench beside EPCC's original coarray benchmark, built with
# OpenCoarrays (not in CI): both run with the same parameters at NP images,
# then one table per section with the original's figure, ours and
# ours / original:
#   p2p   single ping-pong latency (s) per pattern, synchronisation and ndata
#         (strided patterns: per stride, sN, at the largest count)
#   sync  synchronisation overhead (us) per test and neighbour count
#   halo  latency per swap (s) per transfer, synchronisation and ndata
#   BUILD=build tests/bench/caf_compare.sh ORIGINAL_EXE [NP]
# The original must be built with the parameters below (cafparams.f90:
# p2psingle true, p2pnmax 65536, p2ptargettime 0.1, syncouter 20,
# syncinner 200, syncdelay 10000, halo sizes 10 50 100 150, halotargettime
# 0.1, checks on); ORIG_RUN (default "cafrun -np NP --oversubscribe
# --allow-run-as-root") launches it. P2P_SIZES and P2P_STRIDES pick the
# p2p rows.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
orig=${1:?usage: caf_compare.sh ORIGINAL_EXE [NP]}
np=${2:-2}
sizes=${P2P_SIZES:-1 64 4096 65536}
strides=${P2P_STRIDES:-2 16 128}
run_orig=${ORIG_RUN:-cafrun -np $np --oversubscribe --allow-run-as-root}
ours_args=${OURS_ARGS:-"--single --check --maxndata 65536 --original-units --target-time 0.1 --sync-outer 20 \
--sync-inner 200 --sync-delay 10000 --halo-sizes 10,50,100,150"}
W=$TMPD
$run_orig "$orig" > "$W/orig.txt" 2> "$W/orig.err" ||
    { echo "caf_compare: the original failed" >&2; tail -5 "$W/orig.err" >&2; exit 1; }
# shellcheck disable=SC2086
$MPIEXEC $MPIEXEC_FLAGS -n "$np" "$BUILD/caf/cafbench" $ours_args > "$W/ours.txt" 2> "$W/ours.err" ||
    { echo "caf_compare: ours failed" >&2; tail -5 "$W/ours.err" >&2; exit 1; }

# KEY VALUE lines of the original's output.
awk '
    function norm(s) { s = tolower(s); gsub(/^ +| +$/, "", s); gsub(/ +/, "_", s); return s }
    /benchmarking:/ { sub(/.*benchmarking: */, ""); pat = norm($0); next }
    /^ *synchronisation:/ { sub(/.*synchronisation: */, ""); s = norm($0)
                            psync = pat == "mpi_send" ? "none" : s == "sync_all" ? "sync_all" : "sync_images"; next }
    NF == 9 && $1 ~ /^[0-9]+$/ && pat != "" { print "p2p " pat " " psync " " (pat ~ /^strided/ ? "s" $3 : $4), $8; next }
    /cafsync: Synchronisation type:/ { sub(/.*type: */, ""); st = norm($0); sub(/^sync_/, "", st)
        if (st == "all") st = "sync_all"; if (st == "mpi_barrier") st = "mpi_barrier"
        if (st == "images_3d_grid") st = "images_grid3d"; nn = 0; next }
    /cafsync: Number of neighbours is/ { nn = $NF; next }
    /cafsync: sync time is/ { print "sync " st " " nn " -", $5; next }
    /cafhaloswap: synchronisation:/ { sub(/.*synchronisation: */, ""); hs = norm($0) == "sync_all" ? "sync_all" : "sync_images"; next }
    /cafhaloswap: transfer mode:/ { hm = ($0 ~ /put-put/) ? "put" : "get"; next }
    /cafhaloswap: ndata, nrep, time =/ { hn = $(NF - 2); next }
    /cafhaloswap: latency =/ { print "halo " hm " " hs " " hn, $(NF - 1) }
' "$W/orig.txt" > "$W/orig.kv"

# The same from ours.
awk '
    /^# p2p pattern=/ { split($3, a, "="); pat = a[2]; split($5, b, "="); s = b[2]; sub(/:$/, "", s); sec = "p2p"; next }
    /^# section sync/ { sec = "sync"; next }
    /^# halo transfer=/ { split($3, a, "="); hm = a[2]; split($4, b, "="); hs = b[2]; sec = "halo"; next }
    /^#/ || NF == 0 { next }
    sec == "p2p" && NF == 9 { print "p2p " pat " " s " " (pat ~ /^strided/ ? "s" $3 : $4), $8; next }
    sec == "sync" && $4 == "+/-" { print "sync " $1 " " ($1 == "sync_all" || $1 == "mpi_barrier" || $1 == "lock" || $1 == "critical" ? 0 : $2) " -", $3; next }
    sec == "halo" && NF == 6 { print "halo " hm " " hs " " $2, $5 }
' "$W/ours.txt" > "$W/ours.kv"

echo "# caf/cafbench against the original at $np images ($(date -u +%Y-%m-%dT%H:%M:%SZ)); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# ours: $MPIEXEC -n $np cafbench $ours_args"
echo "# original: $run_orig $orig"
awk -v sizes="$sizes" -v strides="$strides" '
    BEGIN { n = split(sizes, s, " "); for (i = 1; i <= n; i++) want[s[i]] = 1
            n = split(strides, s, " "); for (i = 1; i <= n; i++) want["s" s[i]] = 1 }
    FNR == NR { k = $1 " " $2 " " $3 " " $4; orig[k] = $5; if (!(k in seen)) { seen[k] = 1; order[++no] = k }; next }
    { k = $1 " " $2 " " $3 " " $4; ours[k] = $5; if (!(k in seen)) { seen[k] = 1; order[++no] = k } }
    END {
        printf "%-5s %-18s %-12s %7s %14s %14s %8s\n", "# sec", "test", "sync/nneigh", "ndata", "original", "ours", "ours/orig"
        for (i = 1; i <= no; i++) {
            split(order[i], f, " ")
            if (f[1] == "p2p" && !(f[4] in want)) continue
            o = (order[i] in orig) ? sprintf("%.4g", orig[order[i]]) : "-"
            m = (order[i] in ours) ? sprintf("%.4g", ours[order[i]]) : "-"
            r = (o != "-" && m != "-" && o + 0 != 0) ? sprintf("%.2f", m / o) : "-"
            printf "%-5s %-18s %-12s %7s %14s %14s %8s\n", f[1], f[2], f[3], f[4], o, m, r
        }
    }' "$W/orig.kv" "$W/ours.kv"
