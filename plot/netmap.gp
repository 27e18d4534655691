# netmap/pairs: one matrix block of the map as a heatmap, from endpoint
# (rows, top to bottom) to endpoint (columns); the diagonal and pairs not
# measured stay blank. The colours run from the worst figure (dark) to the
# best (light) whichever way is better, so that a slow node shows as a dark
# cross and a slow link as a dark cell.
# In (besides common.gp's): block (the gnuplot index), what (the block's
# title), lower_better (1 for latency).
load dir . "common.gp"
unset logscale x
set format x "%g"
unset grid
unset key
set title plottitle . "\n" . what
set xlabel "to endpoint"
set ylabel "from endpoint"
set autoscale xfix
set autoscale yfix
set yrange [*:*] reverse
# Cells without a figure (the diagonal) show the grey behind the image.
set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fillcolor rgb "#bbbbbb" fillstyle solid noborder
set size ratio -1
set tics out
set xtics 1
set ytics 1
if (lower_better) {
    set palette defined (0 "#fff7ec", 0.5 "#fc8d59", 1 "#7f0000")
} else {
    set palette defined (0 "#7f0000", 0.5 "#fc8d59", 1 "#fff7ec")
}
set cblabel what
plot datafile index block matrix with image
