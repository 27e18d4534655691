/*
 * alltoall/all: MPI_Alltoall on MPI_LONG in a triply nested loop.
 *   outer:  concurrent subcommunicators of targetSize = world .. 1 ranks (halving)
 *   middle: count = countAll / targetSize .. 1 longs per peer (halving)
 *   inner:  iters timed calls; an iteration lasts as long as its slowest rank
 * Positional arguments as the seed defines them: [PARTITION [ITERS [COUNTHI]]].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "harness.h"
#include "msg.h"
#include "subcomm.h"

#define ALL_DEFAULT_ITERS 3
#define ALL_DEFAULT_COUNTHI (40 * 1024)
#define ALL_MAX_ITERS 1000000
#define GIB ((double)(1u << 30))

struct all_config {
    bool strided;
    size_t iters;
    size_t count_hi; /* longs per rank per peer at full world size */
    int memory;      /* enum buf_memory */
    bool topology;
    bool staging;
    enum buf_where where;
};

static void parse(int argc, char **argv, struct all_config *c)
{
    *c = (struct all_config){false, ALL_DEFAULT_ITERS, ALL_DEFAULT_COUNTHI, BUF_MEM_HOST,
                             false, false, BUF_HOST};
    const struct opt_spec specs[] = {
        BUF_MEMORY_OPT(&c->memory),
        BUF_STAGING_OPT(&c->staging),
        {.long_name = "topology", .kind = OPT_FLAG, .dest = &c->topology,
         .help = "print each rank's host, cores, NUMA node and GPU as # lines"},
    };
    const struct opt_usage usage = {
        "[options] [PARTITION [ITERS [COUNTHI]]]",
        "MPI_Alltoall over concurrent subcommunicators of halving size.\n"
        "  PARTITION  starting with s or S: strided ranks; anything else: contiguous\n"
        "  ITERS      timed calls per count (default 3; <= 0 means default)\n"
        "  COUNTHI    longs per rank per peer at full size (default 40960; <= 0 means default)",
        true, false};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    int npos = argc - pos;
    if (npos > 3)
        err_usage("too many arguments: '%s' (at most PARTITION ITERS COUNTHI; try --help)",
                  argv[pos + 3]);
    if (npos >= 1)
        c->strided = argv[pos][0] == 's' || argv[pos][0] == 'S';
    if (npos >= 2)
        c->iters = opt_positional_or_exit(argv[pos + 1], "iterations", ALL_MAX_ITERS,
                                          ALL_DEFAULT_ITERS);
    /* countAll = countHi * world longs per buffer must be addressable. */
    if (npos >= 3)
        c->count_hi = opt_positional_or_exit(argv[pos + 2], "count",
                                             SIZE_MAX / sizeof(long) / (size_t)harness.size / 2,
                                             ALL_DEFAULT_COUNTHI);
    c->where = buf_memory_setup((enum buf_memory)c->memory, c->staging);
}

/* '#' lines naming the world ranks of each communicator, so a reader (and the
 * tests) can see the pairing; only for worlds small enough to read. */
#define ALL_MEMBERS_MAX_WORLD 64
static void print_members(int color)
{
    if (harness.size > ALL_MEMBERS_MAX_WORLD)
        return;
    int colors[ALL_MEMBERS_MAX_WORLD];
    MPI_CHECK(MPI_Gather(&color, 1, MPI_INT, colors, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (!out_is_printer())
        return;
    for (int comm = 0; comm < harness.size; comm++) {
        char text[ALL_MEMBERS_MAX_WORLD * 4 + 1];
        size_t used = 0;
        for (int r = 0; r < harness.size; r++)
            if (colors[r] == comm)
                used += (size_t)snprintf(text + used, sizeof text - used, " %d", r);
        if (used)
            out_comment("communicator %d: world ranks%s", comm, text);
    }
}

/* One timed call; with --staging the copies to and from the device too. */
static void alltoall_once(struct buf *send, struct buf *recv, size_t bytes,
                          const struct msg_type *mt, MPI_Comm sub)
{
    buf_stage_out(send, 0, bytes);
    MPI_CHECK(MPI_Alltoall(buf_mpi(send), mt->count, mt->type, buf_mpi(recv), mt->count,
                           mt->type, sub));
    buf_stage_in(recv, 0, bytes);
}

/* One middle-loop step: warm-up, timed calls, per-iteration maxima, data check. */
static void run_count(const struct all_config *c, const struct subcomm *b, struct buf *send,
                      struct buf *recv, size_t count, double *local, double *maxima)
{
    MPI_Comm sub = b->comm;
    int sub_size = b->size;
    const int *world_of = b->world_of;
    struct msg_type mt;
    if (msg_type_make(count, MPI_LONG, &mt))
        err_fatal("cannot describe %zu longs as an MPI datatype", count);
    buf_set_bytes(recv, 0xFF);
    size_t bytes = count * (size_t)sub_size * sizeof(long);

    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = timing_now();
    alltoall_once(send, recv, bytes, &mt, sub);
    double warm = timing_now() - t0, warm_max = 0.0;
    timing_max_per_iteration(&warm, &warm_max, 1, 0, MPI_COMM_WORLD);

    /* One barrier, then the calls back to back: a barrier per call would add
     * its exit skew to every small-message time. A call lasts on a rank from
     * the end of its previous call to the end of this one. */
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double prev = timing_now();
    for (size_t i = 0; i < c->iters; i++) {
        alltoall_once(send, recv, bytes, &mt, sub);
        double now = timing_now();
        local[i] = now - prev;
        prev = now;
    }
    msg_type_free(&mt);
    timing_max_per_iteration(local, maxima, c->iters, 0, MPI_COMM_WORLD);

    a2a_corrupt_if_asked(recv, A2A_LONG, harness.rank);
    struct a2a_failure f;
    bool bad = a2a_check(recv, A2A_LONG, 1, count, sub_size, b->rank, world_of, &f) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_FAIL,
            "data check failed: rank %d, count %zu: element %zu from communicator rank %zu "
            "(world rank %d) is %.0f, expected %.0f",
            harness.rank, count, f.element, f.peer, bad ? world_of[f.peer] : -1, f.got, f.want);

    if (!out_is_printer())
        return;
    /* Printed only now: the launcher forwarding output while the timed calls
     * run would take CPU time from them. */
    out_line("### count %zu warm-up time %.9e", count, warm_max);
    for (size_t i = 0; i < c->iters; i++)
        out_line("### count %zu iteration %zu time %.9e", count, i + 1, maxima[i]);
    struct stats_summary s;
    stats_summarize(maxima, c->iters, &s);
    double gib = (double)(2 * count) * sub_size * sizeof(long) / GIB;
    out_line("%8d %8d %14.6e %14.6e %14.6e %14.6e %14.6e %14.6e %14.6e", b->ncomms, sub_size,
             gib, s.min, s.mean, s.max, gib / s.max, gib / s.mean, gib / s.min);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct all_config c;
    parse(argc, argv, &c);

    size_t count_all = c.count_hi * (size_t)harness.size;
    out_header("All to All: MPI_Alltoall over concurrent subcommunicators", argc, argv);
    out_comment("partition: %s, iterations: %zu, countHi: %zu longs, countAll: %zu longs, "
                "buffers: %s",
                c.strided ? "strided" : "contiguous", c.iters, c.count_hi, count_all,
                buf_where_label(c.where));
    out_comment("time: per iteration the maximum over all ranks; GiB per rank = "
                "(sendcount + recvcount) * comm_size * sizeof(long) / 2^30");
    if (c.topology)
        topo_report(MPI_COMM_WORLD);
    buf_print_device_header(&c.where, 1);

    struct buf send, recv;
    buf_alloc_all(&send, count_all * sizeof(long), c.where, MPI_COMM_WORLD);
    buf_alloc_all(&recv, count_all * sizeof(long), c.where, MPI_COMM_WORLD);
    double *local = malloc(c.iters * sizeof *local), *maxima = malloc(c.iters * sizeof *maxima);
    err_any(MPI_COMM_WORLD, !local || !maxima, ERR_STATUS_USAGE,
            "cannot allocate %zu iteration times", c.iters);
    /* Touched now so that no page fault lands in a timed call. */
    memset(local, 0, c.iters * sizeof *local);
    memset(maxima, 0, c.iters * sizeof *maxima);
    /* Element i of a send buffer has the same value whatever the count and
     * the communicator, so one fill serves every call. */
    a2a_fill(&send, count_all, A2A_LONG, harness.rank);

    size_t targets[64], counts[64];
    size_t ntargets = sweep_halving((size_t)harness.size, targets, 64);
    for (size_t t = 0; t < ntargets; t++) {
        struct subcomm b;
        subcomm_open((int)targets[t], c.strided, &b);
        print_members(b.color);
        out_comment("%6s %8s %14s %14s %14s %14s %14s %14s %14s", "comms", "ranks",
                    "GiB_per_rank", "time_min_s", "time_avg_s", "time_max_s", "GiBps_min",
                    "GiBps_avg", "GiBps_max");
        size_t ncounts = sweep_halving(count_all / targets[t], counts, 64);
        for (size_t k = 0; k < ncounts; k++)
            run_count(&c, &b, &send, &recv, counts[k], local, maxima);
        subcomm_close(&b);
    }
    free(local);
    free(maxima);
    buf_free(&send);
    buf_free(&recv);
    harness_finish(ERR_STATUS_OK);
}
