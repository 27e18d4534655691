/* Unit tests of -D's pure logic: the option text, the strict indx file
 * reader, the runs each type carries and the check of received data. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "../../common/buf.h"
#include "../../osu/osu_ddt.h"

static int parse(const char *arg, struct osu_ddt *d, char *err)
{
    memset(d, 0, sizeof *d);
    return osu_ddt_parse(arg, d, err, 512);
}

static int parse_index(const char *text, struct osu_ddt *d, char *err)
{
    memset(d, 0, sizeof *d);
    return osu_ddt_parse_index(text, strlen(text), "f.txt", d, err, 512);
}

static void test_option_text(void **state)
{
    (void)state;
    struct osu_ddt d;
    char err[512];
    assert_int_equal(parse("cont", &d, err), 0);
    assert_int_equal(d.kind, OSU_DDT_CONTIGUOUS);
    assert_int_equal(parse("vect:8:4", &d, err), 0);
    assert_int_equal(d.kind, OSU_DDT_VECTOR);
    assert_int_equal(d.stride, 8);
    assert_int_equal(d.block, 4);
    assert_int_equal(parse("vect:3:3", &d, err), 0);
    const char *bad[] = {"", "contx", "vect", "vect:8", "vect:8:", "vect::4", "vect:8:9",
                         "vect:0:0", "vect:-8:4", "vect:8:4:2", "vect:2147483648:1",
                         "indx:", "indx", "foo"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(parse(bad[i], &d, err), -1);
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
    }
    assert_int_equal(parse("indx:/nonexistent/ddt.txt", &d, err), -1);
    assert_non_null(strstr(err, "cannot open"));
}

static void test_index_file(void **state)
{
    (void)state;
    struct osu_ddt d;
    char err[512];
    /* OMB's sample form: comments, "displacement, block length", any order. */
    assert_int_equal(parse_index("#comment\n# more\n10, 2\n\n 0 ,4 \r\n", &d, err), 0);
    assert_int_equal(d.kind, OSU_DDT_INDEXED);
    assert_int_equal(d.nblocks, 2);
    assert_int_equal(d.displs[0], 0);
    assert_int_equal(d.lengths[0], 4);
    assert_int_equal(d.displs[1], 10);
    assert_int_equal(d.span, 12);
    assert_int_equal(osu_ddt_min_count(&d), 12);
    assert_int_equal(osu_ddt_carried(&d, 100), 6);
    osu_ddt_free(&d);
    /* the last line need not end in a newline and counts (OMB drops it) */
    assert_int_equal(parse_index("2, 10", &d, err), 0);
    assert_int_equal(d.nblocks, 1);
    assert_int_equal(osu_ddt_carried(&d, 12), 10);
    osu_ddt_free(&d);

    struct {
        const char *text, *why;
    } bad[] = {
        {"", "no"},
        {"# only comments\n", "no"},
        {"1 2\n", "line 1"},
        {"1,\n", "line 1"},
        {"0,1\nx,2\n", "line 2"},
        {"0,0\n", "line 1"},
        {"-1,2\n", "line 1"},
        {"0,2,3\n", "line 1"},
        {"0,5\n3,1\n", "overlap"},
        {"0,1\n0,1\n", "overlap"},
        {"2147483647,1\n", "beyond an int"},
        {"0,99999999999\n", "line 1"},
        {"1e3,2\n", "line 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(parse_index(bad[i].text, &d, err), -1);
        if (!strstr(err, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, err, bad[i].why);
        assert_null(d.displs);
    }
    /* a NUL byte inside the text is refused, not read up to */
    const char nul[] = "0,1\n2,3\0junk\n";
    assert_int_equal(osu_ddt_parse_index(nul, sizeof nul - 1, "f.txt", &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
}

static void test_runs(void **state)
{
    (void)state;
    struct osu_ddt d = {.kind = OSU_DDT_VECTOR, .stride = 8, .block = 4};
    /* below one stride nothing is carried, as OMB's count / stride gives */
    assert_int_equal(osu_ddt_nruns(&d, 7), 0);
    assert_int_equal(osu_ddt_carried(&d, 7), 0);
    assert_int_equal(osu_ddt_carried(&d, 8), 4);
    assert_int_equal(osu_ddt_carried(&d, 23), 8);
    size_t first, len;
    osu_ddt_run(&d, 64, 3, &first, &len);
    assert_int_equal(first, 24);
    assert_int_equal(len, 4);
    unsigned char map[20];
    osu_ddt_mark(&d, 20, map);
    const unsigned char want[20] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(map, want, 20);

    struct osu_ddt c = {.kind = OSU_DDT_CONTIGUOUS};
    assert_int_equal(osu_ddt_nruns(&c, 5), 1);
    assert_int_equal(osu_ddt_carried(&c, 5), 5);
    assert_int_equal(osu_ddt_min_count(&c), 0);
}

static void test_check(void **state)
{
    (void)state;
    struct osu_ddt d = {.kind = OSU_DDT_VECTOR, .stride = 4, .block = 1};
    enum { COUNT = 16, ELEM = 4, BYTES = COUNT * ELEM };
    unsigned char data[BYTES];
    for (size_t i = 0; i < BYTES; i++)
        data[i] = (unsigned char)buf_pattern(3, 7, i);
    assert_int_equal(osu_ddt_check(&d, data, COUNT, ELEM, 3, 7), SIZE_MAX);
    /* bytes the type skips are not looked at */
    data[ELEM] ^= 0xFF;
    assert_int_equal(osu_ddt_check(&d, data, COUNT, ELEM, 3, 7), SIZE_MAX);
    /* a carried byte (element 8, its third byte) is */
    data[8 * ELEM + 2] ^= 0xFF;
    assert_int_equal(osu_ddt_check(&d, data, COUNT, ELEM, 3, 7), 8 * ELEM + 2);
    /* another rank's or iteration's data fails */
    assert_int_not_equal(osu_ddt_check(&d, data, COUNT, ELEM, 2, 7), SIZE_MAX);
}

static void test_describe(void **state)
{
    (void)state;
    char text[256];
    struct osu_ddt d = {.kind = OSU_DDT_VECTOR, .stride = 8, .block = 4};
    osu_ddt_describe(&d, text, sizeof text);
    assert_non_null(strstr(text, "blocks of 4 elements every 8"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_option_text), cmocka_unit_test(test_index_file),
        cmocka_unit_test(test_runs), cmocka_unit_test(test_check),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
