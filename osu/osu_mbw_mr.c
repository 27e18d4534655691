/* osu_mbw_mr: every pair (rank i sends to rank i + np/2) runs the bandwidth
 * pattern at once; reports the aggregate MB/s and messages/s (-R 0: MB/s only). */
#include "pt2pt.h"

#include <stdio.h>

static size_t pairs_wanted; /* -p, 0 = np/2 */
static size_t print_rate = 1; /* -R 0|1: the Messages/s column (OMB's default 1) */
static bool vary_window;    /* -V */

static void mbw_mr_setup(struct pt2pt_ctx *c)
{
    /* (The driver refuses more pairs than fit.) */
    pt2pt_pair_roles(c, pairs_wanted ? pairs_wanted : (size_t)c->nranks / 2);
    pt2pt_one_way_setup(c);
    c->ncolumns = print_rate ? 2 : 1;
}

/* OMB 7.4's pairs and window line, then its datatype line. */
static void mbw_mr_omb_lines(const struct pt2pt_ctx *c, char *before, size_t before_len,
                             char *after, size_t after_len)
{
    (void)before;
    (void)before_len;
    if (vary_window)
        snprintf(after, after_len,
                 "# [ pairs: %zu ] [ window size: varied ]\n\n"
                 "# Uni-directional Bandwidth (MB/sec)\n",
                 c->npairs);
    else
        snprintf(after, after_len, "# [ pairs: %zu ] [ window size: %zu ]\n",
                 c->npairs, c->window);
}

static const struct opt_spec extra[] = {
    {.long_name = "pairs", .short_name = 'p', .kind = OPT_SIZE, .dest = &pairs_wanted,
     .metavar = "N", .help = "pairs that communicate (default: number of ranks / 2)", .min = 1},
    {.long_name = "num-pairs", .kind = OPT_SIZE, .dest = &pairs_wanted, .metavar = "N",
     .help = "OMB 7.4's name of -p", .min = 1},
    {.long_name = "print-rate", .short_name = 'R', .kind = OPT_SIZE, .dest = &print_rate,
     .metavar = "0|1", .help = "1: print the Messages/s column (default), 0: MB/s only",
     .max = 1},
    {.long_name = "vary-window", .short_name = 'V', .kind = OPT_FLAG, .dest = &vary_window,
     .help = "OMB's matrix: windows 1, 2, 4, ... 128 (or up to -W) by sizes"},
};

static const char *const columns[] = {"MB/s", "Messages/s"};
static const char *const full_columns[] = {"Min MB/s", "Max MB/s", "Iterations"};

static const struct pt2pt_bench mbw_mr = {
    .prog = {.title = "OSU MPI Multiple Bandwidth / Message Rate Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Each pair (rank i sends to rank i + np/2) sends a window (-W) of\n"
                            "back-to-back MPI_Isend and waits for a short reply, all pairs at\n"
                            "once; reports the aggregate MB/s (10^6 bytes) and messages/s over\n"
                            "the senders' mean time. Needs an even number of ranks; place\n"
                            "them in blocks (first half on one node).\n"
                            "H|D|MH|MD x2: buffers of the sending and the receiving half.",
             /* OMB 7.4's: 100 iterations (10 warm-up) at every size */
             .min_size = 1, .max_size = (size_t)1 << 22, .iter_small = 100, .warm_small = 10,
             .iter_large = 100, .warm_large = 10, .large_threshold = 8192, .default_window = 64,
             .placement = true, .no_blank_line = true},
    .ranks = PT2PT_EVEN,
    .combine = PT2PT_MEAN,
    .iteration_barrier = true,
    .columns = columns, .ncolumns = 2, .full_columns = full_columns,
    .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    .vary_window = &vary_window,
    .setup = mbw_mr_setup,
    .exchange = pt2pt_window_one_way,
    .values = pt2pt_aggregate_values, /* over the senders' mean time, as OMB 7.4 */
    .omb_lines = mbw_mr_omb_lines,
};

int main(int argc, char **argv) { pt2pt_main(&mbw_mr, argc, argv); }
