# make plots RESULTS=DIR: every .dat in DIR rendered to a PNG beside it.
.PHONY: plots
plots:
	@if [ -z "$(RESULTS)" ]; then echo "make plots: give RESULTS=DIR (a folder of .dat files)" >&2; exit 2; fi
	plot/plot.sh "$(RESULTS)"
