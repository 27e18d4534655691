/* compare: two result files of one program, text (the suite's, or OMB
 * 7.x's plain layout) or JSON Lines, row by row: both values (medians
 * where the rows have a spread), the ratio B / A and whether they differ
 * at 95% (cmp_test.h); gnuplot-ready on stdout, and a PNG on request.
 * compare A B [--png FILE] [--seed N]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_file.h"
#include "cmp_match.h"
#include "cmp_plot.h"
#include "cmp_test.h"
#include "err.h"
#include "harness.h"
#include "opt.h"
#include "out.h"
#include "report.h"
#include "runinfo.h"

struct counts {
    size_t rows, better, worse, unranked, same, untested;
};

static void print_file(const char *which, const struct cmp_file *f)
{
    out_comment("%s: %s (%s%s%s)", which, f->path,
                f->jsonl ? "JSON Lines" : f->layout[0] ? f->layout : "text",
                f->date[0] ? ", " : "", f->date);
    if (f->ending[0])
        out_comment("%s: %s", which, f->ending);
}

/* The command line as given (before getopt reorders it). */
static void join_command(int argc, char **argv, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < argc && used < n; i++)
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? " " : "", argv[i]);
}

/* Whether a file holds rows with nothing but their average (OMB's plain
 * layout): no test is possible with them, and the header says so once. */
static bool averages_only(const struct cmp_file *f)
{
    for (size_t i = 0; i < f->nrows; i++)
        if (f->rows[i].averages_only)
            return true;
    return false;
}

static void print_header(const char *command, const struct cmp_file *a, const struct cmp_file *b,
                         const struct cmp_settings *s, const struct cmp_outcome *o, size_t n)
{
    char title[300], date[64];
    size_t medians = 0;
    for (size_t i = 0; i < n; i++)
        medians += o[i].medians;
    snprintf(title, sizeof title, "Comparison of two runs of %s", cmp_match_program(a, b));
    out_title(title);
    runinfo_date(date, sizeof date);
    out_comment("command: %s", command);
    out_comment("date: %s", date);
    if (a->title[0])
        out_comment("benchmark: %s", a->title);
    print_file("A", a);
    print_file("B", b);
    out_comment("value: %s", medians == n  ? "the median of each row's iterations"
                             : medians == 0 ? "each row's main value (no median: the files "
                                              "have no --stats)"
                                            : "the median where both rows have one, else the "
                                              "main value");
    out_comment("ratio: B / A; p: two-sided; significant: 1 or 0 at %.0f%%, nan where not "
                "tested", 100.0 * s->level);
    out_comment("test: where both rows carry their iterations' values (--samples; alltoall's "
                "### lines), %d of them at most together, a bootstrap of the difference of "
                "the medians, %d resamples of each side from seed %lu",
                CMP_BOOTSTRAP_MAX_VALUES, CMP_RESAMPLES, s->seed);
    out_comment("test: else Welch's t on the medians, each with standard error "
                "sqrt(pi/2) (P95 - P5) / (2 * 1.645) / sqrt(iterations), Welch-Satterthwaite "
                "degrees of freedom; fewer than %d iterations: not tested",
                CMP_MIN_ITERATIONS);
    bool avg_a = averages_only(a), avg_b = averages_only(b);
    if (avg_a || avg_b)
        out_comment("significance: not tested: plain OMB output holds averages only (%s)",
                    avg_a && avg_b ? "A and B" : avg_a ? "A" : "B");
}

/* "datatype MPI_CHAR, comms 2": the keys of a group other than x's. */
static void group_keys(const struct cmp_table *t, size_t x, const struct cmp_row *r, char *out,
                       size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t k = 0; k < t->nkeys && used < n; k++)
        if (k != x)
            used += (size_t)snprintf(out + used, n - used, "%s%s %s", used ? ", " : "",
                                     t->keys[k], r->key[k][0] ? r->key[k] : "null");
}

static void count(struct counts *c, const struct cmp_outcome *o)
{
    c->rows++;
    if (o->significant < 0)
        c->untested++;
    else if (!o->significant)
        c->same++;
    else if (strstr(o->verdict, "better"))
        c->better++;
    else if (strstr(o->verdict, "worse"))
        c->worse++;
    else
        c->unranked++;
}

static const char *better_words(enum cmp_better b)
{
    return b == CMP_LOWER_BETTER ? "lower is better"
           : b == CMP_HIGHER_BETTER ? "higher is better" : "not ranked";
}

/* Table by table (blocks for gnuplot's index), group by group (a blank
 * line: one curve each). */
static void print_rows(const struct cmp_file *a, const struct cmp_match *m,
                       const struct cmp_outcome *o, struct counts *c)
{
    size_t table = CMP_NO_KEY, group = 0, row = 0;
    for (size_t i = 0; i < m->n; i++) {
        const struct cmp_pair *p = &m->pairs[i];
        const struct cmp_table *t = &a->tables[p->table];
        size_t x = m->x_key[p->table];
        const struct cmp_row *r = cmp_pair_row(p);
        char keys[400];
        if (p->table != table) {
            if (table != CMP_NO_KEY)
                out_block_end();
            out_comment("table %s: %s in %s, %s", t->name, t->main, t->main_unit,
                        better_words(t->better));
            out_comment("%-12s %14s %14s %10s %10s %12s %10s  verdict",
                        x == CMP_NO_KEY ? "row" : t->keys[x], "A", "B", "B/A", "p", "significant",
                        "test");
            table = p->table;
            group = CMP_NO_KEY;
            row = 0;
        }
        if (p->group != group) {
            if (group != CMP_NO_KEY)
                out_line("%s", "");
            group_keys(t, x, r, keys, sizeof keys);
            if (keys[0])
                out_comment("%s", keys);
            group = p->group;
        }
        char xtext[64];
        if (x == CMP_NO_KEY)
            snprintf(xtext, sizeof xtext, "%zu", ++row);
        else
            snprintf(xtext, sizeof xtext, "%s", r->key[x][0] ? r->key[x] : "nan");
        char sig[8];
        snprintf(sig, sizeof sig, "%s", o[i].significant < 0 ? "nan"
                                        : o[i].significant ? "1" : "0");
        out_line("%-14s %14.6g %14.6g %10.4f %10.4g %12s %10s  \"%s\"", xtext, o[i].a, o[i].b,
                 o[i].ratio, o[i].p, sig, cmp_method_name(o[i].method), o[i].verdict);
        count(c, &o[i]);
    }
}

int main(int argc, char **argv)
{
    /* No MPI: only the program name, line buffering and the command line. */
    harness_prepare(argv);
    char command[2048];
    join_command(argc, argv, command, sizeof command);
    const char *png = NULL;
    size_t seed = 1;
    const struct opt_spec specs[] = {
        {.long_name = "png", .kind = OPT_STRING, .dest = &png, .metavar = "FILE",
         .help = "also draw the comparison into FILE with gnuplot (one per table: FILE-TABLE.png)"},
        {.long_name = "seed", .kind = OPT_SIZE, .dest = &seed, .metavar = "N",
         .help = "seed of the bootstrap's resampling (default 1): the same seed, the same p"},
    };
    const struct opt_usage usage = {
        "[--png FILE] [--seed N] A B",
        "Compares two result files of one program (text or JSON Lines, in any mix;\n"
        "text also in OMB 7.x's plain layout, OMB's own or the OSU programs' default):\n"
        "per row both medians (else both values), B / A, and whether they differ at 95%:\n"
        "a bootstrap over the iterations' values (--samples), else Welch's t from the\n"
        "medians, P5, P95 and iteration counts (--stats), else not tested.\n"
        "Writes gnuplot-ready text only: --format=jsonl is refused.",
        false, false, "tools", "compare reads results and measures nothing", NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (report_jsonl())
        err_usage("--format=jsonl: compare writes its gnuplot-ready text only");
    if (argc - pos != 2)
        err_usage("give two result files, A and B (try --help)");

    char err[600];
    static struct cmp_file a, b;
    if (cmp_file_read(argv[pos], &a, err, sizeof err) != 0 ||
        cmp_file_read(argv[pos + 1], &b, err, sizeof err) != 0)
        err_usage("%s", err);
    struct cmp_match m;
    if (cmp_match_files(&a, &b, &m, err, sizeof err) != 0)
        err_usage("%s", err);

    /* A PNG path that cannot be written is refused before anything is
     * printed, like any other bad input. */
    static struct cmp_plot plot;
    if (png && cmp_plot_open(&plot, png, &a, &m, err, sizeof err) != 0)
        err_usage("%s", err);

    struct cmp_settings s = {.seed = (unsigned long)seed, .level = 0.95};
    struct cmp_outcome *o = calloc(m.n ? m.n : 1, sizeof *o);
    if (!o)
        err_exit_all(ERR_STATUS_FAIL, "out of memory for %zu rows", m.n);
    for (size_t i = 0; i < m.n; i++)
        if (cmp_test_pair(&m.pairs[i], &a.tables[m.pairs[i].table], &s, &o[i]) != 0)
            err_exit_all(ERR_STATUS_FAIL, "out of memory for the bootstrap of %s",
                         a.tables[m.pairs[i].table].name);

    struct counts c = {0};
    print_header(command, &a, &b, &s, o, m.n);
    print_rows(&a, &m, o, &c);
    out_block_end();
    out_comment("%zu rows: %zu significant (%zu B better, %zu B worse%s), %zu not significant, "
                "%zu not tested", c.rows, c.better + c.worse + c.unranked, c.better, c.worse,
                c.unranked ? ", others unranked" : "", c.same, c.untested);
    int status = ERR_STATUS_OK;
    if (png && cmp_plot_draw(&plot, &a, &b, &m, o, err, sizeof err) != 0) {
        if (err[0])
            err_print("%s", err);
        status = err[0] ? ERR_STATUS_FAIL : ERR_STATUS_WRITE;
    }
    free(o);
    cmp_match_free(&m);
    cmp_file_free(&a);
    cmp_file_free(&b);
    err_finish(status);
}
