# The layout of an OSU-style output, numbers masked, one record a line:
#   P <line>   a line before the column heading (title without its version)
#   H <line>   the column heading
#   B <line>   a '#' or blank line after it
#   D <row>    a data row: the size as printed when a field starts in column
#              1, then for every other field the column where it ends (so
#              widths and alignment count, values do not)
BEGIN { head = 1 }
head && /^# (Size |Avg Latency|Overall\()/ { print "H " $0; head = 0; next }
head { line = $0; sub(/ v7\.4$/, "", line); sub(/ \(commsweep [^)]*\)$/, "", line)
       print "P " line; next }
/^#/ || /^[[:space:]]*$/ { print "B " $0; next }
{
    out = ""; rest = $0; pos = 0
    while (match(rest, /[^ ]+/)) {
        start = pos + RSTART; end = pos + RSTART + RLENGTH - 1
        out = out (out == "" ? "" : " ") (start == 1 ? substr(rest, RSTART, RLENGTH) : end)
        rest = substr(rest, RSTART + RLENGTH); pos = end
    }
    print "D " out
}
