/* Unit tests of the rounds of the CPM one-to-two experiments: serial round t
 * is triplet t; parallel rounds hold disjoint triplets, every triplet has
 * exactly one round, the choice is the greedy one in index order, and
 * deciding the rounds of 64 processes takes no noticeable time. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../cpm/lib/cpm_measure.h"

static void test_serial_round_is_triplet(void **state)
{
    (void)state;
    struct cpm_triplet_rounds s;
    size_t round[4];
    assert_int_equal(cpm_triplet_rounds_init(&s, 7, false), 0);
    for (size_t t = 0; t < cpm_triplets(7); t++) {
        assert_int_equal(cpm_triplet_round(&s, round), 1);
        assert_int_equal(round[0], t);
    }
    assert_int_equal(cpm_triplet_round(&s, round), 0);
    cpm_triplet_rounds_free(&s);
}

/* The plain greedy choice: scan every triplet in index order. */
static size_t reference_round(int n, char *done, size_t *round)
{
    char busy[64] = {0};
    size_t taken = 0;
    for (size_t t = 0; t < cpm_triplets(n); t++) {
        int v[3];
        cpm_triplet_at(n, t, &v[0], &v[1], &v[2]);
        if (done[t] || busy[v[0]] || busy[v[1]] || busy[v[2]])
            continue;
        done[t] = 1;
        busy[v[0]] = busy[v[1]] = busy[v[2]] = 1;
        round[taken++] = t;
    }
    return taken;
}

static void test_parallel_rounds(void **state)
{
    (void)state;
    for (int n = 3; n <= 13; n++) {
        size_t count = cpm_triplets(n), seen = 0;
        char *had = calloc(count, 1), *done = calloc(count, 1);
        size_t round[8], want[8];
        struct cpm_triplet_rounds s;
        assert_int_equal(cpm_triplet_rounds_init(&s, n, true), 0);
        size_t taken;
        while ((taken = cpm_triplet_round(&s, round)) > 0) {
            assert_true(taken <= (size_t)n / 3);
            assert_int_equal(reference_round(n, done, want), taken);
            char busy[16] = {0};
            for (size_t k = 0; k < taken; k++) {
                assert_int_equal(round[k], want[k]);
                int v[3];
                cpm_triplet_at(n, round[k], &v[0], &v[1], &v[2]);
                for (int r = 0; r < 3; r++) {
                    assert_false(busy[v[r]]);
                    busy[v[r]] = 1;
                }
                assert_false(had[round[k]]);
                had[round[k]] = 1;
                seen++;
            }
        }
        assert_int_equal(seen, count);
        assert_int_equal(reference_round(n, done, want), 0);
        cpm_triplet_rounds_free(&s);
        free(had);
        free(done);
    }
}

static void test_rounds_are_cheap(void **state)
{
    (void)state;
    for (int parallel = 0; parallel < 2; parallel++) {
        struct cpm_triplet_rounds s;
        size_t round[64 / 3], total = 0, taken;
        clock_t start = clock();
        assert_int_equal(cpm_triplet_rounds_init(&s, 64, parallel), 0);
        while ((taken = cpm_triplet_round(&s, round)) > 0)
            total += taken;
        double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
        cpm_triplet_rounds_free(&s);
        assert_int_equal(total, cpm_triplets(64));
        if (seconds > 1.0)
            fail_msg("the rounds of 64 processes took %.2f s of CPU", seconds);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serial_round_is_triplet),
        cmocka_unit_test(test_parallel_rounds),
        cmocka_unit_test(test_rounds_are_cheap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
