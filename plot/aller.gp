# alltoall/aller output to PNG, one picture per communicator size: bandwidth
# per rank against the bytes each rank sends and receives per call, one
# curve per algorithm (the blocks first_block .. first_block + words(names)
# - 1), the average with the minimum and maximum over the iterations as
# error bars. plot.sh calls it once per size:
#   gnuplot -e "datafile='aller-contig.dat'; outfile='aller-contig-1x8.png'; \
#               first_block=0; names='alltoall isend 2d'; shape='1 x 8 ranks'" plot/aller.gp
# Columns (numbers, found by name in the header by plot.sh): size_col
# (GiB_per_rank), low_col, avg_col, high_col (GiBps_min, _avg, _max).
if (!exists("first_block")) first_block = 0
if (!exists("names")) names = system("sed -n 's/^# algorithms: //p' '" . datafile . "' | head -n 1 | tr -d ,")
if (!exists("size_col")) size_col = 3
if (!exists("low_col")) low_col = 7
if (!exists("avg_col")) avg_col = 8
if (!exists("high_col")) high_col = 9
if (!exists("dir")) dir = system("dirname '" . ARG0 . "'") . "/"
load dir . "common.gp"
if (exists("shape")) set title plottitle . "\n" . shape
call dir . "ranges.gp" size_col avg_col 1073741824

set xlabel "bytes sent + received per rank per call"
set ylabel "GiB/s per rank (average, min..max over iterations)"
set logscale y
plot for [i = 1:words(names)] datafile index (first_block + i - 1) \
    using (column(size_col) * 2**30):(column(avg_col)):(column(low_col)):(column(high_col)) \
    with yerrorlines title word(names, i)
