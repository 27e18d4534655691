/* netmap: the network-map family's driver; see netmap.h. */
#include "netmap.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "host.h"
#include "report.h"
#include "straggler.h"
#include "watchdog.h"

static int parse_per_node(const char *arg, void *dest, char *err, size_t errlen)
{
    if (strcmp(arg, "all") == 0) {
        *(size_t *)dest = 0;
        return 0;
    }
    return opt_to_size(arg, "ranks per node", 1, 1u << 20, dest, err, errlen);
}

#define FAMILY_OPTIONS 10

static void parse(struct netmap *nm, int argc, char **argv)
{
    const struct netmap_program *p = nm->prog;
    struct netmap_config *c = &nm->cfg;
    *c = (struct netmap_config){.size = (size_t)1 << 20, .window = 8, .iters = 5, .lat_size = 8,
                                .lat_iters = 100, .per_node = 1, .seed = 1};
    const struct opt_spec family[FAMILY_OPTIONS] = {
        {"size", 0, OPT_SIZE, &c->size, "BYTES", "bytes of a bandwidth message (1048576)", 1, (size_t)1 << 40, false, NULL, NULL},
        {"window", 0, OPT_SIZE, &c->window, "N", "bandwidth messages in flight to each peer (8)", 1, 1024, false, NULL, NULL},
        {"iters", 0, OPT_SIZE, &c->iters, "N", "timed repetitions of each bandwidth measurement (5)", 1, 1000000, false, NULL, NULL},
        {"lat-size", 0, OPT_SIZE, &c->lat_size, "BYTES", "bytes of a latency message (8)", 1, (size_t)1 << 30, false, NULL, NULL},
        {"lat-iters", 0, OPT_SIZE, &c->lat_iters, "N", "timed round trips or loops of each latency measurement (100)", 1, 100000000, false, NULL, NULL},
        {"ranks-per-node", 0, OPT_CUSTOM, &c->per_node, "N|all", "ranks of each node taking part, as lanes (1); all: every rank an endpoint", 0, 0, false, NULL, parse_per_node},
        {"nodes-by-block", 0, OPT_SIZE, &c->node_block, "N", "blocks of N consecutive ranks are the nodes (default: ranks sharing memory)", 1, 1u << 30, false, NULL, NULL},
        {"seed", 0, OPT_SIZE, &c->seed, "N", "seed of the random rings, bisections and orders (1)", 0, 0, false, NULL, NULL},
        {"check", 'c', OPT_FLAG, &c->check, NULL, "verify every byte received (outside the timed part)", 0, 0, false, NULL, NULL},
        WATCHDOG_OPT(&c->timeout),
    };
    struct opt_spec specs[OPT_MAX_SPECS];
    size_t n = 0;
    for (size_t i = 0; i < p->noptions; i++)
        specs[n++] = p->options[i];
    for (size_t i = 0; i < FAMILY_OPTIONS; i++)
        specs[n++] = family[i];
    precision_options(specs + n);
    n += PRECISION_NOPTIONS;
    char synopsis[] = "[options]";
    const struct opt_usage usage = {synopsis, p->description, false, false, "netmap",
                                    p->no_stats, NULL};
    int first = opt_parse_or_exit(argc, argv, specs, n, &usage);
    if (first < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[first]);
    precision_settle(NULL);
    watchdog_configure(c->timeout);
    nm->per_rank = c->per_node == 0;
    nm->corrupt = buf_corrupt_rank() >= 0 && buf_corrupt_requested(harness.rank);
    straggler_read_hook();
}

/* Splits the world into nodes: this rank's node communicator, the node's
 * number (by lowest rank) and how many there are. */
static void find_nodes(const struct netmap_config *c, MPI_Comm *node, int *node_id, int *nodes)
{
    MPI_Comm world = MPI_COMM_WORLD;
    if (c->node_block) {
        int block = (int)c->node_block;
        *node_id = harness.rank / block;
        *nodes = (harness.size + block - 1) / block;
        MPI_CHECK(MPI_Comm_split(world, *node_id, harness.rank, node));
        return;
    }
    MPI_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, harness.rank, MPI_INFO_NULL, node));
    int local;
    MPI_Comm_rank(*node, &local);
    MPI_Comm leaders;
    MPI_CHECK(MPI_Comm_split(world, local == 0 ? 0 : MPI_UNDEFINED, harness.rank, &leaders));
    int id[2] = {0, 0};
    if (leaders != MPI_COMM_NULL) {
        MPI_Comm_rank(leaders, &id[0]);
        MPI_Comm_size(leaders, &id[1]);
        MPI_Comm_free(&leaders);
    }
    MPI_CHECK(MPI_Bcast(id, 2, MPI_INT, 0, *node));
    *node_id = id[0];
    *nodes = id[1];
}

/* The lanes: which ranks take part, and their communicators. Returns
 * whether this rank takes part. Collective over the world. */
static bool form_endpoints(struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    /* Room for ":RANK" after a long name: the name is cut, not the rank. */
    const char *name = host_name();
    int keep = NETMAP_HOST_LEN - 13;
    char label[NETMAP_HOST_LEN];
    if (nm->per_rank) {
        MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &nm->lane));
        nm->node = MPI_COMM_SELF;
        nm->lanes = 1;
        nm->lane_index = 0;
        snprintf(label, sizeof label, "%.*s:%d", keep, name, harness.rank);
    } else {
        MPI_Comm node;
        int node_id, nodes, local, count;
        find_nodes(c, &node, &node_id, &nodes);
        MPI_Comm_rank(node, &local);
        MPI_Comm_size(node, &count);
        err_any_rank(MPI_COMM_WORLD, (size_t)count < c->per_node, ERR_STATUS_USAGE,
                     "its node has %d rank%s: --ranks-per-node=%zu needs that many on every node",
                     count, count == 1 ? "" : "s", c->per_node);
        bool takes_part = (size_t)local < c->per_node;
        MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, takes_part ? local : MPI_UNDEFINED, node_id,
                                 &nm->lane));
        MPI_CHECK(MPI_Comm_split(node, takes_part ? 0 : MPI_UNDEFINED, local, &nm->node));
        MPI_Comm_free(&node);
        nm->lanes = (int)c->per_node;
        nm->lane_index = local;
        snprintf(label, sizeof label, "%.*s", keep, name);
        MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, takes_part ? 0 : MPI_UNDEFINED, harness.rank,
                                 &nm->all));
        if (!takes_part) {
            nm->endpoints = nodes;
            return false;
        }
    }
    if (nm->per_rank)
        nm->all = nm->lane;
    MPI_Comm_rank(nm->lane, &nm->me);
    MPI_Comm_size(nm->lane, &nm->endpoints);
    if (nm->lane_index == 0 && nm->me == 0) {
        nm->hosts = calloc((size_t)nm->endpoints, NETMAP_HOST_LEN);
        if (!nm->hosts)
            err_fatal("cannot allocate the host names of %d endpoints", nm->endpoints);
    }
    /* Lane 0 is enough: the lanes of a node share its label. */
    if (nm->lane_index == 0)
        MPI_CHECK(MPI_Gather(label, NETMAP_HOST_LEN, MPI_CHAR, nm->hosts, NETMAP_HOST_LEN,
                             MPI_CHAR, 0, nm->lane));
    return true;
}

const char *netmap_host(const struct netmap *nm, int e)
{
    return nm->hosts ? nm->hosts + (size_t)e * NETMAP_HOST_LEN : "?";
}

double netmap_node_time(const struct netmap *nm, double seconds)
{
    if (nm->lanes == 1)
        return seconds;
    double worst;
    MPI_CHECK(MPI_Allreduce(&seconds, &worst, 1, MPI_DOUBLE, MPI_MAX, nm->node));
    return worst;
}

void netmap_mean_samples(const struct netmap *nm, double *samples, size_t n)
{
    if (nm->lanes > 1)
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, samples, (int)n, MPI_DOUBLE, MPI_MAX, nm->node));
    if (nm->lane_index != 0)
        return;
    if (nm->me != 0) {
        MPI_CHECK(MPI_Reduce(samples, NULL, (int)n, MPI_DOUBLE, MPI_SUM, 0, nm->lane));
        return;
    }
    MPI_CHECK(MPI_Reduce(MPI_IN_PLACE, samples, (int)n, MPI_DOUBLE, MPI_SUM, 0, nm->lane));
    for (size_t i = 0; i < n; i++)
        samples[i] /= nm->endpoints;
}

void netmap_row_spread(const double *samples, size_t n, char *text, size_t len)
{
    struct stats_dispersion d;
    report_row_iterations(samples, n, &d);
    text[0] = '\0';
    if (report_stats())
        snprintf(text, len, " %.3f %.3f %.3f %.4f", d.median, d.p5, d.p95, d.cv);
}

size_t netmap_room(size_t count) { return precision_cap(count, true); }

/* --precision: how the measurements of the run stopped. Every rank of a
 * measurement takes its decision, so the printing rank's tally is the
 * run's. */
static struct {
    size_t measured, reached, least, most;
    double widest; /* the widest interval left, % */
} tally = {.least = SIZE_MAX};

size_t netmap_repeat(MPI_Comm comm, size_t count, const double *samples, bool timed,
                     enum precision_figure figure, precision_batch_fn run, void *arg,
                     struct precision_result *res)
{
    struct precision_result r;
    size_t done = precision_measure(count, netmap_room(count), samples, timed, figure, comm, run,
                                    arg, &r);
    if (res)
        *res = r;
    if (!r.on)
        return done;
    tally.measured++;
    tally.reached += r.reached;
    tally.least = done < tally.least ? done : tally.least;
    tally.most = done > tally.most ? done : tally.most;
    tally.widest = r.ci_pct > tally.widest ? r.ci_pct : tally.widest;
    return done;
}

static void print_tally(void)
{
    if (!precision_on() || !tally.measured)
        return;
    out_comment("precision: %zu of %zu measurements came within %g%% (repetitions %zu to %zu; "
                "the widest 95%% interval %.3g%%)",
                tally.reached, tally.measured, precision_pct(), tally.least, tally.most,
                tally.widest);
}

void *netmap_alloc(size_t n, size_t each, const char *what)
{
    void *p = calloc(n ? n : 1, each);
    if (!p && what)
        err_fatal("cannot allocate %s (%zu x %zu bytes)", what, n, each);
    if (!p)
        err_fatal("cannot allocate %zu x %zu bytes", n, each);
    return p;
}

void netmap_report_values(const char *unit, ...)
{
    va_list ap;
    va_start(ap, unit);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;)
        report_value(name, unit);
    va_end(ap);
}

double netmap_mbps(const struct netmap *nm, size_t bytes, double seconds)
{
    if (seconds <= 0)
        return NAN;
    return (double)bytes * nm->lanes / seconds / 1e6;
}

void netmap_print_matrix(const char *what, const char *unit, const double *m, size_t n,
                         const char *fmt)
{
    if (!out_is_printer() || report_jsonl())
        return;
    out_comment("%s, %s: row = from endpoint, column = to endpoint (0-based), nan = not "
                "measured (gnuplot: matrix)",
                what, unit);
    size_t cap = n * 16 + 1;
    char *line = malloc(cap);
    if (!line)
        err_fatal("cannot allocate a matrix line");
    for (size_t i = 0; i < n; i++) {
        size_t used = 0;
        for (size_t j = 0; j < n; j++) {
            double v = m[i * n + j];
            int w = isnan(v) ? snprintf(line + used, cap - used, "%s%s", j ? " " : "", "nan")
                             : snprintf(line + used, cap - used, "%s", j ? " " : "");
            used += (size_t)w;
            if (!isnan(v))
                used += (size_t)snprintf(line + used, cap - used, fmt, v);
        }
        out_line("%s", line);
    }
    free(line);
    out_block_end();
}

static void print_endpoints(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    if (nm->per_rank)
        out_comment("endpoints: %d ranks, each its own (--ranks-per-node=all)", nm->endpoints);
    else
        out_comment("endpoints: %d nodes (%s), %d rank%s of each taking part%s", nm->endpoints,
                    c->node_block ? "blocks of consecutive ranks, --nodes-by-block"
                                  : "ranks that share memory",
                    nm->lanes, nm->lanes == 1 ? "" : "s",
                    nm->lanes > 1 ? " as lanes that run at once: a figure is the lanes' bytes "
                                    "over the slowest lane's time"
                                  : "");
    for (int e = 0; e < nm->endpoints && nm->hosts; e++)
        out_comment("endpoint %d: %s", e, netmap_host(nm, e));
    if (nm->hosts && report_jsonl()) {
        const char **labels = malloc((size_t)nm->endpoints * sizeof *labels);
        if (!labels)
            err_fatal("cannot allocate the endpoint labels");
        for (int e = 0; e < nm->endpoints; e++)
            labels[e] = netmap_host(nm, e);
        report_header_strings("endpoint_hosts", labels, (size_t)nm->endpoints);
        free(labels);
    }
    out_comment("data verification: %s%s", c->check ? "on (every byte, outside the timed part)"
                                                    : "off",
                nm->corrupt ? " (COMMSWEEP_CORRUPT=1: received data is damaged on purpose)"
                            : "");
}

_Noreturn void netmap_main(int argc, char **argv, const struct netmap_program *prog)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct netmap nm = {.prog = prog, .lane = MPI_COMM_NULL, .node = MPI_COMM_NULL,
                        .all = MPI_COMM_NULL};
    parse(&nm, argc, argv);
    bool takes_part = form_endpoints(&nm);
    int endpoints = nm.endpoints;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &endpoints, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if ((size_t)endpoints < prog->min_nodes)
        err_usage("%s needs %zu %s or more; this job has %d (%s)", prog->name, prog->min_nodes,
                  nm.per_rank ? "ranks" : "nodes", endpoints,
                  nm.per_rank ? "start more ranks"
                              : "--ranks-per-node=all maps ranks instead of nodes, "
                                "--nodes-by-block=N takes blocks of N ranks as nodes");
    out_header(prog->title, argc, argv);
    print_endpoints(&nm);
    if (prog->settings)
        prog->settings(&nm);
    precision_describe("each measurement", prog->precision_figure,
                       "--iters (--lat-iters) repetitions first, at most ten times as many");
    report_validation(nm.cfg.check);
    size_t biggest = nm.cfg.size > nm.cfg.lat_size ? nm.cfg.size : nm.cfg.lat_size;
    /* Two peers at most receive at once: a ring's two neighbours. */
    nm.recv_slots = prog->uses_window ? 2 * nm.cfg.window : 2;
    if (biggest > SIZE_MAX / nm.recv_slots)
        err_usage("--size %zu times %zu messages does not fit in memory", biggest, nm.recv_slots);
    buf_alloc_all(&nm.send, takes_part ? biggest : 1, BUF_HOST, MPI_COMM_WORLD);
    buf_alloc_all(&nm.recv, takes_part ? biggest * nm.recv_slots : 1, BUF_HOST, MPI_COMM_WORLD);
    bool ok = true;
    double t0 = MPI_Wtime();
    if (takes_part)
        ok = prog->run(&nm);
    print_tally();
    /* Under SimGrid's SMPI, MPI_Wtime is the simulated clock. */
    out_comment("run time: %.6f s, the measurements and the verdict (MPI_Wtime)", MPI_Wtime() - t0);
    err_check(MPI_COMM_WORLD, !ok, "data verification failed (see the lines above)");
    if (nm.cfg.check)
        out_comment("all data validated");
    buf_free(&nm.send);
    buf_free(&nm.recv);
    free(nm.hosts);
    if (nm.all != MPI_COMM_NULL && nm.all != nm.lane)
        MPI_Comm_free(&nm.all);
    if (nm.lane != MPI_COMM_NULL)
        MPI_Comm_free(&nm.lane);
    if (nm.node != MPI_COMM_NULL && nm.node != MPI_COMM_SELF)
        MPI_Comm_free(&nm.node);
    harness_finish(ERR_STATUS_OK);
}
