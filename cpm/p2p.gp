# Plots the output of p2p: one-way time against message size, with the
# confidence interval as error bars, one curve per pair (gnuplot index).
#   mpirun -n 4 p2p -M 65536 > p2p.out
#   gnuplot -e "datafile='p2p.out'" cpm/p2p.gp > p2p.png
if (!exists("datafile")) datafile = 'p2p.out'
set terminal pngcairo size 900,600
set xlabel 'message size (bytes)'
set ylabel 'time (s)'
set key top left
# The file ends with a block separator, which stats counts as a block.
stats datafile using 1 nooutput
plot for [i=0:STATS_blocks-2] datafile index i using 1:2:5 with yerrorlines title sprintf('pair %d (see the # pair lines)', i + 1)
