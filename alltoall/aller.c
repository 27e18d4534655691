/*
 * alltoall/aller: the sweep of alltoall/all (communicator sizes x counts x
 * timed iterations, the same output and data check) run with each of several
 * all-to-all algorithms in turn, and a summary of which was fastest where.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aller.h"
#include "err.h"
#include "harness.h"
#include "out.h"

static const struct a2a_method *const aller_all[] = {
    &a2a_method_alltoall, &aller_persistent, &aller_isend, &aller_rsend, &aller_put,
    &aller_get, &aller_2d, &aller_3d, &aller_node2d,
};
#define ALLER_NALL (sizeof aller_all / sizeof aller_all[0])
#define ALLER_MAX_STEPS 64

static void list_names(char *text, size_t len)
{
    size_t used = 0;
    for (size_t i = 0; i < ALLER_NALL && used < len; i++)
        used += (size_t)snprintf(text + used, len - used, "%s%s", i ? ", " : "",
                                 aller_all[i]->name);
}

/* NAME[,NAME...] into methods; returns how many. Unknown, repeated or
 * unavailable names end the program with status 2. */
static size_t choose(const char *list, const struct a2a_method **methods)
{
    size_t n = 0;
    if (!list) {
        for (size_t i = 0; i < ALLER_NALL; i++)
            if (!aller_all[i]->unavailable)
                methods[n++] = aller_all[i];
        return n;
    }
    char names[256];
    list_names(names, sizeof names);
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        size_t i = 0;
        while (i < ALLER_NALL && !(strlen(aller_all[i]->name) == len &&
                                   strncmp(aller_all[i]->name, p, len) == 0))
            i++;
        if (i == ALLER_NALL)
            err_usage("--algorithm: unknown algorithm '%.*s' (one of %s)", (int)len, p, names);
        for (size_t j = 0; j < n; j++)
            if (methods[j] == aller_all[i])
                err_usage("--algorithm: '%s' is named twice", aller_all[i]->name);
        if (aller_all[i]->unavailable)
            err_usage("--algorithm=%s: %s", aller_all[i]->name, aller_all[i]->unavailable);
        methods[n++] = aller_all[i];
        if (!p[len])
            return n;
        p += len + 1;
    }
}

/* Mean time per call of every (communicator size, algorithm, count), kept on
 * world rank 0 for the summary. */
struct aller_results {
    size_t nmethods;
    int target_size[ALLER_MAX_STEPS]; /* each communicator size as named in the output */
    size_t ncounts[ALLER_MAX_STEPS];
    size_t count[ALLER_MAX_STEPS][ALLER_MAX_STEPS];
    double mean[ALLER_MAX_STEPS][ALLER_NALL][ALLER_MAX_STEPS];
    bool fell_back[ALLER_MAX_STEPS][ALLER_NALL];
    size_t ntargets;
};

static void record(void *arg, size_t t, size_t m, size_t k, int target_size, size_t count,
                   bool fell_back, const struct stats_summary *s)
{
    struct aller_results *r = arg;
    if (t >= ALLER_MAX_STEPS || k >= ALLER_MAX_STEPS)
        return;
    r->target_size[t] = target_size;
    r->count[t][k] = count;
    r->mean[t][m][k] = s->mean;
    r->fell_back[t][m] = fell_back;
    if (k + 1 > r->ncounts[t])
        r->ncounts[t] = k + 1;
    if (t + 1 > r->ntargets)
        r->ntargets = t + 1;
}

/* The fastest method at count index k of target t. A method that ran as
 * MPI_Alltoall in this communicator competes only when every one did. */
static size_t fastest(const struct aller_results *r, size_t t, size_t k)
{
    bool any_real = false;
    for (size_t m = 0; m < r->nmethods; m++)
        any_real |= !r->fell_back[t][m];
    size_t best = r->nmethods;
    for (size_t m = 0; m < r->nmethods; m++)
        if ((!any_real || !r->fell_back[t][m]) &&
            (best == r->nmethods || r->mean[t][m][k] < r->mean[t][best][k]))
            best = m;
    return best;
}

/* For each communicator size, the fastest algorithm at the smallest count,
 * the middle one of the halving series and the largest, beside MPI_Alltoall
 * when it ran. */
static void print_summary(const struct aller_results *r, const struct a2a_method **methods)
{
    static const char *const class_names[] = {"small", "medium", "large"};
    out_comment("summary: fastest algorithm by mean time per call at the smallest, middle "
                "and largest count of each communicator size (algorithms that fell back to "
                "MPI_Alltoall there left out)");
    for (size_t t = 0; t < r->ntargets; t++) {
        size_t nk = r->ncounts[t];
        if (!nk)
            continue;
        size_t ks[3] = {nk - 1, (nk - 1) / 2, 0};
        for (int cls = 0; cls < 3; cls++) {
            if (cls > 0 && ks[cls] == ks[cls - 1])
                continue;
            size_t k = ks[cls], best = fastest(r, t, k);
            char versus[96] = "";
            if (r->fell_back[t][best])
                snprintf(versus, sizeof versus, " (as MPI_Alltoall)");
            else if (methods[0] == &a2a_method_alltoall && best != 0)
                snprintf(versus, sizeof versus, "; alltoall %.3e s (%.2fx)", r->mean[t][0][k],
                         r->mean[t][0][k] / r->mean[t][best][k]);
            int size = r->target_size[t];
            out_comment("summary %d rank%s %s count %zu: fastest %s %.3e s%s", size,
                        size == 1 ? "" : "s", class_names[cls], r->count[t][k],
                        methods[best]->name, r->mean[t][best][k], versus);
        }
    }
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *list = NULL;
    char help[320], names[256];
    list_names(names, sizeof names);
    snprintf(help, sizeof help, "comma-separated, from: %s (default: every one this build has)",
             names);
    const struct opt_spec extra[] = {
        {.long_name = "algorithm", .kind = OPT_STRING, .dest = &list,
         .metavar = "NAME[,NAME...]", .help = help},
    };
    struct a2a_sweep_args a;
    a2a_sweep_parse(argc, argv,
                    "All-to-all algorithms against MPI_Alltoall over concurrent "
                    "subcommunicators of halving size.",
                    extra, 1, &a);
    const struct a2a_method *methods[ALLER_NALL];
    size_t n = choose(list, methods);
    a.sweep.name_blocks = true;

    a2a_sweep_header("All to All algorithms: MPI_Alltoall and what could replace it", argc,
                     argv, &a);
    char chosen[256];
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof chosen; i++)
        used += (size_t)snprintf(chosen + used, sizeof chosen - used, "%s%s", i ? ", " : "",
                                 methods[i]->name);
    out_comment("algorithms: %s", chosen);
    for (size_t i = 0; i < ALLER_NALL; i++)
        if (aller_all[i]->unavailable && !list)
            out_comment("%s left out: %s", aller_all[i]->name, aller_all[i]->unavailable);

    struct aller_results *r = calloc(1, sizeof *r);
    err_any(MPI_COMM_WORLD, !r, ERR_STATUS_USAGE, "cannot allocate the summary table");
    r->nmethods = n;
    a2a_sweep_run(&a.sweep, methods, n, record, r);
    if (out_is_printer())
        print_summary(r, methods);
    free(r);
    harness_finish(ERR_STATUS_OK);
}
