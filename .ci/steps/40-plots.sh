# The local job ends with PNGs, and make plots renders a folder again.
set -eu
plots_dir=$(mktemp -d)
trap 'rm -rf "$plots_dir"' EXIT
RESULTS="$plots_dir" SWEEP_FAMILIES="alltoall always" ALLTOALL_COUNTHI=256 \
    ALWAYS_SIZE=65536 ALWAYS_TIME_LIMIT=0.05 machines/local/job.sh
rm -f "$plots_dir"/*.png
make plots RESULTS="$plots_dir"
n=$(ls "$plots_dir"/*.png | wc -l)
echo "plots rendered: $n"
test "$n" -eq 6
