# OSU-style output to PNG: the first value column (latency, bandwidth, rate)
# against the message size, both on log scales; with -f output the minimum
# and maximum columns become error bars.
#   gnuplot -e "datafile='osu_latency.dat'; outfile='osu_latency.png'" plot/osu.gp
# Columns: size_col (1), value_col (2), low_col and high_col (0: none);
# value_label names the value (plot.sh takes it from the "# Size" header).
if (!exists("size_col")) size_col = 1
if (!exists("value_col")) value_col = 2
if (!exists("low_col")) low_col = 0
if (!exists("high_col")) high_col = 0
if (!exists("value_label")) value_label = "value"
if (!exists("dir")) dir = system("dirname '" . ARG0 . "'") . "/"
load dir . "common.gp"
call dir . "ranges.gp" size_col value_col

set xlabel "message size"
set ylabel value_label
set logscale y
set key off
if (low_col > 0 && high_col > 0) {
    plot datafile using (column(size_col)):(column(value_col)):(column(low_col)):(column(high_col)) \
        with yerrorlines
} else {
    plot datafile using (column(size_col)):(column(value_col)) with linespoints
}
