# Widens an axis whose data is one single value (one message size, say) so
# gnuplot draws the point instead of failing on an empty range. Called by
# the plot scripts: call dir."ranges.gp" X_COLUMN Y_COLUMN [X_SCALE]
# Values <= 0 are left out: they have no place on a log axis.
xscale = (ARGC >= 3) ? real(ARG3) : 1.0
stats datafile using (column(int(ARG1)) > 0 ? column(int(ARG1)) * xscale : NaN) nooutput
if (STATS_records > 0 && STATS_min == STATS_max) set xrange [STATS_min / 2 : STATS_max * 2]
stats datafile using (column(int(ARG2)) > 0 ? column(int(ARG2)) : NaN) nooutput
if (STATS_records > 0 && STATS_min == STATS_max) set yrange [STATS_min / 2 : STATS_max * 2]
