# always/all and always/iall output to PNG: bandwidth per task against the
# buffer size of each call, one curve per communicator size (one gnuplot
# block each). Each line is a single timing of all the calls of one size, so
# there is no spread to draw.
#   gnuplot -e "datafile='always-all-contig.dat'; outfile='a.png'" plot/always.gp
# Columns (numbers, found by name in the header by plot.sh): tasks,
# MiB_per_call, GiBps_task.
if (!exists("tasks_col")) tasks_col = 1
if (!exists("size_col")) size_col = 4
if (!exists("bw_col")) bw_col = 7
if (!exists("dir")) dir = system("dirname '" . ARG0 . "'") . "/"
load dir . "common.gp"
call dir . "ranges.gp" size_col bw_col 1048576

set xlabel "bytes per call (send and receive buffers of one task)"
set ylabel "GiB/s per task"
set logscale y
array curve[nblocks]
do for [i = 1:nblocks] {
    stats datafile index (i - 1) using tasks_col nooutput
    curve[i] = sprintf("%d task%s per communicator", STATS_max, STATS_max == 1 ? "" : "s")
}
plot for [i = 1:nblocks] datafile index (i - 1) \
    using (column(size_col) * 2**20):(column(bw_col)) with linespoints title curve[i]
