/*
 * netmap: the driver of the network-map family (pairs, rings, bisection,
 * congestion). A program is a struct of callbacks: its own options, its
 * JSON tables, and run(), which measures through transfer.h and prints
 * through out.h and report.h. The driver owns what they share: the options
 * of the family, the endpoints (one rank per node by default), the
 * buffers, the header, the collective verdict of the data check and the
 * exit.
 *
 * Endpoints. By default one rank of each node takes part, so a figure
 * belongs to a node; nodes are the ranks that share memory
 * (MPI_Comm_split_type), or blocks of consecutive ranks with
 * --nodes-by-block, numbered by their lowest rank. With --ranks-per-node=N
 * the first N ranks of every node take part as N lanes: lane l holds local
 * rank l of every node and runs the same pattern as the others at the same
 * time, and a node's figure is that of its lanes together (bytes of all
 * lanes over the slowest lane's time). --ranks-per-node=all makes every
 * rank an endpoint of its own (a per-rank map). The other ranks wait.
 */
#ifndef COMMSWEEP_NETMAP_H
#define COMMSWEEP_NETMAP_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "opt.h"
#include "precision.h"

#define NETMAP_HOST_LEN 64 /* bytes kept of a host name, with its end */

struct netmap_config {
    size_t size;      /* --size: bytes of a bandwidth message (1 MiB) */
    size_t window;    /* --window: messages in flight to each peer (8) */
    size_t iters;     /* --iters: timed repetitions of a bandwidth measurement */
    size_t lat_size;  /* --lat-size: bytes of a latency message (8) */
    size_t lat_iters; /* --lat-iters: timed round trips or loops of a latency measurement */
    size_t per_node;  /* --ranks-per-node: ranks of each node taking part; 0: all, per rank */
    size_t node_block; /* --nodes-by-block: 0 nodes by shared memory */
    size_t seed;      /* --seed of the random rings, bisections and victims */
    bool check;       /* -c: verify every byte received */
    double timeout;   /* --timeout */
};

struct netmap;

struct netmap_program {
    const char *name;        /* "pairs": the program is netmap/<name> */
    const char *title;       /* the header's title */
    const char *description; /* --help text under the synopsis */
    const struct opt_spec *options; /* its own options (may be NULL) */
    size_t noptions;
    size_t min_nodes;        /* endpoints it needs */
    bool uses_window;        /* it sends windows of --size messages */
    const char *no_stats;    /* why --stats and --samples are refused; NULL: taken */
    /* '#' lines of its settings, and its JSON tables; before any row. */
    void (*settings)(const struct netmap *nm);
    /* Measures and prints; collective over the lanes (only ranks taking
     * part call it). false: a data check failed on this rank (printed). */
    bool (*run)(struct netmap *nm);
    const char *precision_figure; /* what --precision makes precise: "median", "mean" */
};

struct netmap {
    struct netmap_config cfg;
    const struct netmap_program *prog;
    MPI_Comm lane;    /* one rank of each node, in node order */
    MPI_Comm node;    /* the lanes of this rank's node (MPI_COMM_SELF per rank) */
    MPI_Comm all;     /* every rank taking part, of every lane (lane itself per rank) */
    int me;           /* this rank's endpoint: its rank in lane */
    int endpoints;    /* size of lane: nodes, or ranks with --ranks-per-node=all */
    int lanes;        /* ranks of each node taking part (1 per rank) */
    int lane_index;   /* this rank's lane */
    bool per_rank;    /* --ranks-per-node=all */
    char *hosts;      /* on lane 0's rank 0: endpoint e's label at e * NETMAP_HOST_LEN */
    struct buf send, recv; /* window-sized: --window messages of the larger size */
    size_t recv_slots;     /* messages recv holds (window x the most peers) */
    bool corrupt;     /* this rank damages what it received (COMMSWEEP_CORRUPT) */
};

/* The whole program: options, MPI, endpoints, header, run, verdict, exit. */
_Noreturn void netmap_main(int argc, char **argv, const struct netmap_program *prog);

/* A host label of endpoint e, on the printing rank ("node3", "node3:5" per rank). */
const char *netmap_host(const struct netmap *nm, int e);

/* The node figure from this rank's lane figure: the largest time of the
 * node's lanes (collective over nm->node). */
double netmap_node_time(const struct netmap *nm, double seconds);

/* Each of the n samples (times) made the largest over the node's lanes,
 * and then the mean over the endpoints: on a ring the endpoints are
 * coupled but not in step, so the largest of each loop would add their
 * skew to every loop. The result is on the printing rank (the others'
 * arrays are left partly reduced). Collective over the lanes. */
void netmap_mean_samples(const struct netmap *nm, double *samples, size_t n);

/* A data row's spread (--stats) as text columns, and its JSON samples:
 * report_row_iterations over samples, then " median p5 p95 cv" into text
 * (empty without --stats). */
void netmap_row_spread(const double *samples, size_t n, char *text, size_t len);

/* --precision (precision.h): the repetitions of one measurement, count of
 * them, or batches of them until the figure (median or mean) of every
 * timed rank's samples is within the precision; collective over comm,
 * which holds every rank whose measurement is coupled with this one (the
 * lanes too: nm->all). run(arg, first, n) makes repetitions first .. first
 * + n - 1 and writes samples[first ..], which has room for
 * netmap_room(count). Returns the repetitions made; res (may be NULL) says
 * how they ended. The run's tally of them is a '#' line at its end. */
size_t netmap_room(size_t count);
size_t netmap_repeat(MPI_Comm comm, size_t count, const double *samples, bool timed,
                     enum precision_figure figure, precision_batch_fn run, void *arg,
                     struct precision_result *res);

/* Zeroed memory for n elements of each bytes (room for one where n is 0);
 * where there is none, the run ends (err_fatal) with a line naming what
 * (NULL: only the sizes). */
void *netmap_alloc(size_t n, size_t each, const char *what);

/* Declares values of one unit, in order, in the JSON table being declared
 * (report_value for each name of the NULL-ended list). */
void netmap_report_values(const char *unit, ...);

/* MB/s (10^6 bytes per second) of bytes per lane moved in seconds. */
double netmap_mbps(const struct netmap *nm, size_t bytes, double seconds);

/* Prints an n x n matrix (row: from, column: to) as a gnuplot matrix
 * block: one line per row, "nan" where there is no value (the diagonal),
 * preceded by comment lines naming it; then ends the block. Printing rank. */
void netmap_print_matrix(const char *what, const char *unit, const double *m, size_t n,
                         const char *fmt);

#endif
