/* Unit tests of common/opt: strict numbers and every bad-input case. */
#include "unit.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "report.h"

static char err[256];

static void test_to_size_accepts_plain_numbers(void **state)
{
    (void)state;
    size_t v = 0;
    assert_int_equal(opt_to_size("0", "n", 0, 0, &v, err, sizeof err), 0);
    assert_int_equal(v, 0);
    assert_int_equal(opt_to_size("2147483648", "n", 0, 0, &v, err, sizeof err), 0);
    assert_int_equal(v, 2147483648u);
    assert_int_equal(opt_to_size("+17", "n", 0, 0, &v, err, sizeof err), 0);
    assert_int_equal(v, 17);
    assert_int_equal(opt_to_size("18446744073709551615", "n", 0, 0, &v, err, sizeof err), 0);
    assert_true(v == SIZE_MAX);
}

static void expect_size_error(const char *text, size_t min, size_t max, const char *why)
{
    size_t v = 12345;
    assert_int_equal(opt_to_size(text, "count", min, max, &v, err, sizeof err), -1);
    assert_int_equal(v, 12345);
    assert_non_null(strstr(err, why));
    assert_non_null(strstr(err, "count"));
}

static void test_to_size_rejects_bad_input(void **state)
{
    (void)state;
    expect_size_error("abc", 0, 0, "not a number");
    expect_size_error("12abc", 0, 0, "trailing");
    expect_size_error("1.5", 0, 0, "trailing");
    expect_size_error("", 0, 0, "empty");
    expect_size_error("-3", 0, 0, "negative");
    expect_size_error("99999999999999999999999", 0, 0, "too large");
    expect_size_error("0", 1, 0, "at least 1");
    expect_size_error("11", 0, 10, "too large");
    expect_size_error(" 5", 0, 0, "not a number");
}

static void test_to_long_signed(void **state)
{
    (void)state;
    long long v = 0;
    assert_int_equal(opt_to_long("-5", "it", INT64_MIN, 100, &v, err, sizeof err), 0);
    assert_int_equal(v, -5);
    assert_int_equal(opt_to_long("101", "it", INT64_MIN, 100, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "too large"));
    assert_int_equal(opt_to_long("-99999999999999999999", "it", INT64_MIN, 100, &v, err,
                                 sizeof err),
                     -1);
    assert_int_equal(opt_to_long("7x", "it", INT64_MIN, 100, &v, err, sizeof err), -1);
    assert_non_null(strstr(err, "trailing"));
    assert_int_equal(opt_to_long("--7", "it", INT64_MIN, 100, &v, err, sizeof err), -1);
}

static void test_to_double(void **state)
{
    (void)state;
    double d = 0;
    assert_int_equal(opt_to_double("0.25", "t", false, &d, err, sizeof err), 0);
    assert_double_equal(d, 0.25, 0);
    assert_int_equal(opt_to_double("0", "t", false, &d, err, sizeof err), -1);
    assert_int_equal(opt_to_double("0", "t", true, &d, err, sizeof err), 0);
    assert_int_equal(opt_to_double("-1", "t", true, &d, err, sizeof err), -1);
    assert_int_equal(opt_to_double("1e999", "t", false, &d, err, sizeof err), -1);
    assert_int_equal(opt_to_double("nan", "t", false, &d, err, sizeof err), -1);
    assert_int_equal(opt_to_double("1s", "t", false, &d, err, sizeof err), -1);
}

static void test_to_range(void **state)
{
    (void)state;
    size_t lo = 0, hi = 0;
    assert_int_equal(opt_to_range("64", "m", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 64);
    assert_int_equal(opt_to_range("4:1024", "m", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 4);
    assert_int_equal(hi, 1024);
    lo = 2;
    assert_int_equal(opt_to_range(":8", "m", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 2);
    assert_int_equal(opt_to_range("9:8", "m", &lo, &hi, err, sizeof err), -1);
    assert_int_equal(opt_to_range("1:x", "m", &lo, &hi, err, sizeof err), -1);
    assert_int_equal(opt_to_range("a:8", "m", &lo, &hi, err, sizeof err), -1);
    assert_int_equal(opt_to_range(":", "m", &lo, &hi, err, sizeof err), -1);
    assert_non_null(strstr(err, "empty range"));
    hi = 1024; /* "MIN:" keeps the maximum it had (OMB's open upper end) */
    assert_int_equal(opt_to_range("8:", "m", &lo, &hi, err, sizeof err), 0);
    assert_int_equal(lo, 8);
    assert_int_equal(hi, 1024);
    hi = 4;
    assert_int_equal(opt_to_range("8:", "m", &lo, &hi, err, sizeof err), -1);
}

/* A table like a program's. */
static size_t iters;
static double limit;
static bool flag;
static int mem;
static const char *const mems[] = {"host", "cuda", NULL};
static const struct opt_spec specs[] = {
    {.long_name = "iterations", .short_name = 'i', .kind = OPT_SIZE, .dest = &iters, .min = 1},
    {.long_name = "time-limit", .kind = OPT_DOUBLE, .dest = &limit, .max = OPT_SECONDS_MAX},
    {.long_name = "topology", .kind = OPT_FLAG, .dest = &flag},
    {.long_name = "memory", .kind = OPT_CHOICE, .dest = &mem, .choices = mems},
};
static const struct opt_usage usage_neg = {"[options] [A [B]]", NULL, true, false, NULL, NULL,
                                           NULL};

static enum opt_status parse(struct opt_result *r, int argc, const char **args)
{
    static char storage[16][64];
    static char *argv[17];
    for (int i = 0; i < argc; i++) {
        strcpy(storage[i], args[i]);
        argv[i] = storage[i];
    }
    argv[argc] = NULL;
    iters = 0;
    limit = 0;
    flag = false;
    mem = 0;
    enum opt_status s = opt_parse(argc, argv, specs, 4, &usage_neg, r);
    for (int i = 0; i < argc; i++)
        args[i] = argv[i];
    return s;
}

/* The test hooks' rank variables: a rank, or the fallback for anything
 * else (unset, empty, negative, not a number, beyond an int). */
static void test_env_rank(void **state)
{
    (void)state;
    unsetenv("COMMSWEEP_TEST_RANK");
    assert_int_equal(opt_env_rank("COMMSWEEP_TEST_RANK", -1), -1);
    static const struct {
        const char *text;
        int want;
    } cases[] = {{"0", 0}, {"7", 7}, {"2147483647", 2147483647}, {"", -1}, {"-1", -1},
                 {"abc", -1}, {"3x", -1}, {"2147483648", -1}, {" 4", -1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("COMMSWEEP_TEST_RANK", cases[i].text, 1);
        assert_int_equal(opt_env_rank("COMMSWEEP_TEST_RANK", -1), cases[i].want);
    }
    setenv("COMMSWEEP_TEST_RANK", "x", 1);
    assert_int_equal(opt_env_rank("COMMSWEEP_TEST_RANK", 0), 0);
    unsetenv("COMMSWEEP_TEST_RANK");
}

static void test_parse_good_options_and_positionals(void **state)
{
    (void)state;
    struct opt_result r;
    const char *a[] = {"prog", "strided", "-i", "5", "--memory=cuda", "--topology", "-3", "7"};
    assert_int_equal(parse(&r, 8, a), OPT_OK);
    assert_int_equal(iters, 5);
    assert_int_equal(mem, 1);
    assert_true(flag);
    /* positionals in their order, negatives kept as numbers */
    assert_int_equal(8 - r.first_positional, 3);
    assert_string_equal(a[r.first_positional], "strided");
    assert_string_equal(a[r.first_positional + 1], "-3");
    assert_string_equal(a[r.first_positional + 2], "7");
    const char *b[] = {"prog", "--time-limit", "0.5"};
    assert_int_equal(parse(&r, 3, b), OPT_OK);
    assert_double_equal(limit, 0.5, 0);
}

static void expect_parse_error(int argc, const char **a, const char *why)
{
    struct opt_result r;
    assert_int_equal(parse(&r, argc, a), OPT_ERROR);
    if (!strstr(r.message, why))
        fail_msg("message '%s' does not say '%s'", r.message, why);
}

static void test_parse_rejects_every_bad_case(void **state)
{
    (void)state;
    const char *unknown_long[] = {"prog", "--bogus"};
    const char *unknown_short[] = {"prog", "-q"};
    const char *missing[] = {"prog", "-i"};
    const char *missing_long[] = {"prog", "--iterations"};
    const char *nonnum[] = {"prog", "-i", "ten"};
    const char *garbage[] = {"prog", "-i", "12abc"};
    const char *negative[] = {"prog", "-i", "-4"};
    const char *zero[] = {"prog", "-i", "0"};
    const char *overflow[] = {"prog", "--iterations=99999999999999999999999"};
    const char *choice[] = {"prog", "--memory=gpu"};
    const char *neg_time[] = {"prog", "--time-limit=-1"};
    const char *long_time[] = {"prog", "--time-limit=86400.5"};
    const char *flag_value[] = {"prog", "--topology=yes"};
    expect_parse_error(2, unknown_long, "unknown option '--bogus'");
    expect_parse_error(2, unknown_short, "unknown option '-q'");
    expect_parse_error(2, missing, "needs a value");
    expect_parse_error(2, missing_long, "needs a value");
    expect_parse_error(3, nonnum, "not a number");
    expect_parse_error(3, garbage, "trailing");
    expect_parse_error(3, negative, "negative");
    expect_parse_error(3, zero, "at least 1");
    expect_parse_error(2, long_time, "too large (at most 86400)");
    expect_parse_error(2, overflow, "too large");
    expect_parse_error(2, choice, "choose from");
    expect_parse_error(2, neg_time, "must be positive");
    expect_parse_error(2, flag_value, "option '--topology' takes no value");
    /* A flag's number is no character: the message names the option. */
    const char *abbreviated_flag[] = {"prog", "--topo=yes"};
    const char *stats_value[] = {"prog", "--stats=1"};
    const char *format_missing[] = {"prog", "--format"};
    expect_parse_error(2, format_missing, "option '--format' needs a value");
    expect_parse_error(2, abbreviated_flag, "option '--topology' takes no value");
    expect_parse_error(2, stats_value, "option '--stats' takes no value");
}

static void test_help_and_version(void **state)
{
    (void)state;
    struct opt_result r;
    const char *h[] = {"prog", "-h"};
    const char *hl[] = {"prog", "--help"};
    const char *v[] = {"prog", "--version"};
    assert_int_equal(parse(&r, 2, h), OPT_HELP);
    assert_int_equal(parse(&r, 2, hl), OPT_HELP);
    assert_int_equal(parse(&r, 2, v), OPT_VERSION);
    /* -v is only a version switch where the program asks for it */
    const char *sv[] = {"prog", "-v"};
    expect_parse_error(2, sv, "unknown option");
}

/* The output options every program takes, and their refusals. */
static void test_output_options(void **state)
{
    (void)state;
    struct opt_result r;
    const char *plain[] = {"prog", "-i", "3"};
    assert_int_equal(parse(&r, 3, plain), OPT_OK);
    assert_int_equal(r.format, REPORT_TEXT);
    assert_false(r.stats);
    assert_false(r.samples);
    const char *all[] = {"prog", "--stats", "--format=jsonl", "--samples", "x"};
    assert_int_equal(parse(&r, 5, all), OPT_OK);
    assert_int_equal(r.format, REPORT_JSONL);
    assert_true(r.stats);
    assert_true(r.samples);
    assert_string_equal(all[r.first_positional], "x");
    const char *text[] = {"prog", "--format", "text"};
    assert_int_equal(parse(&r, 3, text), OPT_OK);
    assert_int_equal(r.format, REPORT_TEXT);
    const char *xml[] = {"prog", "--format=xml"};
    expect_parse_error(2, xml, "choose from text, jsonl");
    const char *bare[] = {"prog", "--samples"};
    expect_parse_error(2, bare, "with --format=jsonl");
    const char *later[] = {"prog", "--samples", "-i", "2", "--format=jsonl"};
    assert_int_equal(parse(&r, 5, later), OPT_OK);

    static const struct opt_usage refusing = {"[options]", NULL, false, false, "test",
                                              "no per-iteration times here", NULL};
    static const struct opt_usage no_samples = {"[options]", NULL, false, false, "test", NULL,
                                                "the samples stay elsewhere"};
    char *stats[] = {"prog", "--stats", NULL};
    assert_int_equal(opt_parse(2, stats, specs, 4, &refusing, &r), OPT_ERROR);
    assert_string_equal(r.message, "--stats: no per-iteration times here");
    char *samples[] = {"prog", "--format=jsonl", "--samples", NULL};
    assert_int_equal(opt_parse(3, samples, specs, 4, &refusing, &r), OPT_ERROR);
    assert_string_equal(r.message, "--samples: no per-iteration times here");
    assert_int_equal(opt_parse(3, samples, specs, 4, &no_samples, &r), OPT_ERROR);
    assert_string_equal(r.message, "--samples: the samples stay elsewhere");
    char *stats_ok[] = {"prog", "--stats", NULL};
    assert_int_equal(opt_parse(2, stats_ok, specs, 4, &no_samples, &r), OPT_OK);
}

/* The value each option was last given, kept for the JSON header. */
static void test_given_values(void **state)
{
    (void)state;
    struct opt_result r;
    const char *a[] = {"prog", "-i", "3", "--memory=cuda", "-i", "4"};
    assert_int_equal(parse(&r, 6, a), OPT_OK);
    assert_string_equal(r.given[0], "4");
    assert_string_equal(r.given[3], "cuda");
    assert_null(r.given[1]);
    const char *f[] = {"prog", "--topology"};
    assert_int_equal(parse(&r, 2, f), OPT_OK);
    assert_string_equal(r.given[2], "");
}

static void test_parse_twice(void **state)
{
    (void)state;
    struct opt_result r;
    const char *a[] = {"prog", "-i", "3"};
    const char *b[] = {"prog", "-i", "4"};
    assert_int_equal(parse(&r, 3, a), OPT_OK);
    assert_int_equal(parse(&r, 3, b), OPT_OK);
    assert_int_equal(iters, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_to_size_accepts_plain_numbers),
        cmocka_unit_test(test_to_size_rejects_bad_input),
        cmocka_unit_test(test_to_long_signed),
        cmocka_unit_test(test_to_double),
        cmocka_unit_test(test_to_range),
        cmocka_unit_test(test_env_rank),
        cmocka_unit_test(test_parse_good_options_and_positionals),
        cmocka_unit_test(test_parse_rejects_every_bad_case),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_parse_twice),
        cmocka_unit_test(test_output_options),
        cmocka_unit_test(test_given_values),
    };
    return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
