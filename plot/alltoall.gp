# alltoall/all output to PNG: bandwidth per rank against the bytes each rank
# sends and receives per call, one curve per communicator size (one gnuplot
# block each), the average with the minimum and maximum over the iterations
# as error bars.
#   gnuplot -e "datafile='all-contig.dat'; outfile='all-contig.png'" plot/alltoall.gp
# Columns (numbers, found by name in the header by plot.sh): comms, ranks,
# GiB_per_rank, GiBps_min, GiBps_avg, GiBps_max.
if (!exists("comms_col")) comms_col = 1
if (!exists("ranks_col")) ranks_col = 2
if (!exists("size_col")) size_col = 3
if (!exists("low_col")) low_col = 7
if (!exists("avg_col")) avg_col = 8
if (!exists("high_col")) high_col = 9
if (!exists("dir")) dir = system("dirname '" . ARG0 . "'") . "/"
load dir . "common.gp"
call dir . "ranges.gp" size_col avg_col 1073741824

set xlabel "bytes sent + received per rank per call"
set ylabel "GiB/s per rank (average, min..max over iterations)"
set logscale y
array curve[nblocks]
do for [i = 1:nblocks] {
    stats datafile index (i - 1) using comms_col nooutput
    comms = STATS_max
    stats datafile index (i - 1) using ranks_col nooutput
    curve[i] = sprintf("%d x %d ranks", comms, STATS_max)
}
plot for [i = 1:nblocks] datafile index (i - 1) \
    using (column(size_col) * 2**30):(column(avg_col)):(column(low_col)):(column(high_col)) \
    with yerrorlines title curve[i]
