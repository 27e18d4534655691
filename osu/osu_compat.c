/* osu_compat: OMB 7.4's options that do nothing here; see osu_compat.h. */
#include "osu_compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness.h"

static const char *graph;      /* -G as given */
static size_t array_size;      /* -a, 0: not given */
static const char *test_calls; /* -t as given */

/* OMB 7.4's option table (osu_util_options.h): the letter, the long name,
 * whether it takes a value (-c and -z take one optionally: here none). */
static const struct {
    char letter;
    const char *name;
    bool value;
} omb_table[] = {
    {'f', "full", false},          {'m', "message-size", true},   {'W', "window-size", true},
    {'t', "num-test-calls", true}, {'i', "iterations", true},     {'x', "warmup", true},
    {'a', "array-size", true},     {'s', "sync-option", true},    {'w', "win-options", true},
    {'M', "mem-limit", true},      {'d', "accelerator", true},    {'r', "cuda-target", true},
    {'R', "print-rate", true},     {'p', "num-pairs", true},      {'V', "vary-window", false},
    {'c', "validation", false},    {'b', "buffer-num", true},     {'u', "validation-warmup", true},
    {'G', "graph", true},          {'P', "papi", true},           {'D', "ddt", true},
    {'N', "nhbr", true},           {'T', "type", true},           {'I', "session", false},
    {'l', "in-place", false},      {'z', "tail-lat", false},      {'k', "root-rank", true},
};
#define OMB_TABLE_SIZE (sizeof omb_table / sizeof omb_table[0])
_Static_assert(OMB_TABLE_SIZE <= OSU_COMPAT_MAX_IGNORED, "room for OMB's whole table");
static const char *ignored_value[OMB_TABLE_SIZE]; /* the value given, or NULL */
static bool ignored_flag[OMB_TABLE_SIZE];

/* OMB's words: tty, png, pdf by their first three letters, any case,
 * separated by commas (empty words skipped, at least one). */
static int parse_graph(const char *arg, void *dest, char *err, size_t errlen)
{
    size_t words = 0;
    for (const char *p = arg; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0) {
            if (n < 3 || (strncasecmp(p, "tty", 3) && strncasecmp(p, "png", 3) &&
                          strncasecmp(p, "pdf", 3))) {
                snprintf(err, errlen, "graph type '%.*s': use tty, png or pdf (several "
                         "separated by commas)", (int)n, p);
                return -1;
            }
            words++;
        }
        p += n + (p[n] == ',');
    }
    if (words == 0) {
        snprintf(err, errlen, "give a graph type: tty, png or pdf");
        return -1;
    }
    *(const char **)dest = arg;
    return 0;
}

struct opt_spec osu_compat_graph_option(void)
{
    return (struct opt_spec){
        .long_name = "graph", .short_name = 'G', .kind = OPT_CUSTOM, .dest = &graph,
        .metavar = "tty,png,pdf", .parse = parse_graph,
        .help = "OMB 7.4's graphs: none here (a note says so; plot/plot.sh, --samples)"};
}

struct opt_spec osu_compat_array_option(void)
{
    return (struct opt_spec){
        .long_name = "array-size", .short_name = 'a', .kind = OPT_SIZE, .dest = &array_size,
        .metavar = "N", .min = 1,
        .help = "OMB 7.4's device arrays of the dummy compute: none here (CPU compute)"};
}

struct opt_spec osu_compat_test_calls_option(void)
{
    return (struct opt_spec){
        .long_name = "num-test-calls", .short_name = 't', .kind = OPT_STRING,
        .dest = &test_calls, .metavar = "ARG",
        .help = "taken as OMB 7.4 takes it here, unused (a note says so)"};
}

size_t osu_compat_ignored_options(struct opt_spec *specs, size_t max, const char *except)
{
    size_t n = 0;
    for (size_t i = 0; i < OMB_TABLE_SIZE && n < max; i++) {
        if (strchr(except, omb_table[i].letter))
            continue;
        specs[n++] = (struct opt_spec){
            .long_name = omb_table[i].name,
            .short_name = omb_table[i].letter,
            .kind = omb_table[i].value ? OPT_STRING : OPT_FLAG,
            .dest = omb_table[i].value ? (void *)&ignored_value[i] : (void *)&ignored_flag[i],
            .metavar = omb_table[i].value ? "ARG" : NULL,
            .help = "OMB 7.4's option, taken and unused (a note says so)"};
    }
    return n;
}

void osu_compat_notes(const char *program)
{
    /* After the table, whatever is held for after it (the start-up programs
     * have no heading to end the holding). */
    out_hold_end();
    if (graph)
        out_comment("-G %s: no graphs here; plot/plot.sh plots the table, and --format=jsonl "
                    "--samples gives the values of every iteration",
                    graph);
    if (array_size)
        out_comment("-a %zu: the size of OMB 7.4's device arrays for its dummy compute; the "
                    "compute here runs on the CPU and has none",
                    array_size);
    if (test_calls)
        out_comment("-t %s: OMB 7.4 takes -t here and uses it nowhere (it counts the MPI_Test "
                    "calls of the non-blocking collectives, and threads or processes of "
                    "osu_latency_mt and osu_latency_mp)",
                    test_calls);
    char given[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < OMB_TABLE_SIZE && used < sizeof given; i++) {
        if (ignored_value[i])
            used += (size_t)snprintf(given + used, sizeof given - used, " -%c %s",
                                     omb_table[i].letter, ignored_value[i]);
        else if (ignored_flag[i])
            used += (size_t)snprintf(given + used, sizeof given - used, " -%c",
                                     omb_table[i].letter);
    }
    if (given[0])
        out_comment("options of OMB 7.4 that %s takes and does not use:%s",
                    program ? program : "this program", given);
}
