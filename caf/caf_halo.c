/* caf_halo: the halo section: a 3-D periodic decomposition (MPI_Dims_create),
 * each image an N^3 block with a halo of 1, the six faces swapped with the
 * neighbours by put or get, synchronised by sync all or sync images. */
#include <stdio.h>

#include "buf.h"
#include "caf_bench.h"
#include "caf_rma.h"
#include "err.h"
#include "out.h"
#include "report.h"
#include "timing.h"
#include "watchdog.h"

#define HALO_EMPTY (-1.0) /* never a pattern value */

enum halo_sync { HALO_SYNC_ALL, HALO_SYNC_IMAGES };
static const char *const halo_sync_names[] = {"sync_all", "sync_images"};

struct halo_run {
    struct caf_coarray x;
    size_t n, side; /* block edge, and edge with the halo (n + 2) */
    int rank;
    int neigh[6];   /* lower then upper along array axis 0 (fastest), 1, 2 */
    enum caf_dir dir;
    enum halo_sync sync;
    bool check, corrupt, bad;
    char message[256];
};

static size_t cell(const struct halo_run *h, const size_t c[3])
{
    return c[0] + h->side * (c[1] + h->side * c[2]);
}

static double value(int rank, size_t iter, size_t index)
{
    return (double)buf_pattern(rank, iter, index);
}

/* The face of the block at index `layer` along axis d (interior range on the
 * other axes): written with, or compared against, the values key_rank has at
 * index src_layer. Returns the first mismatching element or SIZE_MAX. */
static size_t face_walk(struct halo_run *h, int d, size_t layer, int key_rank,
                        size_t src_layer, size_t iter, bool write)
{
    int a = (d + 1) % 3, b = (d + 2) % 3;
    size_t c[3];
    for (c[b] = 1; c[b] <= h->n; c[b]++) {
        for (c[a] = 1; c[a] <= h->n; c[a]++) {
            c[d] = src_layer;
            double want = value(key_rank, iter, cell(h, c));
            c[d] = layer;
            size_t at = cell(h, c);
            if (write)
                h->x.base[at] = want;
            else if (h->x.base[at] != want)
                return at;
        }
    }
    return SIZE_MAX;
}

static void fail(struct halo_run *h, const char *what, size_t at, double want)
{
    if (h->bad)
        return;
    h->bad = true;
    snprintf(h->message, sizeof h->message,
             "check failed: n %zu %s element %zu is %g, expected %g", h->n, what, at,
             h->x.base[at], want);
}

static void set_boundary(struct halo_run *h, size_t iter)
{
    for (int d = 0; d < 3; d++) {
        face_walk(h, d, 1, h->rank, 1, iter, true);
        face_walk(h, d, h->n, h->rank, h->n, iter, true);
    }
}

static void verify_faces(struct halo_run *h, size_t iter)
{
    if (h->corrupt && iter == 1) {
        size_t c[3] = {0, 1, 1};
        h->x.base[cell(h, c)] = HALO_EMPTY; /* test-only damage of one halo cell */
    }
    for (int d = 0; d < 3 && !h->bad; d++) {
        const struct { size_t layer, src_layer; int from; } sides[2] = {
            {0, h->n, h->neigh[2 * d]}, {h->n + 1, 1, h->neigh[2 * d + 1]}};
        for (int s = 0; s < 2; s++) {
            size_t at = face_walk(h, d, sides[s].layer, sides[s].from, sides[s].src_layer, iter,
                                  false);
            if (at != SIZE_MAX) {
                size_t c[3] = {at % h->side, at / h->side % h->side, at / h->side / h->side};
                c[d] = sides[s].src_layer;
                fail(h, "halo face", at, value(sides[s].from, iter, cell(h, c)));
                return;
            }
        }
    }
}

/* Halo edges and corners belong to no face and must stay empty. */
static void verify_edges(struct halo_run *h)
{
    size_t c[3];
    for (c[2] = 0; c[2] < h->side; c[2]++)
        for (c[1] = 0; c[1] < h->side; c[1]++)
            for (c[0] = 0; c[0] < h->side; c[0]++) {
                int outside = 0;
                for (int d = 0; d < 3; d++)
                    outside += c[d] == 0 || c[d] == h->n + 1;
                if (outside >= 2 && h->x.base[cell(h, c)] != HALO_EMPTY) {
                    fail(h, "halo edge", cell(h, c), HALO_EMPTY);
                    return;
                }
            }
}

static struct caf_box layer_box(const struct halo_run *h, int d, size_t layer)
{
    struct caf_box b;
    for (int k = 0; k < 3; k++) {
        b.sizes[k] = h->side;
        b.starts[k] = k == d ? layer : 1;
        b.counts[k] = k == d ? 1 : h->n;
    }
    return b;
}

static void swap_faces(struct halo_run *h)
{
    for (int d = 0; d < 3; d++) {
        struct caf_box top = layer_box(h, d, h->n), bottom = layer_box(h, d, 1);
        struct caf_box low_halo = layer_box(h, d, 0), high_halo = layer_box(h, d, h->n + 1);
        int lower = h->neigh[2 * d], upper = h->neigh[2 * d + 1];
        if (h->dir == CAF_PUT) {
            caf_transfer_box(CAF_PUT, &h->x, upper, &low_halo, h->x.base, &top);
            caf_transfer_box(CAF_PUT, &h->x, lower, &high_halo, h->x.base, &bottom);
        } else {
            caf_transfer_box(CAF_GET, &h->x, lower, &top, h->x.base, &low_halo);
            caf_transfer_box(CAF_GET, &h->x, upper, &bottom, h->x.base, &high_halo);
        }
    }
}

static void halo_sync(struct halo_run *h)
{
    if (h->sync == HALO_SYNC_ALL)
        caf_sync_all();
    else
        caf_sync_images(h->neigh, 6);
}

static double halo_measure(void *ctx, size_t reps, const char **failure)
{
    struct halo_run *h = ctx;
    h->bad = false;
    size_t c[3];
    for (c[2] = 0; c[2] < h->side; c[2]++)
        for (c[1] = 0; c[1] < h->side; c[1]++)
            for (c[0] = 0; c[0] < h->side; c[0]++) {
                bool inside = true;
                for (int d = 0; d < 3; d++)
                    inside &= c[d] >= 1 && c[d] <= h->n;
                h->x.base[cell(h, c)] = inside ? value(h->rank, 0, cell(h, c)) : HALO_EMPTY;
            }
    caf_sync_all();
    double t0 = timing_now();
    for (size_t r = 1; r <= reps; r++) {
        if (h->check)
            set_boundary(h, r);
        /* Put: the neighbours are done reading their halos; get: their
         * boundaries are ready. */
        halo_sync(h);
        swap_faces(h);
        halo_sync(h);
        if (h->check) {
            verify_faces(h, r);
            if (!caf_global_and(!h->bad)) /* the original's global check, timed */
                break;
        }
    }
    double elapsed = timing_now() - t0;
    if (h->check)
        verify_edges(h);
    if (h->bad)
        *failure = h->message;
    return elapsed;
}

void caf_halo_declare(void)
{
    report_table("caf_halo", "latency_us", REPORT_LOWER_BETTER, NULL);
    report_key("transfer", REPORT_UNIT_TEXT);
    report_key("sync", REPORT_UNIT_TEXT);
    report_key("n", REPORT_UNIT_COUNT);
    report_value("ndata", REPORT_UNIT_COUNT);
    report_value("time_s", REPORT_UNIT_S);
    report_value("latency_us", REPORT_UNIT_US);
    report_value("bandwidth_mb_s", REPORT_UNIT_MB_S);
}

/* The JSON row of one block edge, in us and MB/s whatever the text's units;
 * the swaps are one stretch of time: iterations. */
static void halo_row(const struct halo_run *h, size_t ndata, const struct caf_timed *t,
                     double per_swap)
{
    report_row_begin("caf_halo");
    report_row_string("transfer", caf_dir_name(h->dir));
    report_row_string("sync", halo_sync_names[h->sync]);
    report_row_size("n", h->n);
    report_row_size("ndata", ndata);
    report_row_double("time_s", t->time);
    report_row_double("latency_us", per_swap * 1e6);
    report_row_double("bandwidth_mb_s", (double)ndata * sizeof(double) / per_swap * 1e-6);
    report_row_iterations(NULL, t->reps, NULL);
    report_row_end();
}

static bool halo_block(const struct caf_config *cfg, struct halo_run *h)
{
    struct caf_reps reps = {1, cfg->target_time};
    bool ok = true;
    struct caf_units u;
    caf_units_of(cfg, &u);
    char latency[48];
    snprintf(latency, sizeof latency, "%s(per swap)", u.latency);
    out_comment("halo transfer=%s sync=%s", caf_dir_name(h->dir), halo_sync_names[h->sync]);
    if (!report_jsonl()) /* the JSON table has the names */
        out_comment("%6s %12s %11s %12s %22s %16s", "n", "ndata", "repetitions", "time[s]",
                    latency, u.bandwidth);
    for (size_t i = 0; i < cfg->nhalo_sizes && ok; i++) {
        h->n = cfg->halo_sizes[i];
        h->side = h->n + 2;
        caf_coarray_alloc(&h->x, h->side * h->side * h->side);
        watchdog_arm(NULL, "halo %s %s n %zu", caf_dir_name(h->dir), halo_sync_names[h->sync],
                     h->n);
        struct caf_timed t = caf_reps_measure(&reps, halo_measure, h);
        watchdog_disarm();
        if (t.bad) {
            out_comment("check FAILED: halo %s %s n %zu", caf_dir_name(h->dir),
                        halo_sync_names[h->sync], h->n);
            ok = false;
        } else {
            size_t ndata = 6 * h->n * h->n;
            double per_swap = t.time / (double)t.reps;
            out_line("  %6zu %12zu %11zu %12.6g %22.6g %16.6g", h->n, ndata, t.reps, t.time,
                     per_swap * u.latency_scale,
                     (double)ndata * sizeof(double) / per_swap * u.bandwidth_scale);
            halo_row(h, ndata, &t, per_swap);
        }
        caf_coarray_free(&h->x);
    }
    if (ok && cfg->check)
        out_comment("check passed: halo %s %s, every halo cell", caf_dir_name(h->dir),
                    halo_sync_names[h->sync]);
    out_block_end();
    return ok;
}

bool caf_halo_run(const struct caf_config *cfg)
{
    int size;
    struct halo_run h = {.check = cfg->check, .corrupt = cfg->corrupt};
    MPI_Comm_rank(MPI_COMM_WORLD, &h.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct caf_units u;
    caf_units_of(cfg, &u);
    int dims[3] = {0, 0, 0};
    MPI_CHECK(MPI_Dims_create(size, 3, dims));
    caf_neigh_halo(h.rank, dims, h.neigh);
    out_comment("section halo: periodic grid %d x %d x %d (MPI_Dims_create), n^3 doubles per "
                "image plus a halo of 1; a swap puts or gets the six faces between two "
                "synchronisations; ndata = 6 n^2 per image and swap; bandwidth = ndata * 8 "
                "bytes / time per swap; units: %s",
                dims[0], dims[1], dims[2], u.note);
    out_comment("halo image 1 partners (images) along array axis x (fastest index), y, z: "
                "x %d %d, y %d %d, z %d %d (the fastest index goes with the fastest-varying "
                "grid dimension, as in a coarray)",
                h.neigh[0] + 1, h.neigh[1] + 1, h.neigh[2] + 1, h.neigh[3] + 1, h.neigh[4] + 1,
                h.neigh[5] + 1);
    bool ok = true;
    for (int d = CAF_PUT; d <= CAF_GET; d++) {
        for (int s = HALO_SYNC_ALL; s <= HALO_SYNC_IMAGES; s++) {
            h.dir = d;
            h.sync = s;
            ok &= halo_block(cfg, &h);
        }
    }
    return ok;
}
