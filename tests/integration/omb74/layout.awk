# The layout of an OSU-style output, numbers masked, one record a line:
#   P <line>   a line before the column heading (title without its version;
#              the neighborhood collectives' topology creation time masked)
#   H <line>   the column heading (of osu_mbw_mr -V: the windows)
#   B <line>   a '#' or blank line after it
#   D <row>    a data row: the size as printed when a field starts in column
#              1, then for every other field the column where it ends (so
#              widths and alignment count, values do not; the message
#              rates of osu_mbw_mr -V: the size and the number of fields;
#              osu_init and osu_hello: their line, osu_init's times masked)
BEGIN { head = 1 }
# The start-up programs have no column heading: their one data line, the
# times of osu_init masked (the count of processes is the run's own).
/^nprocs: [0-9]+, min: / { line = $0; gsub(/: [0-9]+ ms/, ": N ms", line); print "D " line; head = 0; next }
/^This is a test with [0-9]+ processes$/ { print "D " $0; head = 0; next }
head && /^# (Size |Avg Latency|Overall\()|^#       +1( |$)/ { print "H " $0; head = 0; next }
head { line = $0; sub(/ \(commsweep [^)]*\)$/, "", line); sub(/ v7\.4$/, "", line)
       sub(/topology graph:[0-9.]+ us\.$/, "topology graph:N us.", line)
       print "P " line; next }
/^# Message Rate Profile$/ { rates = 1 }
/^#/ || /^[[:space:]]*$/ { print "B " $0; next }
# osu_mbw_mr -V's message rates outgrow their 10 characters by value: the
# size and the number of fields only.
rates { print "D " $1 " fields " NF; next }
{
    out = ""; rest = $0; pos = 0
    while (match(rest, /[^ ]+/)) {
        start = pos + RSTART; end = pos + RSTART + RLENGTH - 1
        out = out (out == "" ? "" : " ") (start == 1 ? substr(rest, RSTART, RLENGTH) : end)
        rest = substr(rest, RSTART + RLENGTH); pos = end
    }
    print "D " out
}
