/* Unit tests of the CPM model reader's process count: a file for another
 * number of processes than expected is refused, naming both counts, before
 * anything is allocated for it; with no expectation the file's count holds. */
#include "unit.h"

#include "cpm_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpm/lib/cpm_hockney.h"
#include "../../cpm/lib/cpm_lininterp.h"
#include "../../cpm/lib/cpm_lmo.h"
#include "../../cpm/lib/cpm_plogp.h"

static void test_count_checked_first(void **state)
{
    (void)state;
    const struct cpm_model_kind *kinds[] = {&cpm_hockney_kind, &cpm_lininterp_kind,
                                            &cpm_plogp_kind, &cpm_loggp_kind, &cpm_lmo_kind};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char text[200], err[300] = "";
        /* 2^20 processes would need terabytes: refused at once. */
        snprintf(text, sizeof text, "model %s\nprocesses 1048576\n0 1 1 2\n",
                 kinds[k]->file_name);
        assert_int_equal(cpm_text_check(kinds[k], text, strlen(text), 4, err, sizeof err), -1);
        if (!strstr(err, "line 2: the file describes 1048576 processes, expected 4"))
            fail_msg("%s: '%s'", kinds[k]->name, err);
        snprintf(text, sizeof text, "model %s\nprocesses 2000000\n", kinds[k]->file_name);
        assert_int_equal(cpm_text_check(kinds[k], text, strlen(text), 4, err, sizeof err), -1);
        assert_non_null(strstr(err, "outside"));
    }
}

static void test_matching_count_read(void **state)
{
    (void)state;
    const char *good = "model Hockney\nprocesses 3\n0 1 1e-6 1e-9\n0 2 1e-6 1e-9\n1 2 1 0.5\n";
    char err[300] = "";
    assert_int_equal(cpm_text_check(&cpm_hockney_kind, good, strlen(good), 3, err, sizeof err), 0);
    assert_int_equal(cpm_text_check(&cpm_hockney_kind, good, strlen(good), 0, err, sizeof err), 0);
    assert_int_equal(cpm_text_check(&cpm_hockney_kind, good, strlen(good), 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "describes 3 processes, expected 2"));
}

static void test_file_names_path(void **state)
{
    (void)state;
    char path[] = "/tmp/cpm-reader-XXXXXX", err[400] = "";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("model PLogP\nprocesses 60000\npoints 1\nsizes 0\n", f);
    fclose(f);
    void *m = NULL;
    assert_int_equal(cpm_model_read_file(path, &cpm_plogp_kind, 4, &m, err, sizeof err), -1);
    remove(path);
    if (!strstr(err, path) || !strstr(err, "60000") || !strstr(err, "expected 4"))
        fail_msg("'%s'", err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_checked_first),
        cmocka_unit_test(test_matching_count_read),
        cmocka_unit_test(test_file_names_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
