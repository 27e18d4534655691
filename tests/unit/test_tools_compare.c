/* Unit tests of compare's readers (the OSU, alltoall and always text, OMB
 * 7.x's plain layout and JSON Lines, each into the names JSON uses), of
 * the pairing of rows and of the verdict on a pair: which test, which
 * words, and why not. */
#include "unit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmp_file.h"
#include "cmp_match.h"
#include "cmp_omb.h"
#include "cmp_test.h"

static FILE *open_text(const char *text)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    assert_non_null(in);
    return in;
}

/* text read as a file of the given format; 0 or -1 with err. */
static int read_string(const char *text, bool jsonl, struct cmp_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", jsonl ? "t.jsonl" : "t.dat");
    f->jsonl = jsonl;
    FILE *in = open_text(text);
    int rc = jsonl ? cmp_read_jsonl(in, f, err, errlen) : cmp_read_text(in, f, err, errlen);
    fclose(in);
    return rc;
}

/* A reader took its input (status 0), else the test fails saying why. */
static void took(int rc, const char *err)
{
    if (rc != 0)
        fail_msg("not read: %s", err);
}

static void read_ok(const char *text, bool jsonl, struct cmp_file *f)
{
    char err[600] = "";
    took(read_string(text, jsonl, f, err, sizeof err), err);
}

/* A reader refused its input with a message that says what. */
static void refused_saying(bool refused, const char *err, const char *what)
{
    if (!refused)
        fail_msg("read, though it should say '%s'", what);
    if (!strstr(err, what))
        fail_msg("message '%s' does not say '%s'", err, what);
}

static void read_fails(const char *text, bool jsonl, const char *what)
{
    struct cmp_file f;
    char err[600] = "";
    refused_saying(read_string(text, jsonl, &f, err, sizeof err) != 0, err, what);
    cmp_file_free(&f);
}

#define OSU_HEAD "\n# OSU MPI Latency Test (commsweep 0.1.0)\n# Datatype: MPI_CHAR.\n" \
                 "# command: build/osu/osu_latency -m 1:16384 --stats\n"            \
                 "# iterations: 10000 up to 8192 bytes, 1000 above\n"

static const char osu_stats[] =
    OSU_HEAD
    "# Size       Avg Latency(us)        Median(us)            P5(us)           P95(us)             CV(%)\n"
    "1                       0.64              0.43              0.30              0.69            198.19\n"
    "16384                  17.62              3.69              3.58              5.51           1888.17\n";

/* The one table of osu_latency's file, as its JSON Lines declare it. */
static void latency_table(const struct cmp_file *f)
{
    assert_string_equal(f->title, "OSU MPI Latency Test");
    assert_int_equal(f->ntables, 1);
    const struct cmp_table *t = &f->tables[0];
    assert_string_equal(t->name, "osu");
    assert_string_equal(t->main, "latency_us");
    assert_string_equal(t->main_unit, "us");
    assert_int_equal(t->better, CMP_LOWER_BETTER);
    assert_int_equal(t->nkeys, 2);
    assert_string_equal(t->keys[0], "datatype");
    assert_false(t->key_numeric[0]);
    assert_string_equal(t->keys[1], "size_bytes");
    assert_true(t->key_numeric[1]);
}

static void test_osu_text_with_stats(void **state)
{
    (void)state;
    struct cmp_file f;
    read_ok(osu_stats, false, &f);
    assert_string_equal(f.program, "osu/osu_latency");
    latency_table(&f);
    assert_int_equal(f.nrows, 2);
    const struct cmp_row *r = &f.rows[1];
    assert_string_equal(r->key[0], "MPI_CHAR");
    assert_string_equal(r->key[1], "16384");
    assert_double_equal(r->main, 17.62, 0);
    assert_true(r->has_spread);
    assert_double_equal(r->median, 3.69, 0);
    assert_double_equal(r->p5, 3.58, 0);
    assert_double_equal(r->p95, 5.51, 0);
    assert_int_equal(r->iterations, 1000);       /* above 8192 bytes */
    assert_int_equal(f.rows[0].iterations, 10000);
    assert_int_equal(r->line, 8);
    cmp_file_free(&f);
}

static void test_osu_text_other_layouts(void **state)
{
    (void)state;
    struct cmp_file f;
    /* Bandwidth is better higher; no --stats, no spread. */
    read_ok("# OSU MPI Bandwidth Test (commsweep 0.1.0)\n# Datatype: MPI_CHAR.\n"
            "# command: osu_bw\n# iterations: 20\n"
            "# Size      Bandwidth (MB/s)\n1                       7.29\n", false, &f);
    assert_string_equal(f.program, "osu/osu_bw"); /* the family from the title */
    assert_string_equal(f.tables[0].main, "bandwidth_mb_s");
    assert_int_equal(f.tables[0].better, CMP_HIGHER_BETTER);
    assert_false(f.rows[0].has_spread);
    assert_int_equal(f.rows[0].iterations, 20);
    cmp_file_free(&f);
    /* A collective with -f: the Iterations column counts; Pass is text. */
    read_ok("# OSU MPI Allreduce Latency Test (commsweep 0.1.0)\n# Datatype: MPI_FLOAT.\n"
            "# command: /opt/x/osu_allreduce -f -c\n# iterations: 1000\n"
            "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations        Validation        Median(us)            P5(us)           P95(us)             CV(%)\n"
            "4                       4.36              3.73              5.00          20              Pass              0.39              0.36             17.99            313.63\n",
            false, &f);
    assert_int_equal(f.rows[0].iterations, 20);
    assert_double_equal(f.rows[0].p95, 17.99, 0);
    cmp_file_free(&f);
    /* The barrier: no size, no datatype, no keys. */
    read_ok("# OSU MPI Barrier Latency Test (commsweep 0.1.0)\n# command: osu_barrier\n"
            "# iterations: 10\n# Avg Latency(us)        Median(us)            P5(us)           P95(us)             CV(%)\n"
            "             0.20              0.20              0.19              0.22              5.67\n",
            false, &f);
    assert_int_equal(f.tables[0].nkeys, 0);
    assert_int_equal(f.rows[0].iterations, 10);
    assert_true(f.rows[0].has_spread);
    cmp_file_free(&f);
    /* -T all: one table, the datatype a key of each block. */
    read_ok("# OSU MPI_Accumulate latency Test (commsweep 0.1.0)\n# Datatype: MPI_CHAR.\n"
            "# command: osu_acc_latency -T all\n# iterations: 10\n"
            "# Size          Latency (us)\n4                       3.74\n"
            "# OSU MPI_Accumulate latency Test\n# Datatype: MPI_INT.\n"
            "# Size          Latency (us)\n4                       2.23\n", false, &f);
    assert_int_equal(f.nrows, 2);
    assert_string_equal(f.rows[1].key[0], "MPI_INT");
    assert_string_equal(f.rows[1].key[1], "4");
    cmp_file_free(&f);
    /* --timing=window: a note after each row is no heading. */
    read_ok(OSU_HEAD "# Size       Avg Latency(us)\n4   0.91\n"
            "# window: size 4: 30 calls kept, 0 missed (left out), window 11.76 us\n8   0.54\n",
            false, &f);
    assert_int_equal(f.nrows, 2);
    cmp_file_free(&f);
}

static void test_alltoall_and_always_text(void **state)
{
    (void)state;
    struct cmp_file f;
    read_ok("# All to All algorithms: MPI_Alltoall and what could replace it (commsweep 0.1.0)\n"
            "# command: build/alltoall/aller --algorithm=isend s 2 4\n"
            "# algorithm: isend (MPI_Irecv from and MPI_Isend to every peer)\n"
            "#  comms    ranks   GiB_per_rank     time_min_s     time_avg_s     time_max_s\n"
            "### count 4 warm-up time 1e-06\n### count 4 iteration 1 time 3e-07\n"
            "### count 4 iteration 2 time 5e-07\n### count 4 iteration 3 time 4e-07\n"
            "       1        2   1.192093e-07   3.0e-07   4.0e-07   5.0e-07\n", false, &f);
    assert_string_equal(f.program, "alltoall/aller");
    const struct cmp_table *t = &f.tables[0];
    assert_string_equal(t->main, "time_avg_s");
    assert_int_equal(t->nkeys, 4);
    const struct cmp_row *r = &f.rows[0];
    assert_string_equal(r->key[0], "isend");
    assert_string_equal(r->key[1], "1");
    assert_string_equal(r->key[2], "2");
    assert_string_equal(r->key[3], "4");
    assert_double_equal(r->main, 4e-7, 0);
    assert_int_equal(r->nsamples, 3); /* the ### lines, without the warm-up */
    assert_double_equal(r->median, 4e-7, 0);
    assert_int_equal(r->iterations, 3);
    cmp_file_free(&f);
    read_ok("# Always: MPI_Alltoall over concurrent subcommunicators (commsweep 0.1.0)\n"
            "# command: build/always/iall 64\n"
            "#  tasks      calls        count   MiB_per_call      GiB_total         time_s     GiBps_task\n"
            "# warm-up:        2          1         2048   3.1e-02   3.0e-05   5.7e-05   5.3e-01\n"
            "       2          1         2048   3.1e-02   3.0e-05   7.2e-06   4.1e+00\n", false, &f);
    assert_string_equal(f.program, "always/iall");
    assert_int_equal(f.nrows, 2);
    assert_string_equal(f.rows[0].key[0], "warmup");
    assert_string_equal(f.rows[1].key[0], "timed");
    assert_string_equal(f.rows[1].key[3], "2048");
    assert_double_equal(f.rows[1].main, 7.2e-6, 0);
    assert_false(f.rows[1].has_spread);
    cmp_file_free(&f);
}

static void test_text_refused(void **state)
{
    (void)state;
    read_fails("1 2 3\n", false, "not a result of the suite");
    read_fails("# CPM p2p (commsweep 0.1.0)\n# command: cpm/p2p\n1 2\n", false,
               "write it with --format=jsonl");
    read_fails(OSU_HEAD "# Size       Avg Latency(us)\n1   0.5   0.7\n", false,
               "t.dat:7: 3 values where the heading names 2 columns");
    read_fails(OSU_HEAD "# Size       Avg Latency(us)\n1   fast\n", false, "'fast' is not a number");
    read_fails(OSU_HEAD "# Size       Avg Latency(us)\n-1   0.5\n", false, "'-1' is not a count");
    read_fails(OSU_HEAD "# Size       Avg Latency(us)\n", false, "t.dat: no data lines");
    read_fails(OSU_HEAD OSU_HEAD "# Size       Avg Latency(us)\n1   0.5\n", false,
               "two runs in one file");
    read_fails(OSU_HEAD "# Size       Avg Latency(us)\n1   0.5\n# Size        Bandwidth (MB/s)\n2   0.7\n",
               false, "the columns change");
}

#define JSON_HEADER                                                                            \
    "{\"type\":\"header\",\"format\":\"commsweep-jsonl\",\"format_version\":1,"                \
    "\"program\":\"osu/osu_latency\",\"title\":\"OSU MPI Latency Test\",\"date\":\"d\","       \
    "\"tables\":{\"osu\":{\"main\":\"latency_us\",\"better\":\"lower\",\"stats_of\":\"latency_us\"," \
    "\"keys\":[\"datatype\",\"size_bytes\"],\"units\":{\"datatype\":\"text\",\"size_bytes\":\"B\","  \
    "\"latency_us\":\"us\"}}}}\n"

static void test_jsonl(void **state)
{
    (void)state;
    struct cmp_file f;
    read_ok(JSON_HEADER
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":8,"
            "\"latency_us\":0.6,\"iterations\":5,\"samples\":[5,1,4,2,3]}\n"
            "\n"
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":16,"
            "\"latency_us\":null,\"iterations\":30,\"median\":2,\"p5\":1,\"p95\":3,\"cv\":0.1}\n"
            "{\"type\":\"summary\",\"status\":1,\"message\":\"validation failed\"}\n", true, &f);
    assert_string_equal(f.program, "osu/osu_latency");
    assert_string_equal(f.tables[0].keys[1], "size_bytes");
    assert_true(f.tables[0].key_numeric[1]);
    assert_int_equal(f.nrows, 2);
    const struct cmp_row *r = &f.rows[0];
    assert_string_equal(r->key[1], "8");
    assert_int_equal(r->nsamples, 5);
    assert_double_equal(r->samples[0], 5, 0); /* in the order they ran */
    assert_true(r->has_spread);               /* from the samples, as stats.h computes */
    assert_double_equal(r->median, 3, 0);
    assert_double_equal(r->p5, 1.2, 1e-12);
    assert_double_equal(r->p95, 4.8, 1e-12);
    r = &f.rows[1];
    assert_true(isnan(r->main));
    assert_int_equal(r->iterations, 30);
    assert_int_equal(r->line, 4);
    assert_string_equal(f.ending, "the run ended with status 1: validation failed");
    cmp_file_free(&f);
    read_ok(JSON_HEADER, true, &f);
    assert_string_equal(f.ending, "no summary: the run was cut off");
    cmp_file_free(&f);
}

static void test_jsonl_refused(void **state)
{
    (void)state;
    read_fails("{\"type\":\"row\"}\n", true, "t.jsonl:1: not commsweep's JSON Lines");
    read_fails("{\"type\":\"header\",\"format\":\"other\"}\n", true, "not commsweep's JSON Lines");
    read_fails("{\"type\":\"header\",\"format\":\"commsweep-jsonl\",\"format_version\":2}\n", true,
               "format_version 2: this compare reads version 1");
    read_fails(JSON_HEADER "{\"type\":\"row\",\"table\":\"osu\",\"size_bytes\":8", true,
               "t.jsonl:2: not JSON: expected ',' or '}'");
    read_fails(JSON_HEADER "[1]\n", true, "not an object");
    read_fails(JSON_HEADER "{\"type\":\"row\",\"table\":\"other\"}\n", true,
               "which the header does not declare");
    read_fails(JSON_HEADER "{\"type\":\"row\",\"table\":\"osu\",\"size_bytes\":8}\n", true,
               "without its key \"datatype\"");
    read_fails(JSON_HEADER "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"c\",\"size_bytes\":8,"
               "\"latency_us\":\"fast\"}\n", true, "\"latency_us\" is not a number");
    read_fails(JSON_HEADER JSON_HEADER, true, "a second header");
    read_fails(JSON_HEADER "{\"type\":\"summary\",\"status\":0}\n" JSON_HEADER, true,
               "after the summary");
}

/* ---- OMB 7.x's plain layout ---- */

/* text as a file read by cmp_file_read (which chooses the reader). */
static int read_path(const char *text, struct cmp_file *f, char *err, size_t errlen)
{
    char path[] = "/tmp/test_tools_compare.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    assert_int_equal(fputs(text, out) >= 0, 1);
    assert_int_equal(fclose(out), 0);
    int rc = cmp_file_read(path, f, err, errlen);
    unlink(path);
    return rc;
}

static void read_path_ok(const char *text, struct cmp_file *f)
{
    char err[600] = "";
    took(read_path(text, f, err, sizeof err), err);
}

/* The rows cmp_omb_read handed on, the first few. */
static struct {
    size_t n;
    struct cmp_omb_row rows[4];
} taken;

static int take(const struct cmp_omb *o, const struct cmp_omb_row *row, void *arg)
{
    (void)arg;
    assert_int_equal(o->nrows, taken.n + 1);
    if (taken.n < 4)
        taken.rows[taken.n] = *row;
    taken.n++;
    return 0;
}

/* cmp_omb_read on text: its status, the message in err, the rows in taken. */
static int omb_read(const char *text, struct cmp_omb *o, char *err, size_t errlen)
{
    memset(&taken, 0, sizeof taken);
    FILE *in = open_text(text);
    int rc = cmp_omb_read(in, "t.omb", o, take, NULL, err, errlen);
    fclose(in);
    return rc;
}

static void omb_ok(const char *text, struct cmp_omb *o)
{
    char err[600] = "";
    took(omb_read(text, o, err, sizeof err), err);
}

/* The main column's JSON name and the first row's value in it. */
static void main_is(const struct cmp_omb *o, const char *name, double value)
{
    assert_string_equal(o->main, name);
    assert_double_equal(taken.rows[0].main, value, 0);
}

static void omb_fails(const char *text, const char *what)
{
    struct cmp_omb o;
    char err[600] = "";
    refused_saying(omb_read(text, &o, err, sizeof err) == -1, err, what);
}

#define OMB74_LATENCY "# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n" \
                      "# Size       Avg Latency(us)\n"

static void test_omb_plain(void **state)
{
    (void)state;
    struct cmp_file f;
    /* OMB's own: no suite, no command; the title's version is noted. */
    read_path_ok(OMB74_LATENCY "1                       0.21\n2                       0.22\n", &f);
    assert_false(f.jsonl);
    assert_string_equal(f.program, "");
    assert_string_equal(f.layout, "text in OMB 7.4's layout");
    latency_table(&f);
    assert_int_equal(f.nrows, 2);
    assert_string_equal(f.rows[1].key[0], "MPI_CHAR");
    assert_string_equal(f.rows[1].key[1], "2");
    assert_double_equal(f.rows[1].main, 0.22, 0);
    assert_false(f.rows[1].has_spread);
    assert_true(f.rows[1].averages_only);
    assert_int_equal(f.rows[1].iterations, 0);
    assert_int_equal(f.rows[1].line, 5);
    cmp_file_free(&f);
    /* The suite's default output: the same layout, its version added. */
    read_path_ok("\n# OSU MPI Bandwidth Test v7.4 (commsweep 0.1.0)\n# Datatype: MPI_CHAR.\n"
                 "# Size      Bandwidth (MB/s)\n1                       7.29\n", &f);
    assert_string_equal(f.title, "OSU MPI Bandwidth Test");
    assert_string_equal(f.layout, "text in OMB 7.4's layout, by commsweep 0.1.0");
    assert_string_equal(f.tables[0].main, "bandwidth_mb_s");
    assert_int_equal(f.tables[0].better, CMP_HIGHER_BETTER);
    cmp_file_free(&f);
    /* A title without a version (OMB built without one). */
    read_path_ok("# OSU MPI Latency Test\n# Size       Avg Latency(us)\n8   1.5\n", &f);
    assert_string_equal(f.layout, "text in OMB 7.x (no version) layout");
    assert_int_equal(f.tables[0].nkeys, 1); /* no Datatype line: the size only */
    cmp_file_free(&f);
    /* The suite's own text (a '# command:' line) is not this layout. */
    struct cmp_omb o;
    char err[600] = "";
    assert_int_equal(omb_read(OSU_HEAD "# Size       Avg Latency(us)\n1   0.5\n", &o, err,
                              sizeof err), 1);
    assert_int_equal(omb_read("size latency\n1 2\n", &o, err, sizeof err), 1);
    assert_int_equal(taken.n, 0);
}

static void test_omb_columns(void **state)
{
    (void)state;
    struct cmp_omb o;
    /* -f and -c: Min, Max, the Iterations counted, Pass checked. */
    omb_ok("# OSU MPI Allreduce Latency Test v7.3\n# Datatype: MPI_INT.\n"
           "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  "
           "Iterations        Validation\n"
           "4                       4.36              3.73              5.00  "
           "        20              Pass\n", &o);
    main_is(&o, "latency_us", 4.36);
    assert_string_equal(o.version, "7.3");
    assert_int_equal(taken.n, 1);
    assert_int_equal(taken.rows[0].iterations, 20);
    assert_string_equal(taken.rows[0].datatype, "MPI_INT");
    /* Tail columns one space after a unit, and -D's Transmit Size. */
    omb_ok("# OSU MPI Bandwidth Test v7.4\n# Datatype: MPI_CHAR.\n"
           "# Size      Bandwidth (MB/s) P50 Tail BW(MB/s) P90 Tail BW(MB/s) "
           "P99 Tail BW(MB/s)     Transmit Size\n"
           "1   6.63   6.82   7.38   8.36   1\n", &o);
    main_is(&o, "bandwidth_mb_s", 6.63);
    assert_false(o.lower_better);
    /* The suite's --stats columns give a spread; its host is a word. */
    omb_ok("# OSU MPI Latency Test v7.4 (commsweep 0.1.0)\n"
           "# Size       Avg Latency(us)        Median(us)            P5(us)"
           "           P95(us)             CV(%)       SlowestHost\n"
           "1   0.46   0.41   0.35   0.62   185.35   node-1\n", &o);
    main_is(&o, "latency_us", 0.46);
    assert_true(taken.rows[0].has_spread && !o.typed);
    assert_double_equal(taken.rows[0].p95, 0.62, 0);
    /* The barrier: no size; a non-blocking one: Overall is the value. */
    omb_ok("# OSU MPI Barrier Latency Test v7.4\n# Avg Latency(us)\n"
           "             0.52\n", &o);
    main_is(&o, "latency_us", 0.52);
    assert_true(!o.sized && !taken.rows[0].size[0]);
    omb_ok("# OSU MPI Non-blocking Barrier Latency Test v7.4\n"
           "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n"
           "# Overall(us)       Compute(us)    Pure Comm.(us)        Overlap(%)\n"
           "   5.91   2.35   1.87   0.00\n", &o);
    main_is(&o, "overall_us", 5.91);
    /* -T all of a one-sided test: the title again before each datatype. */
    omb_ok("# OSU MPI_Accumulate latency Test v7.4\n"
           "# Window creation: MPI_Win_allocate\n# Datatype: MPI_CHAR.\n"
           "# Size          Latency (us)\n4   0.18\n"
           "# OSU MPI_Accumulate latency Test v7.4\n"
           "# Window creation: MPI_Win_allocate\n# Datatype: MPI_INT.\n"
           "# Size          Latency (us)\n4   0.16\n", &o);
    assert_int_equal(taken.n, 2);
    assert_string_equal(taken.rows[1].datatype, "MPI_INT");
    assert_int_equal(taken.rows[1].line, 10);
}

static void test_omb_refused(void **state)
{
    (void)state;
    omb_fails("# OSU MPI Latency Test v6.2\n# Size          Latency (us)\n1   0.5\n",
              "t.omb:1: OMB 6.2's output: compare reads the layout of OMB 7.x");
    /* Cut short: a row without its value, a file without rows. */
    omb_fails(OMB74_LATENCY "1   0.5\n2\n", "t.omb:5: 1 values where the heading (line 3) names 2");
    omb_fails(OMB74_LATENCY, "t.omb:3: the file ends before any data line");
    omb_fails("# OSU MPI Latency Test v7.4\n", "t.omb:1: the file ends before any data line");
    omb_fails(OMB74_LATENCY "1   fast\n",
              "t.omb:4: 'fast' in column Avg Latency(us) is not a number");
    omb_fails(OMB74_LATENCY "x1   0.5\n", "t.omb:4: 'x1' is not a message size");
    omb_fails("# OSU MPI Latency Test v7.4\n1   0.5\n", "t.omb:2: a data line before any column");
    omb_fails("1   0.5\n# OSU MPI Latency Test v7.4\n", "t.omb:1: a data line before OMB's title");
    omb_fails(OMB74_LATENCY "1   0.5\n# OSU MPI Bandwidth Test v7.4\n",
              "t.omb:5: a second title, 'OSU MPI Bandwidth Test' after 'OSU MPI Latency Test' "
              "(line 1): two runs in one file");
    omb_fails(OMB74_LATENCY "1   0.5\n# Size      Bandwidth (MB/s)\n2   0.7\n",
              "t.omb:5: the columns change within the file");
    omb_fails("# OSU MPI Latency Test v7.4\n# Size       Avg Latency(us)        Validation\n"
              "1   0.5   Maybe\n", "t.omb:3: 'Maybe' in column Validation");
    omb_fails("# OSU MPI Latency Test v7.4 (commsweep 0.1.0)\n"
              "# Size       Avg Latency(us)        Median(us)            P5(us)           P95(us)\n"
              "1   0.5   0.5   -0.1   0.6\n", "t.omb:3: '-0.1' in column P5(us): a measured value");
    omb_fails("# OSU MPI Multiple Bandwidth / Message Rate Test v7.4\n"
              "#                 1           2\n1   7.0   9.0\n",
              "t.omb:2: a heading of window sizes (osu_mbw_mr -V)");
}

/* A plain file pairs with JSON Lines of its title's test; rows of only an
 * average are not tested, and say so. */
static void test_omb_pairs(void **state)
{
    (void)state;
    struct cmp_file a, b;
    struct cmp_match m;
    char err[600];
    read_path_ok(OMB74_LATENCY "1   1.00\n2   2.00\n", &a);
    read_ok(JSON_HEADER
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":2,"
            "\"latency_us\":3,\"median\":3,\"p5\":2,\"p95\":4,\"iterations\":100}\n"
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":1,"
            "\"latency_us\":1.5}\n", true, &b);
    assert_int_equal(cmp_match_files(&a, &b, &m, err, sizeof err), 0);
    assert_string_equal(cmp_match_program(&a, &b), "osu/osu_latency");
    assert_int_equal(m.n, 2);
    assert_ptr_equal(m.pairs[0].b, &b.rows[1]);
    struct cmp_outcome o;
    struct cmp_settings s = {.seed = 1, .level = 0.95};
    assert_int_equal(cmp_test_pair(&m.pairs[1], &a.tables[0], &s, &o), 0);
    assert_double_equal(o.ratio, 1.5, 1e-12); /* the averages: B's median is not A's kind */
    assert_string_equal(o.verdict, "averages only: not tested");
    assert_int_equal(o.significant, -1);
    cmp_match_free(&m);
    cmp_file_free(&b);
    /* Another test's title is another program. */
    read_path_ok("# OSU MPI Bandwidth Test v7.4\n# Datatype: MPI_CHAR.\n"
                 "# Size      Bandwidth (MB/s)\n1   7.29\n", &b);
    assert_int_equal(cmp_match_files(&a, &b, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "is a run of 'OSU MPI Latency Test', "));
    assert_non_null(strstr(err, " of 'OSU MPI Bandwidth Test': compare two runs of one program"));
    cmp_file_free(&b);
    cmp_file_free(&a);
}

/* ---- pairs and verdicts ---- */

static const char pair_a[] =
    OSU_HEAD "# Size       Avg Latency(us)        Median(us)            P5(us)           P95(us)             CV(%)\n"
    "1                       1.00              1.00              0.90              1.10              5.00\n"
    "2                       1.00              1.00              0.90              1.10              5.00\n"
    "4                       1.00              1.00              0.90              1.10              5.00\n";

static void test_pairs_by_keys(void **state)
{
    (void)state;
    struct cmp_file a, b;
    struct cmp_match m;
    char err[600];
    read_ok(pair_a, false, &a);
    /* B in JSON: size 2 as 2.0e0, size 4 missing, size 8 only in B. */
    read_ok(JSON_HEADER
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":8,\"latency_us\":1}\n"
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":2.0e0,\"latency_us\":1}\n"
            "{\"type\":\"row\",\"table\":\"osu\",\"datatype\":\"MPI_CHAR\",\"size_bytes\":1,\"latency_us\":1}\n",
            true, &b);
    assert_int_equal(cmp_match_files(&a, &b, &m, err, sizeof err), 0);
    assert_int_equal(m.n, 4);
    assert_int_equal(m.x_key[0], 1); /* size_bytes */
    assert_ptr_equal(m.pairs[0].a, &a.rows[0]);
    assert_ptr_equal(m.pairs[0].b, &b.rows[2]);
    assert_ptr_equal(m.pairs[1].b, &b.rows[1]); /* 2 and 2.0e0 are one size */
    assert_null(m.pairs[2].b);                  /* size 4: only in A */
    assert_null(m.pairs[3].a);                  /* size 8: only in B, last */
    assert_ptr_equal(m.pairs[3].b, &b.rows[0]);
    cmp_match_free(&m);
    cmp_file_free(&b);

    /* Another program, and two rows of one size, are refused. */
    read_ok("# OSU MPI Bandwidth Test (commsweep 0.1.0)\n# command: osu_bw\n"
            "# Size      Bandwidth (MB/s)\n1                       7.29\n", false, &b);
    assert_int_equal(cmp_match_files(&a, &b, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "t.dat is a run of osu/osu_latency, t.dat of osu/osu_bw"));
    cmp_file_free(&b);
    read_ok(OSU_HEAD "# Size       Avg Latency(us)\n1   0.5\n2   0.5\n1   0.6\n", false, &b);
    assert_int_equal(cmp_match_files(&a, &b, &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "B (t.dat): lines 7 and 9 are both table osu, datatype MPI_CHAR, "
                                "size_bytes 1"));
    cmp_file_free(&b);
    cmp_file_free(&a);
}

/* Groups: alltoall's rows by algorithm, comms and ranks, one curve each,
 * in the order they first come. */
static void test_groups(void **state)
{
    (void)state;
    struct cmp_file a;
    struct cmp_match m;
    char err[600];
    read_ok("# All to All: x (commsweep 0.1.0)\n# command: all\n"
            "#  comms    ranks     time_avg_s\n"
            "### count 2 iteration 1 time 1\n 1 2 1\n### count 4 iteration 1 time 1\n 2 1 1\n"
            "### count 1 iteration 1 time 1\n 1 2 1\n### count 2 iteration 1 time 1\n 2 1 1\n",
            false, &a);
    assert_int_equal(cmp_match_files(&a, &a, &m, err, sizeof err), 0);
    assert_int_equal(m.n, 4);
    assert_int_equal(m.x_key[0], 3); /* count */
    assert_ptr_equal(m.pairs[0].a, &a.rows[0]);
    assert_ptr_equal(m.pairs[1].a, &a.rows[2]);
    assert_ptr_equal(m.pairs[2].a, &a.rows[1]);
    assert_int_equal(m.pairs[1].group, 0);
    assert_int_equal(m.pairs[2].group, 1);
    cmp_match_free(&m);
    cmp_file_free(&a);
}

static void verdict_of(const struct cmp_row *ra, const struct cmp_row *rb, enum cmp_better better,
                       struct cmp_outcome *o)
{
    struct cmp_table t = {.better = better};
    struct cmp_pair p = {0, ra, rb, 0};
    struct cmp_settings s = {.seed = 1, .level = 0.95};
    assert_int_equal(cmp_test_pair(&p, &t, &s, o), 0);
}

static void test_verdicts(void **state)
{
    (void)state;
    struct cmp_row a = {.main = 1.2, .has_spread = true, .median = 1.0, .p5 = 0.9, .p95 = 1.1,
                        .iterations = 100};
    struct cmp_row b = a;
    struct cmp_outcome o;
    /* Welch: spread sqrt(pi/2) 0.2 / 3.29 = 0.0762 each, standard error of
     * the difference 0.0108 at n = 100: 0.05 is 4.6 of them. */
    b.median = 1.05;
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_int_equal(o.method, CMP_WELCH);
    assert_true(o.medians);
    assert_double_equal(o.ratio, 1.05, 1e-12);
    assert_true(o.p < 1e-4);
    assert_int_equal(o.significant, 1);
    assert_string_equal(o.verdict, "significant: B worse");
    verdict_of(&a, &b, CMP_HIGHER_BETTER, &o);
    assert_string_equal(o.verdict, "significant: B better");
    verdict_of(&a, &b, CMP_NOT_RANKED, &o);
    assert_string_equal(o.verdict, "significant");
    b.median = 1.01; /* 0.9 standard errors */
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_true(o.p > 0.3 && o.p < 0.4);
    assert_string_equal(o.verdict, "not significant");
    assert_int_equal(o.significant, 0);
    /* Why not: too few iterations, no count, no spread (then the main values). */
    b.iterations = 19;
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_string_equal(o.verdict, "too few iterations: not tested");
    assert_int_equal(o.significant, -1);
    assert_true(isnan(o.p));
    b.iterations = 0;
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_string_equal(o.verdict, "no iteration count: not tested");
    b.iterations = 100;
    b.has_spread = false;
    b.main = 1.5;
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_string_equal(o.verdict, "no spread: not tested");
    assert_false(o.medians);
    assert_double_equal(o.ratio, 1.25, 1e-12);
    verdict_of(&a, NULL, CMP_LOWER_BETTER, &o);
    assert_string_equal(o.verdict, "only in A");
    assert_true(isnan(o.b));
}

/* Per-iteration values on both sides: the bootstrap, whatever P5 and P95
 * would say, and the same seed gives the same p. */
static void test_bootstrap_verdict(void **state)
{
    (void)state;
    double xa[40], xb[40];
    for (int i = 0; i < 40; i++) {
        xa[i] = 10 + i % 7;
        xb[i] = 1.1 * xa[i];
    }
    struct cmp_row a = {.has_spread = true, .median = 12, .p5 = 10, .p95 = 16, .iterations = 40,
                        .samples = xa, .nsamples = 40};
    struct cmp_row b = a;
    b.samples = xb;
    b.median = 13.2;
    struct cmp_outcome o, again;
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_int_equal(o.method, CMP_BOOTSTRAP);
    verdict_of(&a, &b, CMP_LOWER_BETTER, &again);
    assert_double_equal(o.p, again.p, 0);
    verdict_of(&a, &a, CMP_LOWER_BETTER, &o);
    assert_string_equal(o.verdict, "not significant");
    b.nsamples = 19; /* too few to resample: Welch from the spread */
    verdict_of(&a, &b, CMP_LOWER_BETTER, &o);
    assert_int_equal(o.method, CMP_WELCH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_osu_text_with_stats),
        cmocka_unit_test(test_osu_text_other_layouts),
        cmocka_unit_test(test_alltoall_and_always_text),
        cmocka_unit_test(test_text_refused),
        cmocka_unit_test(test_jsonl),
        cmocka_unit_test(test_jsonl_refused),
        cmocka_unit_test(test_omb_plain),
        cmocka_unit_test(test_omb_columns),
        cmocka_unit_test(test_omb_refused),
        cmocka_unit_test(test_omb_pairs),
        cmocka_unit_test(test_pairs_by_keys),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_bootstrap_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
