/* hierarchical_model: a flat model file for every host of a hierarchy
 * (seed 4.7), measuring one link per pair of parts of each group instead of
 * every pair of hosts (cpm_hier_plan.h), under mpirun:
 *     hierarchical_model -C MODEL -i h-file.out -o model.out [options]
 * The run needs a process on the hosts the links use (--plan lists them,
 * e.g. for mpirun --host); where the links of a group cannot be measured
 * with the run's processes, a helper is spawned on each host they lack
 * (hier_spawn.h). A link is measured by the two ranks on its hosts with
 * the model's own estimate, the rest of the ranks wait. Process i of
 * the model is host i of the hierarchy (depth first). Models whose
 * parameters belong to pairs: Hockney, LinInterp, PLogP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpm_hier_fill.h"
#include "cpm_hier_measure.h"
#include "cpm_hockney.h"
#include "cpm_hosts.h"
#include "harness.h"
#include "hier_cli.h"
#include "hier_spawn.h"
#include "ofile.h"
#include "report.h"

/* The hierarchy file, read on rank 0 and parsed on every rank (the same
 * verdict everywhere); status 2 with the line and why when it is not one. */
static void read_hierarchy(const char *path, struct cpm_hier *h)
{
    char *text = NULL, err[600] = "";
    size_t len = 0;
    int bad = harness.rank == 0 && cpm_dot_slurp(path, &text, &len, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    unsigned long long wlen = len;
    MPI_CHECK(MPI_Bcast(&wlen, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD));
    if (harness.rank != 0 && !(text = malloc(wlen + 1)))
        err_fatal("out of memory for a hierarchy file of %llu bytes", wlen);
    MPI_CHECK(MPI_Bcast(text, (int)wlen, MPI_CHAR, 0, MPI_COMM_WORLD));
    text[wlen] = '\0';
    if (cpm_hier_parse(text, wlen, h, err, sizeof err) != 0)
        err_usage("hierarchy file %s, %s", path, err);
    free(text);
    if (h->nleaves < 2)
        err_usage("hierarchy file %s has one host: there is no link to measure", path);
    if (h->nleaves > CPM_MAX_PROCESSES)
        err_usage("hierarchy file %s has %zu hosts, more than a model holds (%d)", path, h->nleaves,
                  CPM_MAX_PROCESSES);
}

static void print_links(const struct cpm_hier *h, const struct cpm_hier_plan *p, const int *rank_of)
{
    for (size_t k = 0; k < p->nlinks; k++) {
        const struct cpm_hier_link *l = &p->links[k];
        char ranks[60] = "";
        if (rank_of)
            snprintf(ranks, sizeof ranks, " (ranks %d, %d)", rank_of[l->a], rank_of[l->b]);
        out_comment("link %zu: %s - %s%s, %s \"%s\", for %zu pair%s", k,
                    h->nodes[h->leaves[l->a]].model_data, h->nodes[h->leaves[l->b]].model_data,
                    ranks, l->within ? "within the hosts directly below" : "between the parts of",
                    h->nodes[l->group].name, l->pairs, l->pairs == 1 ? "" : "s");
    }
    size_t n = h->nleaves;
    out_comment("links to measure: %zu for the %zu pairs of %zu hosts (model measures every "
                "pair)",
                p->nlinks, n * (n - 1) / 2, n);
}

/* --plan: the links and, as data lines, the hosts a run needs. */
static void print_plan(const struct cpm_hier *h, const char *path)
{
    struct cpm_hier_plan p;
    char err[600];
    if (cpm_hier_plan_make(h, NULL, &p, err, sizeof err) != 0)
        err_usage("hierarchy file %s, %s", path, err); /* not reached: all hosts are reachable */
    print_links(h, &p, NULL);
    size_t *hosts = malloc(h->nleaves * sizeof *hosts), nhosts = cpm_hier_plan_hosts(h, &p, hosts);
    if (!hosts)
        err_fatal("out of memory");
    out_comment("hosts a run needs, one process on each (e.g. mpirun -n %zu --host with "
                "them, comma separated):",
                nhosts);
    /* JSON: a row per host a run needs. */
    report_table("cpm_hier_plan", "host", REPORT_NOT_RANKED, NULL);
    report_no_iterations();
    report_key("host", REPORT_UNIT_TEXT);
    for (size_t k = 0; k < nhosts; k++) {
        out_line("%s", h->nodes[h->leaves[hosts[k]]].model_data);
        report_row_begin("cpm_hier_plan");
        report_row_string("host", h->nodes[h->leaves[hosts[k]]].model_data);
        report_row_end();
    }
    free(hosts);
    cpm_hier_plan_free(&p);
}

static void print_note(size_t link, const char *text, void *ctx)
{
    (void)ctx;
    out_comment("link %zu: %s", link, text);
}

/* --spawn-host=HOST=NAME,...: per host of h, the name its "host" key
 * gives MPI_Comm_spawn (NULL: the host's own, or none under the test hook,
 * whose hosts the launcher does not know). Status 2 for a malformed list or
 * a host outside the hierarchy. */
static char **launch_names(const struct cpm_hier *h, const char *map)
{
    char **names = calloc(h->nleaves + 1, sizeof *names);
    char *copy = strdup(map ? map : "");
    if (!names || !copy)
        err_fatal("out of memory");
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item || !eq[1])
            err_usage("--spawn-host takes HOST=NAME items, comma separated, not \"%.60s\"", item);
        *eq = '\0';
        size_t i = 0;
        while (i < h->nleaves && strcmp(h->nodes[h->leaves[i]].model_data, item) != 0)
            i++;
        if (i == h->nleaves)
            err_usage("--spawn-host names \"%.60s\", which is no host of the hierarchy", item);
        free(names[i]);
        if (!(names[i] = strdup(eq + 1)))
            err_fatal("out of memory");
    }
    free(copy);
    for (size_t i = 0; i < h->nleaves; i++)
        if (!names[i] && !cpm_hosts_faked() &&
            !(names[i] = strdup(h->nodes[h->leaves[i]].model_data)))
            err_fatal("out of memory");
    return names;
}

/* Spawns a helper on every host the full plan needs and no rank of the run
 * is on; returns the merged communicator, rank_of and reach for it, and the
 * plan over those ranks in *p, or a message in why (the same on every
 * rank) when a helper does not run on its host. The helpers wait to be
 * told (hier_spawn_tell). */
static MPI_Comm spawn_missing(const struct cpm_hier *h, const char *prog, const char *map,
                              double limit, int *rank_of, bool *reach, struct cpm_hier_plan *p,
                              size_t *nspawned, char *why, size_t whylen)
{
    struct cpm_hier_plan full;
    char err[600] = "";
    if (cpm_hier_plan_make(h, NULL, &full, err, sizeof err) != 0)
        err_usage("%s", err); /* not reached: all hosts are reachable */
    size_t *hosts = malloc((h->nleaves + 1) * sizeof *hosts), n = 0;
    const char **names = malloc((h->nleaves + 1) * sizeof *names);
    const char **launch = malloc((h->nleaves + 1) * sizeof *launch);
    char **map_names = launch_names(h, map);
    if (!hosts || !names || !launch)
        err_fatal("out of memory for %zu hosts", h->nleaves);
    size_t needed = cpm_hier_plan_hosts(h, &full, hosts);
    for (size_t k = 0; k < needed; k++)
        if (rank_of[hosts[k]] < 0) {
            names[n] = h->nodes[h->leaves[hosts[k]]].model_data;
            launch[n++] = map_names[hosts[k]];
        }
    cpm_hier_plan_free(&full);
    MPI_Comm merged = hier_spawn_helpers(prog, names, launch, n, limit);
    char mine[CPM_HOST_NAME_LEN] = "";
    if (cpm_host_name(harness.rank, mine, err, sizeof err) != 0)
        err_fatal("%s", err); /* not reached: hier_cli_hosts took it before */
    char *all = cpm_hosts_allgather(merged, mine);
    int size;
    MPI_CHECK(MPI_Comm_size(merged, &size));
    cpm_hier_ranks(h, all, size, rank_of);
    bool bad = false;
    for (size_t k = 0; k < n && !bad; k++) {
        const char *got = all + (size_t)(harness.size + (int)k) * CPM_HOST_NAME_LEN;
        if (strcmp(got, names[k]) != 0) {
            snprintf(err, sizeof err,
                     "the helper spawned for host %.100s runs on host %.100s: the launcher did "
                     "not place it there (name the launcher's host names with --spawn-host, or "
                     "start the run with a process on each host that --plan lists)",
                     names[k], got);
            bad = true;
        }
    }
    for (size_t i = 0; i < h->nleaves; i++)
        reach[i] = rank_of[i] >= 0;
    if (!bad && cpm_hier_plan_make(h, reach, p, err, sizeof err) != 0)
        bad = true; /* not reached: every host of the full plan has a rank */
    snprintf(why, whylen, "%s", bad ? err : "");
    *nspawned = n;
    for (size_t i = 0; i < h->nleaves; i++)
        free(map_names[i]);
    free(map_names);
    free(all);
    free(launch);
    free(names);
    free(hosts);
    return merged;
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    if (hier_spawn_is_helper())
        hier_spawn_helper_main(argc, argv);
    const char *const *names = cpm_model_kind_names(true);
    char list[200], kind_help[300];
    cli_join_names(names, list, sizeof list);
    snprintf(kind_help, sizeof kind_help, "%s (required; LMO is not taken)", list);
    struct cli_common c;
    int kind_index = -1;
    const char *in = NULL, *out = NULL, *spawn_map = NULL;
    bool plan = false, two_point = false, no_spawn = false;
    double spawn_limit = 60;
    const struct opt_spec extra[] = {
        {.short_name = 'C', .kind = OPT_CHOICE, .dest = &kind_index, .metavar = "MODEL",
         .help = kind_help, .choices = names},
        {.short_name = 'i', .kind = OPT_STRING, .dest = &in, .metavar = "FILE",
         .help = "the hierarchy file (required)"},
        {.short_name = 'o', .kind = OPT_STRING, .dest = &out, .metavar = "FILE",
         .help = "the model file to write (required)"},
        {.long_name = "plan", .kind = OPT_FLAG, .dest = &plan,
         .help = "print the links and the hosts a run needs, measure nothing"},
        {.long_name = "two-point", .kind = OPT_FLAG, .dest = &two_point,
         .help = "Hockney from round trips of 0 and -M bytes instead of a regression"},
        {.long_name = "no-spawn", .kind = OPT_FLAG, .dest = &no_spawn,
         .help = "refuse a hierarchy the run's processes cannot measure instead of spawning "
                 "helpers on the hosts it lacks"},
        {.long_name = "spawn-host", .kind = OPT_STRING, .dest = &spawn_map,
         .metavar = "HOST=NAME,...",
         .help = "the launcher's name of a host of the hierarchy, for MPI_Comm_spawn's host key"},
        {.long_name = "spawn-timeout", .kind = OPT_DOUBLE, .dest = &spawn_limit,
         .max = OPT_SECONDS_MAX, .metavar = "SECONDS",
         .help = "status 2 when spawning the helpers takes longer (default 60)"},
    };
    cli_parse(argc, argv, &c, extra, sizeof extra / sizeof extra[0],
              "-C MODEL -i HIERARCHY -o FILE [options] | -i HIERARCHY --plan",
              "Builds a model file for every host of a hierarchy from one measured link per\n"
              "pair of parts of each group (-p: disjoint links at the same time).",
              "hierarchical_model writes what it measures into the model file, not into rows",
              false);
    if (!in)
        err_usage("name the hierarchy file with -i");
    struct cpm_hier h;
    read_hierarchy(in, &h);
    if (plan) {
        out_header("CPM hierarchical model: plan", argc, argv);
        out_comment("hierarchy: %s: %zu hosts, %zu elements", in, h.nleaves, h.nnodes);
        print_plan(&h, in);
        cpm_hier_free(&h);
        harness_finish(ERR_STATUS_OK);
    }
    if (kind_index < 0)
        err_usage("choose a model with -C (%s)", list);
    if (!out)
        err_usage("name the model file with -o");
    const struct cpm_model_kind *kind = cpm_model_kind_find(names[kind_index]);
    if (!cpm_hier_fill_takes(kind) || kind->min_procs > 2)
        err_usage("the %s model cannot be built from links: its parameters are not all of "
                  "pairs of processes (use Hockney, LinInterp or PLogP)",
                  kind->name);
    struct cpm_estimate_args a = {MPI_COMM_WORLD, c.msgset, c.precision, c.parallel, two_point,
                                  false};
    char err[600] = "";
    if (kind->check && kind->check(&a, err, sizeof err) != 0)
        err_usage("%s", err);
    if (kind != &cpm_hockney_kind && c.msgset.stride == 0)
        err_usage("%s needs the same message sizes on every link: give a stride (-S), not an "
                  "adaptive set",
                  kind->name);

    char *hosts = hier_cli_hosts();
    int *rank_of = malloc(h.nleaves * sizeof *rank_of);
    bool *reach = malloc(h.nleaves * sizeof *reach);
    if (!rank_of || !reach)
        err_fatal("out of memory for %zu hosts", h.nleaves);
    cpm_hier_ranks(&h, hosts, harness.size, rank_of);
    for (size_t i = 0; i < h.nleaves; i++)
        reach[i] = rank_of[i] >= 0;
    struct cpm_hier_plan p;
    bool lacking = cpm_hier_plan_make(&h, reach, &p, err, sizeof err) != 0;
    if (lacking && no_spawn)
        err_usage("hierarchy file %s, %s (--plan lists the hosts a run needs)", in, err);
    if (spawn_map)
        free(launch_names(&h, spawn_map)); /* refused now, not only when spawning */
    /* The output file before any spawn: a folder that does not exist is
     * refused at once, not after helpers were placed. A spawn that ends the
     * run by its time limit removes the temporary file (hier_spawn_cleanup). */
    struct ofile file;
    int refused = harness.rank == 0 && ofile_open(&file, out, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, refused, ERR_STATUS_USAGE, "%s", err);
    if (harness.rank == 0)
        hier_spawn_cleanup(file.tmp);
    MPI_Comm comm = MPI_COMM_WORLD;
    size_t nspawned = 0;
    char why[600] = "";
    if (lacking)
        comm = spawn_missing(&h, argv[0], spawn_map, spawn_limit, rank_of, reach, &p, &nspawned,
                             why, sizeof why);
    hier_spawn_cleanup(NULL);
    if (comm != MPI_COMM_WORLD) {
        /* The helpers go on only when the run does. */
        MPI_CHECK(MPI_Bcast(&refused, 1, MPI_INT, 0, MPI_COMM_WORLD));
        bool go = !why[0] && !refused;
        a.comm = comm;
        hier_spawn_tell(comm, go, kind_index, &a, &p, rank_of);
        if (!go)
            hier_spawn_part(&comm);
        if (why[0]) {
            if (harness.rank == 0 && !refused)
                ofile_discard(&file);
            err_usage("hierarchy file %s: %s", in, why);
        }
    }

    out_header("CPM hierarchical model builder", argc, argv);
    out_comment("model: %s", kind->name);
    out_comment("hierarchy: %s: %zu hosts, %zu elements", in, h.nleaves, h.nnodes);
    hier_cli_hosts_comment();
    cli_preamble(&c, harness.size);
    for (size_t i = 0; i < h.nleaves; i++)
        out_comment("process %zu: %s%s", i, h.nodes[h.leaves[i]].model_data,
                    !reach[i]                  ? " (no rank of this run)"
                    : rank_of[i] >= harness.size ? " (a helper spawned there)"
                                                 : "");
    if (nspawned)
        out_comment("spawned: %zu helper%s (MPI_Comm_spawn), ranks %d to %d of the measurement",
                    nspawned, nspawned == 1 ? "" : "s", harness.size,
                    harness.size + (int)nspawned - 1);
    print_links(&h, &p, rank_of);
    double t0 = MPI_Wtime();
    void **links = calloc(p.nlinks + 1, sizeof *links);
    if (!links)
        err_fatal("out of memory for %zu links", p.nlinks);
    int failed = cpm_hier_measure(kind, &a, &p, rank_of, links, print_note, NULL, err, sizeof err);
    double elapsed = MPI_Wtime() - t0;
    if (comm != MPI_COMM_WORLD)
        hier_spawn_part(&comm);
    void *model = NULL;
    if (harness.rank == 0 && !failed)
        failed = cpm_hier_fill(kind, &h, &p, links, &model, err, sizeof err) != 0;
    if (harness.rank == 0) {
        if (model) {
            cpm_model_write_stream(file.f, kind, model); /* a failed write: ofile_close */
            ofile_close(&file);
        } else {
            ofile_discard(&file);
        }
        if (model)
            kind->destroy(model);
        for (size_t k = 0; k < p.nlinks; k++)
            if (links[k])
                kind->destroy(links[k]);
    }
    err_any(MPI_COMM_WORLD, failed && harness.rank == 0, ERR_STATUS_FAIL, "%s", err);
    out_comment("estimation time: %.6f s", elapsed);
    out_comment("model of %zu processes written to %s", h.nleaves, out);
    free(links);
    free(rank_of);
    free(reach);
    free(hosts);
    cpm_hier_plan_free(&p);
    cpm_hier_free(&h);
    harness_finish(ERR_STATUS_OK);
}
