/* aller 2d, 3d and node2d: the communicator seen as a grid of ranks, the
 * all-to-all done as one smaller all-to-all along each axis in turn, with
 * local rearrangements between them so that what goes to one peer of the
 * next phase is contiguous. Fewer, larger messages: along an axis of n ranks
 * each rank sends n - 1 messages of size / n blocks instead of size - 1
 * messages of one block.
 *
 * A rank's blocks form an array indexed by grid coordinates (c0, c1, c2),
 * c0 the fastest in the grid index g = c0 + n0 * (c1 + n1 * c2). Before the
 * phase along axis a the blocks are laid out with a outermost (the others in
 * their previous order), so block group j goes to the peer whose coordinate
 * a is j; what comes back from it takes the place of group j, now meaning
 * "from coordinate j". After the last phase every block is labelled by its
 * source's coordinates and one last rearrangement puts them in communicator
 * rank order. Where the grid index is not the communicator rank (node2d),
 * the first and last rearrangements also map between the two. */
#include "aller.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

#define GRID_MAX_DIMS 3

/* A rearrangement of blocks, precomputed: runs of consecutive blocks, and
 * the same runs in bytes for the current count (grid_begin), which is what
 * a2a_local_copy moves in one go. */
struct grid_run {
    int from, to, blocks;
};
struct grid_plan {
    struct grid_run *runs;
    struct devmem_piece *pieces;
    int nruns;
};

struct grid_state {
    int ndims;
    int n[GRID_MAX_DIMS];
    MPI_Comm axis_comm[GRID_MAX_DIMS]; /* ranks that differ only in coordinate a */
    int *rank_of;                      /* communicator rank of grid index g */
    bool mapped;                       /* rank_of is not the identity */
    bool fallback;                     /* no grid: plain MPI_Alltoall */
    /* plans[0]: send (rank order) to grid order, used when mapped;
     * plans[i], 1 <= i < ndims: before phase i; plans[ndims]: to rank order */
    struct grid_plan plans[GRID_MAX_DIMS + 1];
    struct msg_type phase_type[GRID_MAX_DIMS]; /* count x size / n[a] longs */
};

int aller_grid_dims(int size, int ndims, int n[3])
{
    int best_max = 0;
    if (ndims == 2) {
        for (int a = 2; (long)a * a <= size; a++)
            if (size % a == 0)
                n[0] = a, n[1] = size / a, best_max = n[1];
    } else {
        for (int a = 2; (long)a * a * a <= size; a++) {
            if (size % a)
                continue;
            for (int b = a; (long)a * b * b <= size; b++) {
                if ((size / a) % b)
                    continue;
                int c = size / a / b;
                if (!best_max || c < best_max || (c == best_max && a > n[0]))
                    n[0] = a, n[1] = b, n[2] = c, best_max = c;
            }
        }
    }
    return best_max ? 0 : -1;
}

/* Layouts: an axis order, outermost first; RANK_ORDER means blocks by
 * communicator rank (rank_of[g] for grid index g). */
struct grid_layout {
    int order[GRID_MAX_DIMS];
    bool rank_order;
};

static int layout_position(const struct grid_state *g, const struct grid_layout *l,
                           const int *c)
{
    if (l->rank_order) {
        int gi = 0;
        for (int a = g->ndims - 1; a >= 0; a--)
            gi = gi * g->n[a] + c[a];
        return g->rank_of[gi];
    }
    int pos = 0;
    for (int i = 0; i < g->ndims; i++)
        pos = pos * g->n[l->order[i]] + c[l->order[i]];
    return pos;
}

/* Runs that move every block from its place in `from` to its place in `to`,
 * consecutive blocks merged into one copy. */
static int plan_make(const struct grid_state *g, const struct grid_layout *from,
                     const struct grid_layout *to, struct grid_plan *p)
{
    int size = 1;
    for (int a = 0; a < g->ndims; a++)
        size *= g->n[a];
    int *src_of = malloc((size_t)size * sizeof *src_of);
    p->runs = malloc((size_t)size * sizeof *p->runs);
    p->pieces = malloc((size_t)size * sizeof *p->pieces);
    p->nruns = 0;
    if (!src_of || !p->runs || !p->pieces) {
        free(src_of);
        return -1;
    }
    int c[GRID_MAX_DIMS] = {0};
    for (int gi = 0; gi < size; gi++) {
        int rest = gi;
        for (int a = 0; a < g->ndims; a++)
            c[a] = rest % g->n[a], rest /= g->n[a];
        src_of[layout_position(g, to, c)] = layout_position(g, from, c);
    }
    for (int dst = 0; dst < size; dst++) {
        struct grid_run *last = p->nruns ? &p->runs[p->nruns - 1] : NULL;
        if (last && last->to + last->blocks == dst && last->from + last->blocks == src_of[dst])
            last->blocks++;
        else
            p->runs[p->nruns++] = (struct grid_run){src_of[dst], dst, 1};
    }
    free(src_of);
    return 0;
}

/* The runs in bytes for count longs per block (outside the timing). */
static void plan_pieces(struct grid_plan *p, size_t count)
{
    size_t block = count * sizeof(long);
    for (int i = 0; i < p->nruns; i++)
        p->pieces[i] = (struct devmem_piece){(size_t)p->runs[i].to * block,
                                             (size_t)p->runs[i].from * block,
                                             (size_t)p->runs[i].blocks * block};
}

static void plan_apply(const struct grid_plan *p, const struct buf *like, char *dst,
                       const char *src)
{
    a2a_local_copy(like, dst, src, p->pieces, (size_t)p->nruns);
}

/* Axis communicators, rank_of and the plans for a grid of n[0..ndims-1]
 * where this rank has grid index my_index. Collective over comm. */
static void grid_build(struct grid_state *g, MPI_Comm comm, int my_index)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    int c[GRID_MAX_DIMS], rest = my_index;
    for (int a = 0; a < g->ndims; a++)
        c[a] = rest % g->n[a], rest /= g->n[a];
    /* Along axis a: same coordinates elsewhere, ordered by coordinate a. */
    for (int a = 0, stride = 1; a < g->ndims; stride *= g->n[a], a++)
        MPI_CHECK(MPI_Comm_split(comm, my_index - c[a] * stride, c[a], &g->axis_comm[a]));

    int *index_of = malloc((size_t)size * sizeof *index_of);
    g->rank_of = malloc((size_t)size * sizeof *g->rank_of);
    /* Only the communicators that have a grid get here: a failure cannot be
     * agreed on with the world. */
    if (!index_of || !g->rank_of)
        err_fatal("cannot allocate the grid map of %d ranks", size);
    MPI_CHECK(MPI_Allgather(&my_index, 1, MPI_INT, index_of, 1, MPI_INT, comm));
    g->mapped = false;
    for (int q = 0; q < size; q++) {
        g->rank_of[index_of[q]] = q;
        g->mapped |= index_of[q] != q;
    }
    free(index_of);

    /* Start: axes from the slowest (ndims-1) to the fastest; each phase
     * brings its axis to the front. */
    struct grid_layout cur = {{0}, false}, ranks = {{0}, true};
    for (int i = 0; i < g->ndims; i++)
        cur.order[i] = g->ndims - 1 - i;
    bool bad = plan_make(g, &ranks, &cur, &g->plans[0]) != 0;
    for (int i = 1; i < g->ndims; i++) {
        struct grid_layout next = {{0}, false};
        int axis = g->ndims - 1 - i, used = 1;
        next.order[0] = axis;
        for (int j = 0; j < g->ndims; j++)
            if (cur.order[j] != axis)
                next.order[used++] = cur.order[j];
        bad |= plan_make(g, &cur, &next, &g->plans[i]) != 0;
        cur = next;
    }
    bad |= plan_make(g, &cur, &ranks, &g->plans[g->ndims]) != 0;
    if (bad)
        err_fatal("cannot allocate the grid rearrangements of %d ranks", size);
}

static struct grid_state *grid_new(struct a2a_ctx *ctx)
{
    struct grid_state *g = calloc(1, sizeof *g);
    err_any(MPI_COMM_WORLD, !g, ERR_STATUS_USAGE, "cannot allocate the grid state");
    ctx->state = g;
    return g;
}

static void grid_dims_text(const struct grid_state *g, char *text, size_t len)
{
    size_t used = 0;
    for (int a = g->ndims - 1; a >= 0 && used < len; a--)
        used += (size_t)snprintf(text + used, len - used, "%d%s", g->n[a], a ? " x " : "");
}

/* 2d and 3d: the grid index is the communicator rank. A 3-D grid that does
 * not exist falls back to 2-D, a 2-D one to MPI_Alltoall. */
static void grid_open_dims(struct a2a_ctx *ctx, int ndims, char *note, size_t notelen)
{
    struct grid_state *g = grid_new(ctx);
    int size = ctx->sub->size;
    g->ndims = ndims;
    bool no_3d = ndims == 3 && aller_grid_dims(size, 3, g->n) != 0;
    if (no_3d)
        g->ndims = 2;
    if (g->ndims == 2 && aller_grid_dims(size, 2, g->n) != 0) {
        g->fallback = ctx->fell_back = true;
        snprintf(note, notelen, "%d rank%s: no %s grid with every side above 1, MPI_Alltoall "
                 "instead", size, size == 1 ? "" : "s", no_3d ? "3-D or 2-D" : "2-D");
        return;
    }
    grid_build(g, ctx->sub->comm, ctx->sub->rank);
    char dims[64];
    grid_dims_text(g, dims, sizeof dims);
    if (no_3d)
        snprintf(note, notelen, "%d ranks: no 3-D grid with every side above 1, a %s grid of "
                 "ranks instead", size, dims);
    else
        snprintf(note, notelen, "%s grid of ranks", dims);
}

static void grid2_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    grid_open_dims(ctx, 2, note, notelen);
}

static void grid3_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    grid_open_dims(ctx, 3, note, notelen);
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* node2d: axis 0 (rows) is a group of ranks on one node, axis 1 (columns)
 * the same place in the group across groups. When nodes hold different
 * numbers of ranks, each node is cut into groups of the largest size that
 * divides all of them. */
static void node2d_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    struct grid_state *g = grid_new(ctx);
    MPI_Comm comm = ctx->sub->comm, node;
    int rank = ctx->sub->rank, size = ctx->sub->size;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    int node_rank, node_size;
    MPI_Comm_rank(node, &node_rank);
    MPI_Comm_size(node, &node_size);
    int *sizes = malloc((size_t)size * sizeof *sizes);
    int *node_ranks = malloc((size_t)node_size * sizeof *node_ranks);
    err_any(MPI_COMM_WORLD, !sizes || !node_ranks, ERR_STATUS_USAGE, "cannot allocate the node map");
    MPI_CHECK(MPI_Allgather(&node_size, 1, MPI_INT, sizes, 1, MPI_INT, comm));
    MPI_CHECK(MPI_Allgather(&rank, 1, MPI_INT, node_ranks, 1, MPI_INT, node));
    int group = 0, nodes = 0, is_first = node_rank == 0;
    for (int q = 0; q < size; q++)
        group = gcd(group, sizes[q]);
    MPI_CHECK(MPI_Allreduce(&is_first, &nodes, 1, MPI_INT, MPI_SUM, comm));
    /* The group's first member names it; groups in that order form axis 1. */
    int leader = node_ranks[node_rank / group * group];
    free(sizes);
    free(node_ranks);
    MPI_CHECK(MPI_Comm_free(&node));

    if (nodes == 1 || group == 1) {
        g->fallback = ctx->fell_back = true;
        if (nodes == 1)
            snprintf(note, notelen, "one node of %d rank%s: no exchange between nodes, "
                     "MPI_Alltoall instead", size, size == 1 ? "" : "s");
        else
            snprintf(note, notelen, "%d nodes, but no group size above 1 divides every "
                     "node's rank count: MPI_Alltoall instead", nodes);
        return;
    }
    /* Column index: the position of my group's leader among all leaders. */
    MPI_Comm column;
    int x = node_rank % group, y;
    MPI_CHECK(MPI_Comm_split(comm, x, leader, &column));
    MPI_Comm_rank(column, &y);
    MPI_CHECK(MPI_Comm_free(&column));
    g->ndims = 2;
    g->n[0] = group;
    g->n[1] = size / group;
    grid_build(g, comm, x + group * y);
    snprintf(note, notelen, "%d node%s, rows of %d ranks on one node x %d columns across "
             "nodes%s", nodes, nodes == 1 ? "" : "s", g->n[0], g->n[1],
             g->mapped ? " (ranks reordered into the grid)" : "");
}

static void grid_begin(struct a2a_ctx *ctx, size_t count)
{
    struct grid_state *g = ctx->state;
    if (g->fallback)
        return;
    for (int a = 0; a < g->ndims; a++)
        if (msg_type_make(count * (size_t)(ctx->sub->size / g->n[a]), MPI_LONG,
                          &g->phase_type[a]))
            err_fatal("cannot describe %zu longs as an MPI datatype",
                      count * (size_t)(ctx->sub->size / g->n[a]));
    for (int i = 0; i <= g->ndims; i++)
        plan_pieces(&g->plans[i], count);
}

static void grid_end(struct a2a_ctx *ctx)
{
    struct grid_state *g = ctx->state;
    if (g->fallback)
        return;
    for (int a = 0; a < g->ndims; a++)
        msg_type_free(&g->phase_type[a]);
}

static void phase_alltoall(struct grid_state *g, int axis, const void *from, void *to)
{
    const struct msg_type *t = &g->phase_type[axis];
    MPI_CHECK(MPI_Alltoall(from, t->count, t->type, to, t->count, t->type, g->axis_comm[axis]));
}

/* After each phase the blocks are in scratch; every rearrangement but the
 * first goes from scratch to recv, every phase but the first from recv to
 * scratch, and the last rearrangement leaves the result in recv. */
static void grid_exchange(struct a2a_ctx *ctx, size_t count)
{
    struct grid_state *g = ctx->state;
    char *send = buf_mpi(ctx->send), *recv = buf_mpi(ctx->recv);
    char *scratch = buf_mpi(ctx->scratch);
    if (g->fallback) {
        a2a_method_alltoall.exchange(ctx, count);
        return;
    }
    const char *first = send;
    if (g->mapped) {
        plan_apply(&g->plans[0], ctx->recv, recv, send);
        first = recv;
    }
    phase_alltoall(g, g->ndims - 1, first, scratch);
    for (int i = 1; i < g->ndims; i++) {
        plan_apply(&g->plans[i], ctx->recv, recv, scratch);
        phase_alltoall(g, g->ndims - 1 - i, recv, scratch);
    }
    plan_apply(&g->plans[g->ndims], ctx->recv, recv, scratch);
}

static void grid_close(struct a2a_ctx *ctx)
{
    struct grid_state *g = ctx->state;
    if (!g->fallback) {
        for (int a = 0; a < g->ndims; a++)
            MPI_CHECK(MPI_Comm_free(&g->axis_comm[a]));
        for (int i = 0; i <= g->ndims; i++) {
            free(g->plans[i].runs);
            free(g->plans[i].pieces);
        }
        free(g->rank_of);
    }
    free(g);
}

const struct a2a_method aller_2d = {
    .name = "2d",
    .describe = "near-square grid: MPI_Alltoall along columns, rearrange, along rows, rearrange",
    .needs_scratch = true,
    .open = grid2_open,
    .begin_count = grid_begin,
    .exchange = grid_exchange,
    .end_count = grid_end,
    .close = grid_close,
};

const struct a2a_method aller_3d = {
    .name = "3d",
    .describe = "near-cubic grid: MPI_Alltoall along each of its three axes in turn",
    .needs_scratch = true,
    .open = grid3_open,
    .begin_count = grid_begin,
    .exchange = grid_exchange,
    .end_count = grid_end,
    .close = grid_close,
};

const struct a2a_method aller_node2d = {
    .name = "node2d",
    .describe = "rows: ranks of one node, columns: the same local rank across nodes; "
                "MPI_Alltoall across nodes, then within each node",
    .needs_scratch = true,
    .open = node2d_open,
    .begin_count = grid_begin,
    .exchange = grid_exchange,
    .end_count = grid_end,
    .close = grid_close,
};
