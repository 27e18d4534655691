/* caf_p2p: the point-to-point (ping-pong) section: every pattern in put and
 * get, the MPI Send sanity check, for each mode and synchronisation. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "caf_bench.h"
#include "caf_p2p_patterns.h"
#include "err.h"
#include "out.h"
#include "report.h"
#include "timing.h"
#include "watchdog.h"

#define CAF_MAX_SHAPES 64

enum p2p_sync { P2P_SYNC_ALL, P2P_SYNC_IMAGES, P2P_SYNC_NONE };
static const char *const p2p_sync_names[] = {"sync_all", "sync_images", "none"};

/* One measurement's setting; the measure callback's context. */
struct p2p_run {
    const struct caf_p2p_pattern *pattern; /* NULL: MPI Send ping-pong */
    const char *name;                      /* with the direction, for messages */
    enum caf_dir dir;
    enum p2p_sync sync;
    const char *mode;                      /* caf_mode_names[] */
    struct caf_pairing pair;
    struct caf_shape shape;
    struct caf_coarray *x;
    int rank;
    bool check, corrupt;
    size_t completions; /* local completions per transfer, last measurement */
    bool bad;
    char message[256];
};

static double pattern_value(int rank, size_t iter, size_t index)
{
    return (double)buf_pattern(rank, iter, index);
}

/* Writes (write) or compares the selected elements with key (rank, iter);
 * returns the first mismatching index or SIZE_MAX. */
static size_t walk_selected(struct p2p_run *c, int key_rank, size_t iter, bool write)
{
    const struct caf_shape *s = &c->shape;
    double *x = c->x->base;
    for (size_t i = 0; i < s->count; i++) {
        for (size_t j = i * s->stride; j < i * s->stride + s->blksize; j++) {
            double want = pattern_value(key_rank, iter, j);
            if (write)
                x[j] = want;
            else if (x[j] != want)
                return j;
        }
    }
    return SIZE_MAX;
}

static void fail(struct p2p_run *c, const char *what, size_t index, double got, double want)
{
    if (c->bad)
        return;
    c->bad = true;
    snprintf(c->message, sizeof c->message,
             "check failed: %s %s element %zu is %g, expected %g (count %zu blksize %zu "
             "stride %zu)",
             c->name, what, index, got, want, c->shape.count, c->shape.blksize, c->shape.stride);
}

static void set_own(struct p2p_run *c, size_t iter)
{
    if (c->check)
        walk_selected(c, c->rank, iter, true);
}

/* The data that just arrived must be the partner's for this repetition. */
static void verify_partner(struct p2p_run *c, size_t iter)
{
    if (!c->check)
        return;
    if (c->corrupt && iter == 1)
        c->x->base[0] = -1.0; /* test-only damage: index 0 is always selected */
    size_t at = walk_selected(c, c->pair.partner, iter, false);
    if (at != SIZE_MAX)
        fail(c, "received", at, c->x->base[at], pattern_value(c->pair.partner, iter, at));
}

/* Elements outside the pattern must still hold this rank's background. */
static void verify_untouched(struct p2p_run *c)
{
    for (size_t i = 0; i < c->x->len; i++) {
        double want = pattern_value(c->rank, 0, i);
        if (!caf_shape_selects(&c->shape, i) && c->x->base[i] != want) {
            fail(c, "untouched", i, c->x->base[i], want);
            return;
        }
    }
}

static void p2p_sync(struct p2p_run *c)
{
    if (c->sync == P2P_SYNC_ALL)
        caf_sync_all();
    else if (c->pair.role != CAF_IDLE)
        caf_sync_images(&c->pair.partner, 1);
}

/* With --check, the original's global check after each half of a
 * repetition, inside the timing: false when some image failed (the
 * repetitions stop, as the original's do). */
static bool global_ok(const struct p2p_run *c)
{
    return !c->check || caf_global_and(!c->bad);
}

static bool coarray_rep(struct p2p_run *c, size_t r)
{
    static const enum caf_role order[2] = {CAF_FIRST, CAF_SECOND};
    for (int half = 0; half < 2; half++) {
        /* put: the first role writes first; get: the first is read first. */
        bool mover = c->pair.role == order[c->dir == CAF_PUT ? half : 1 - half];
        if (c->dir == CAF_PUT) {
            if (mover) {
                set_own(c, r);
                c->pattern->transfer(CAF_PUT, c->x, c->pair.partner, &c->shape);
            }
            p2p_sync(c);
            if (c->pair.role == order[1 - half])
                verify_partner(c, r);
        } else {
            if (mover) {
                c->pattern->transfer(CAF_GET, c->x, c->pair.partner, &c->shape);
                verify_partner(c, r);
                set_own(c, half == 0 ? r : r + 1);
            }
            p2p_sync(c);
        }
        if (!global_ok(c))
            return false;
    }
    return true;
}

static bool send_rep(struct p2p_run *c, size_t r)
{
    int n = (int)caf_shape_ndata(&c->shape);
    double *x = c->x->base;
    if (c->pair.role == CAF_FIRST) {
        set_own(c, r);
        MPI_CHECK(MPI_Send(x, n, MPI_DOUBLE, c->pair.partner, 0, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Recv(x, n, MPI_DOUBLE, c->pair.partner, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        verify_partner(c, r);
    } else if (c->pair.role == CAF_SECOND) {
        MPI_CHECK(MPI_Recv(x, n, MPI_DOUBLE, c->pair.partner, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
        verify_partner(c, r);
        set_own(c, r);
        MPI_CHECK(MPI_Send(x, n, MPI_DOUBLE, c->pair.partner, 0, MPI_COMM_WORLD));
    }
    return global_ok(c);
}

static double p2p_measure(void *ctx, size_t reps, const char **failure)
{
    struct p2p_run *c = ctx;
    c->bad = false;
    for (size_t i = 0; i < c->x->len; i++)
        c->x->base[i] = pattern_value(c->rank, 0, i);
    if (c->pattern && c->dir == CAF_GET && c->pair.role == CAF_FIRST)
        set_own(c, 1);
    caf_sync_all();
    size_t completions = caf_local_completions();
    double t0 = timing_now();
    for (size_t r = 1; r <= reps; r++) {
        if (!(c->pattern ? coarray_rep(c, r) : send_rep(c, r)))
            break;
    }
    double elapsed = timing_now() - t0;
    /* A mover makes one transfer per repetition. */
    c->completions = (caf_local_completions() - completions) / reps;
    if (c->check && c->pair.role != CAF_IDLE)
        verify_untouched(c);
    if (c->bad)
        *failure = c->message;
    return elapsed;
}

static void print_columns(const struct caf_units *u)
{
    if (!report_jsonl()) /* the JSON table has the names */
        out_comment("%8s %8s %8s %10s %10s %11s %12s %12s %14s", "count", "blksize", "stride",
                    "ndata", "nextent", "repetitions", "time[s]", u->latency, u->bandwidth);
}

void caf_p2p_declare(void)
{
    report_table("caf_p2p", "latency_us", REPORT_LOWER_BETTER, NULL);
    report_key("pattern", REPORT_UNIT_TEXT);
    report_key("mode", REPORT_UNIT_TEXT);
    report_key("sync", REPORT_UNIT_TEXT);
    report_key("count", REPORT_UNIT_COUNT);
    report_key("blksize", REPORT_UNIT_COUNT);
    report_key("stride", REPORT_UNIT_COUNT);
    report_value("ndata", REPORT_UNIT_COUNT);
    report_value("nextent", REPORT_UNIT_COUNT);
    report_value("time_s", REPORT_UNIT_S);
    report_value("latency_us", REPORT_UNIT_US);
    report_value("bandwidth_mb_s", REPORT_UNIT_MB_S);
}

/* The JSON row of one shape: always us and MB/s (--original-units changes
 * the text only). The repetitions are one stretch of time: iterations. */
static void p2p_row(const struct p2p_run *c, const struct caf_shape *s, const struct caf_timed *t,
                    double one_way)
{
    size_t ndata = caf_shape_ndata(s);
    report_row_begin("caf_p2p");
    report_row_string("pattern", c->name);
    report_row_string("mode", c->mode);
    report_row_string("sync", p2p_sync_names[c->sync]);
    report_row_size("count", s->count);
    report_row_size("blksize", s->blksize);
    report_row_size("stride", s->stride);
    report_row_size("ndata", ndata);
    report_row_size("nextent", caf_shape_nextent(s));
    report_row_double("time_s", t->time);
    report_row_double("latency_us", one_way * 1e6);
    report_row_double("bandwidth_mb_s", (double)ndata * sizeof(double) / one_way * 1e-6);
    report_row_iterations(NULL, t->reps, NULL);
    report_row_end();
}

/* Sweeps one block (pattern, direction, mode, sync); false on a failed check. */
static bool p2p_block(const struct caf_config *cfg, struct p2p_run *c, enum caf_family family,
                      bool whole_array, const char *name)
{
    struct caf_shape shapes[CAF_MAX_SHAPES];
    size_t nshapes = caf_shape_sweep(family, cfg->maxndata, cfg->maxstride, shapes,
                                     CAF_MAX_SHAPES);
    struct caf_reps reps = {1, cfg->target_time};
    struct caf_coarray x;
    bool ok = true;
    if (!whole_array)
        caf_coarray_alloc(&x, cfg->maxndata);
    c->name = name;
    struct caf_units u;
    caf_units_of(cfg, &u);
    print_columns(&u);
    for (size_t i = 0; i < nshapes && ok; i++) {
        if (whole_array)
            caf_coarray_alloc(&x, caf_shape_ndata(&shapes[i]));
        c->x = &x;
        c->shape = shapes[i];
        watchdog_arm(NULL, "%s count %zu blksize %zu stride %zu", name, shapes[i].count,
                     shapes[i].blksize, shapes[i].stride);
        struct caf_timed t = caf_reps_measure(&reps, p2p_measure, c);
        watchdog_disarm();
        if (t.bad) {
            out_comment("check FAILED: %s count %zu blksize %zu stride %zu", name,
                        shapes[i].count, shapes[i].blksize, shapes[i].stride);
            ok = false;
        } else {
            size_t ndata = caf_shape_ndata(&shapes[i]);
            double one_way = t.time / (2.0 * (double)t.reps);
            out_line("  %8zu %8zu %8zu %10zu %10zu %11zu %12.6g %12.6g %14.6g", shapes[i].count,
                     shapes[i].blksize, shapes[i].stride, ndata, caf_shape_nextent(&shapes[i]),
                     t.reps, t.time, one_way * u.latency_scale,
                     (double)ndata * sizeof(double) / one_way * u.bandwidth_scale);
            p2p_row(c, &shapes[i], &t, one_way);
        }
        if (whole_array)
            caf_coarray_free(&x);
    }
    if (!whole_array)
        caf_coarray_free(&x);
    if (ok && c->pattern && nshapes > 0)
        out_comment("p2p %s: image 1 made %zu local completions per transfer at count %zu", name,
                    c->completions, shapes[nshapes - 1].count);
    if (ok && cfg->check)
        out_comment("check passed: %s", name);
    out_block_end();
    return ok;
}

static void pairing_comment(enum caf_mode mode, int size)
{
    char text[512];
    size_t used = 0;
    for (int r = 0; r < size && used < sizeof text - 32; r++) {
        struct caf_pairing p;
        caf_pairing_for(mode, r, size, &p);
        if (p.role == CAF_FIRST)
            used += (size_t)snprintf(text + used, sizeof text - used, " %d->%d", r + 1,
                                     p.partner + 1);
    }
    out_comment("p2p mode=%s pairs (first mover -> partner, images):%s", caf_mode_names[mode],
                text);
}

static bool p2p_mode(const struct caf_config *cfg, enum caf_mode mode, int rank, int size)
{
    struct p2p_run c = {.rank = rank, .check = cfg->check, .corrupt = cfg->corrupt,
                        .mode = caf_mode_names[mode]};
    const char *why = caf_pairing_for(mode, rank, size, &c.pair);
    if (why) {
        out_comment("p2p mode=%s skipped: %s (have %d)", caf_mode_names[mode], why, size);
        out_block_end();
        return true;
    }
    pairing_comment(mode, size);
    bool ok = true;
    c.sync = P2P_SYNC_NONE;
    out_comment("p2p pattern=mpi_send mode=%s sync=none: MPI_Send/MPI_Recv ping-pong",
                caf_mode_names[mode]);
    ok &= p2p_block(cfg, &c, CAF_CONTIGUOUS, false, "mpi_send");
    for (int s = P2P_SYNC_ALL; s <= P2P_SYNC_IMAGES; s++) {
        for (size_t p = 0; p < caf_p2p_npatterns; p++) {
            for (int d = CAF_PUT; d <= CAF_GET; d++) {
                const struct caf_p2p_pattern *pat = &caf_p2p_patterns[p];
                char name[64], description[256];
                snprintf(name, sizeof name, pat->name, caf_dir_name(d));
                snprintf(description, sizeof description, pat->description, caf_dir_name(d));
                c.pattern = pat;
                c.dir = d;
                c.sync = s;
                out_comment("p2p pattern=%s mode=%s sync=%s: %s", name, caf_mode_names[mode],
                            p2p_sync_names[s], description);
                ok &= p2p_block(cfg, &c, pat->family, pat->whole_array, name);
            }
        }
    }
    return ok;
}

bool caf_p2p_run(const struct caf_config *cfg)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct caf_units u;
    caf_units_of(cfg, &u);
    out_comment("section p2p: ping-pong, latency = time / (2 repetitions), bandwidth = "
                "ndata * 8 bytes / latency; units: %s", u.note);
    if (cfg->maxstride > cfg->maxndata)
        out_comment("p2p: maxstride %zu capped at maxndata %zu", cfg->maxstride, cfg->maxndata);
    bool ok = true;
    for (int m = 0; m < CAF_NMODES; m++)
        if (cfg->modes[m])
            ok &= p2p_mode(cfg, m, rank, size);
    return ok;
}
