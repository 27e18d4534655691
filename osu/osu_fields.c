/* osu_fields: JSON names of OMB's column headings; see osu_fields.h. */
#include "osu_fields.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static const struct {
    const char *heading, *name, *unit;
} known[] = {
    {"Avg Latency(us)", "latency_us", REPORT_UNIT_US},
    {"Latency (us)", "latency_us", REPORT_UNIT_US},
    {"Min Latency(us)", "latency_min_us", REPORT_UNIT_US},
    {"Max Latency(us)", "latency_max_us", REPORT_UNIT_US},
    {"Bandwidth (MB/s)", "bandwidth_mb_s", REPORT_UNIT_MB_S},
    {"MB/s", "bandwidth_mb_s", REPORT_UNIT_MB_S},
    {"Min BW (MB/s)", "bandwidth_min_mb_s", REPORT_UNIT_MB_S},
    {"Min MB/s", "bandwidth_min_mb_s", REPORT_UNIT_MB_S},
    {"Max BW (MB/s)", "bandwidth_max_mb_s", REPORT_UNIT_MB_S},
    {"Max MB/s", "bandwidth_max_mb_s", REPORT_UNIT_MB_S},
    {"Messages/s", "message_rate_per_s", REPORT_UNIT_PER_S},
    {"Iterations", "iterations", REPORT_UNIT_COUNT},
    {"Transmit Size", "transmit_size_bytes", REPORT_UNIT_BYTES},
    {"P50 Tail Lat(us)", "tail_p50_us", REPORT_UNIT_US},
    {"P90 Tail Lat(us)", "tail_p90_us", REPORT_UNIT_US},
    {"P99 Tail Lat(us)", "tail_p99_us", REPORT_UNIT_US},
    {"P50 Tail BW(MB/s)", "tail_p50_mb_s", REPORT_UNIT_MB_S},
    {"P90 Tail BW(MB/s)", "tail_p90_mb_s", REPORT_UNIT_MB_S},
    {"P99 Tail BW(MB/s)", "tail_p99_mb_s", REPORT_UNIT_MB_S},
    {"Overall(us)", "overall_us", REPORT_UNIT_US},
    {"Compute(us)", "compute_us", REPORT_UNIT_US},
    {"Coll. Init(us)", "init_us", REPORT_UNIT_US},
    {"MPI_Test(us)", "test_us", REPORT_UNIT_US},
    {"MPI_Wait(us)", "wait_us", REPORT_UNIT_US},
    {"Pure Comm.(us)", "pure_comm_us", REPORT_UNIT_US},
    {"Min Comm.(us)", "pure_comm_min_us", REPORT_UNIT_US},
    {"Max Comm.(us)", "pure_comm_max_us", REPORT_UNIT_US},
    {"Overlap(%)", "overlap_pct", REPORT_UNIT_PERCENT},
};

/* An unknown heading: its words in lower case joined by '_', then the
 * unit; "Foo Bar(us)" is foo_bar_us in us. A unit the schema does not know
 * stays as written, so the schema test points at the heading to add. */
static void derive(const char *heading, struct osu_field *f)
{
    static const struct { const char *text, *suffix, *unit; } units[] = {
        {"us", "us", REPORT_UNIT_US},       {"s", "s", REPORT_UNIT_S},
        {"MB/s", "mb_s", REPORT_UNIT_MB_S}, {"%", "pct", REPORT_UNIT_PERCENT},
    };
    const char *paren = strchr(heading, '(');
    size_t words = paren ? (size_t)(paren - heading) : strlen(heading), used = 0;
    char *out = f->name;
    bool gap = false;
    for (size_t i = 0; i < words && used + 2 < OSU_FIELD_NAME_LEN; i++) {
        unsigned char c = (unsigned char)heading[i];
        if (isalnum(c)) {
            if (gap && used)
                out[used++] = '_';
            out[used++] = (char)tolower(c);
            gap = false;
        } else {
            gap = true;
        }
    }
    out[used] = '\0';
    snprintf(f->unit, sizeof f->unit, "%s", REPORT_UNIT_COUNT);
    if (!paren)
        return;
    const char *close = strchr(paren, ')');
    size_t n = close ? (size_t)(close - paren - 1) : strlen(paren + 1);
    const char *suffix = "unit";
    snprintf(f->unit, sizeof f->unit, "%.*s", (int)n, paren + 1);
    for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
        if (strlen(units[k].text) == n && strncmp(units[k].text, paren + 1, n) == 0) {
            suffix = units[k].suffix;
            snprintf(f->unit, sizeof f->unit, "%s", units[k].unit);
        }
    snprintf(out + used, OSU_FIELD_NAME_LEN - used, "_%s", suffix);
}

void osu_field_of(const char *heading, struct osu_field *f)
{
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (strcmp(heading, known[k].heading) == 0) {
            snprintf(f->name, sizeof f->name, "%s", known[k].name);
            snprintf(f->unit, sizeof f->unit, "%s", known[k].unit);
            return;
        }
    derive(heading, f);
}

static struct {
    struct osu_field values[OSU_MAX_FIELDS], trailing[OSU_MAX_FIELDS];
    size_t nvalues, ntrailing;
    bool datatype;
} table;

static void name_all(struct osu_field *f, size_t *n, const char *const *headings, size_t count)
{
    *n = count < OSU_MAX_FIELDS ? count : OSU_MAX_FIELDS;
    for (size_t i = 0; i < *n; i++)
        osu_field_of(headings[i], &f[i]);
}

static bool is_time(const char *unit)
{
    return strcmp(unit, REPORT_UNIT_US) == 0 || strcmp(unit, REPORT_UNIT_S) == 0;
}

void osu_fields_declare(bool sized, const char *const *values, size_t nvalues, bool validation,
                        const char *const *trailing, size_t ntrailing)
{
    name_all(table.values, &table.nvalues, values, nvalues);
    name_all(table.trailing, &table.ntrailing, trailing, ntrailing);
    if (!report_jsonl() || report_has_table("osu") || table.nvalues == 0)
        return;
    const struct osu_field *main = &table.values[0];
    report_table("osu", main->name, is_time(main->unit) ? REPORT_LOWER_BETTER
                                                       : REPORT_HIGHER_BETTER,
                 main->name);
    if (table.datatype)
        report_key("datatype", REPORT_UNIT_TEXT);
    if (sized)
        report_key("size_bytes", REPORT_UNIT_BYTES);
    for (size_t i = 0; i < table.nvalues; i++)
        report_value(table.values[i].name, table.values[i].unit);
    if (validation)
        report_value("validation", REPORT_UNIT_TEXT);
    for (size_t i = 0; i < table.ntrailing; i++)
        report_value(table.trailing[i].name, table.trailing[i].unit);
}

const struct osu_field *osu_fields_value(size_t i)
{
    return i < table.nvalues ? &table.values[i] : NULL;
}

const struct osu_field *osu_fields_trailing(size_t i)
{
    return i < table.ntrailing ? &table.trailing[i] : NULL;
}

void osu_fields_datatype(const char *name)
{
    table.datatype = true;
    report_context_string("datatype", name);
}
