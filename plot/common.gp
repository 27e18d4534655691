# Shared by the commsweep plot scripts (loaded, not run alone): the PNG
# terminal, the title from the data file's first line, log scales for sizes,
# and the number of gnuplot blocks (index) in the file.
# In: datafile, outfile (default datafile.png), plottitle (default: the
# file's first line without "# ").
if (!exists("datafile")) {
    print "usage: gnuplot -e \"datafile='FILE.dat'; outfile='FILE.png'\" SCRIPT.gp"
    exit status 2
}
if (!exists("outfile")) outfile = datafile . ".png"
if (!exists("plottitle")) plottitle = system("sed -n '1s/^# //p' '" . datafile . "'")
set terminal pngcairo size 1100,750 noenhanced font ",11"
set output outfile
set title plottitle
set grid xtics ytics mxtics mytics
set key outside right top
set logscale x 2
set format x "%.0b%BB"
set datafile commentschars "#"
# Blocks that hold data: a file ends with a block separator, which gnuplot's
# own count (STATS_blocks) takes for one more, empty, block.
nblocks = int(system("awk '/^#/ { next } /^[[:space:]]*$/ { blank++; next } " . \
    "{ if (blank >= 2 || !n) n++; blank = 0 } END { print n + 0 }' '" . datafile . "'"))
if (nblocks < 1) {
    print "no data in " . datafile
    exit status 1
}
