# netmap: the network-map family. Each program is a struct of callbacks run
# by netmap.c; transfer.c holds the timed exchanges, plan.c who talks to
# whom, culprit.c the rule that names slow nodes and links, fabric.c the
# topology files, judge.c and pinpoint.c locate's references and search,
# locate_report.c its output (unit tests link them too).
$(call family,netmap,pairs rings bisection congestion locate,netmap/netmap.c netmap/transfer.c netmap/plan.c netmap/culprit.c netmap/fabric.c netmap/fabric_load.c netmap/judge.c netmap/pinpoint.c netmap/locate_report.c)
