/* Unit tests of the CPM readers on damaged input: a model file of every
 * kind cut at any of its last bytes (inside its last number too) is
 * refused, hexadecimal floats are refused, a directory read as a stream
 * is called one, and the bytes that would control a terminal (C0, DEL,
 * C1 raw or as UTF-8, broken UTF-8) never reach an error message, while
 * well-formed UTF-8 does. */
#include "unit.h"

#include "cpm_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpm/lib/cpm_escape.h"
#include "../../cpm/lib/cpm_hier.h"
#include "../../cpm/lib/cpm_hockney.h"
#include "../../cpm/lib/cpm_lininterp.h"
#include "../../cpm/lib/cpm_lmo.h"
#include "../../cpm/lib/cpm_plogp.h"

/* The text a kind's writer gives for model, NUL-terminated; *len its length. */
static char *written(const struct cpm_model_kind *kind, const void *model, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    assert_int_equal(cpm_model_write_stream(f, kind, model), 0);
    fclose(f);
    return text;
}

/* Models of every kind with numbers of many digits, as estimates give. */
static void *model_of(const struct cpm_model_kind *kind)
{
    enum { N = 4, PAIRS = N * (N - 1) / 2 };
    if (kind == &cpm_hockney_kind) {
        struct cpm_hockney *h = cpm_hockney_alloc(N);
        for (int k = 0; k < PAIRS; k++) {
            h->a[k] = 2.3456789e-5 * (k + 1);
            h->b[k] = 7.4195638e-11 * (k + 1);
        }
        return h;
    }
    if (kind == &cpm_lininterp_kind) {
        struct cpm_lininterp *l = cpm_lininterp_alloc(N, 3);
        l->sizes[1] = 1024;
        l->sizes[2] = 65536;
        for (int k = 0; k < PAIRS * 3; k++)
            l->times[k] = 1.23456789e-5 * (k % 3 + 1);
        return l;
    }
    if (kind == &cpm_plogp_kind) {
        struct cpm_plogp *p = cpm_plogp_alloc(N, 2);
        p->sizes[1] = 4096;
        for (int k = 0; k < PAIRS; k++) {
            p->pairs[k].L = 1.1111111e-5;
            for (int s = 0; s < 2; s++) {
                p->pairs[k].os[s] = 1.2345678e-6 * (s + 1);
                p->pairs[k].orecv[s] = 2.3456789e-6 * (s + 1);
                p->pairs[k].g[s] = 3.4567891e-6 * (s + 1);
            }
        }
        return p;
    }
    struct cpm_lmo *m = cpm_lmo_alloc(N, false);
    for (int v = 0; v < N; v++) {
        m->C[v] = 1.2345678e-6;
        m->t[v] = 4.5678912e-10;
    }
    for (int k = 0; k < PAIRS; k++) {
        m->L[k] = 3.4567891e-6;
        m->inv_beta[k] = 5.6789123e-10;
    }
    m->S = 8192;
    m->M1 = 4096;
    m->many2one_large[0] = 1.2345678e-5;
    m->many2one_large[1] = 7.4195638e-11;
    return m;
}

static void test_cut_files_refused(void **state)
{
    (void)state;
    const struct cpm_model_kind *kinds[] = {&cpm_hockney_kind, &cpm_lininterp_kind,
                                            &cpm_plogp_kind, &cpm_lmo_kind};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        void *model = model_of(kinds[k]);
        size_t len;
        char *text = written(kinds[k], model, &len), err[400];
        assert_int_equal(cpm_text_check(kinds[k], text, len, 4, err, sizeof err), 0);
        for (size_t cut = 1; cut <= 40 && cut < len; cut++) {
            if (cpm_text_check(kinds[k], text, len - cut, 4, err, sizeof err) != -1)
                fail_msg("%s cut by %zu bytes was read", kinds[k]->name, cut);
            if (strchr(err, '\n') || strncmp(err, "line ", 5) != 0)
                fail_msg("%s cut by %zu: '%s'", kinds[k]->name, cut, err);
        }
        /* Inside the last number: the message says why. */
        assert_int_equal(cpm_text_check(kinds[k], text, len - 2, 4, err, sizeof err), -1);
        assert_non_null(strstr(err, "does not end with a newline (truncated?)"));
        kinds[k]->destroy(model);
        free(text);
    }
    /* The example of the seed's Hockney b 7.4195638e-11 read as 7.4195638e-1. */
    cpm_text_refused(&cpm_hockney_kind, "model Hockney\nprocesses 2\n0 1 1e-5 7.4195638e-1",
                     "line 3: the last line does not end with a newline");
    /* A comment or blanks after the last line are kept as they were. */
    char err[300];
    const char *tail = "model Hockney\nprocesses 2\n0 1 1e-5 7e-11\n\n# end\n  \n";
    assert_int_equal(cpm_text_check(&cpm_hockney_kind, tail, strlen(tail), 2, err, sizeof err),
                     0);
}

static void test_hex_floats_refused(void **state)
{
    (void)state;
    cpm_text_refused(&cpm_hockney_kind, "model Hockney\nprocesses 2\n0 1 0x1p-20 1e-9\n",
                     "'0x1p-20' is not a finite number");
    cpm_text_refused(&cpm_lininterp_kind,
                     "model LinInterp\nprocesses 2\npoints 1\nsizes 0\n0 1 0X1P-20\n",
                     "'0X1P-20' is not a finite number");
    cpm_text_refused(&cpm_plogp_kind,
                     "model PLogP\nprocesses 2\npoints 1\nsizes 0\npair 0 1 0x0.1p0\n",
                     "is not a finite number");
    cpm_text_refused(&cpm_lmo_kind, "model LMO\nprocesses 3\nhomogeneous 1\nC 0x1\n",
                     "'0x1' is not a finite number");
    const char *good[] = {"1", "-1", "+1.5", ".5", "5.", "1e-9", "1.5E+3", "0.000"};
    const char *bad[] = {"", ".", "e5", "1e", "1e+", "0x10", "inf", "nan", "1.5.2", "1e5x",
                         "--1", "1 "};
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        if (!cpm_decimal_text(good[k]))
            fail_msg("'%s' refused", good[k]);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        if (cpm_decimal_text(bad[k]))
            fail_msg("'%s' taken", bad[k]);
}

static void test_directory_named(void **state)
{
    (void)state;
    FILE *f = fopen("/", "r");
    if (!f)
        skip(); /* a C library that does not open directories as streams */
    void *m = NULL;
    char err[300] = "";
    assert_int_equal(cpm_model_read_stream(f, &cpm_hockney_kind, &m, err, sizeof err), -1);
    fclose(f);
    assert_null(m);
    if (!strstr(err, "directory") || strstr(err, "truncated"))
        fail_msg("'%s'", err);
    assert_int_equal(cpm_model_read_file("/", &cpm_hockney_kind, 0, &m, err, sizeof err), -1);
    if (!strstr(err, "folder"))
        fail_msg("'%s'", err);
}

static void escaped(const char *in, const char *want)
{
    char s[64];
    snprintf(s, sizeof s, "%s", in);
    cpm_escape_controls(s);
    if (strcmp(s, want) != 0)
        fail_msg("'%s' escaped to '%s', expected '%s'", in, s, want);
}

static void test_control_bytes_escaped(void **state)
{
    (void)state;
    escaped("a\x1b[2Jb", "a?[2Jb");
    escaped("a\x7f\x80\x9b\x9f" "b", "a????b");
    escaped("C1 as UTF-8: \xc2\x9b.", "C1 as UTF-8: ??.");
    const char *utf8 = "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    escaped(utf8, utf8);
    escaped("cut \xe2\x82", "cut ??");
    escaped("overlong \xc0\xaf, surrogate \xed\xa0\x80", "overlong ??, surrogate ???");
    escaped("\xa0\xff", "??");
    /* In the model reader's messages, raw and in UTF-8. */
    cpm_text_refused(&cpm_hockney_kind, "model Hockney\nprocesses 2\n0 1 1\x9b" "2 1e-9\n",
                     "'1?2' is not a finite number");
    cpm_text_refused(&cpm_hockney_kind, "model Hock\xc2\x9bney\nprocesses 2\n",
                     "the file holds a Hock??ney model");
    /* In the DOT reader's and the hierarchy's. */
    struct cpm_hier h;
    char err[300] = "";
    const char *dot =
        "digraph g {\n\"r\x9b\" [type=1, model_data=\"\"];\n\"r\x9b\" -> \"a\x85\";\n}";
    assert_int_equal(cpm_hier_parse(dot, strlen(dot), &h, err, sizeof err), -1);
    for (const unsigned char *c = (const unsigned char *)err; *c; c++)
        if (*c < 0x20 || *c >= 0x7f)
            fail_msg("byte 0x%02x in '%s'", *c, err);
    assert_non_null(strstr(err, "?"));
    const char *quoted = "digraph g \"h\x9b\" {\n";
    assert_int_equal(cpm_hier_parse(quoted, strlen(quoted), &h, err, sizeof err), -1);
    assert_non_null(strstr(err, "found 'h?'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cut_files_refused),
        cmocka_unit_test(test_hex_floats_refused),
        cmocka_unit_test(test_directory_named),
        cmocka_unit_test(test_control_bytes_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
