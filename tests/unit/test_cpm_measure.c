/* Unit tests of the CPM measurement logic that needs no MPI: the
 * confidence-interval stopping rule, the warm-up rule, regular and adaptive
 * message sets, the pair and triplet numbering, the round-robin schedule
 * and the breakpoint search. */
#include "unit.h"

#include <math.h>
#include <stdlib.h>

#include "../../cpm/lib/cpm_breakpoint.h"
#include "../../cpm/lib/cpm_measure.h"

static void test_stopping_rule(void **state)
{
    (void)state;
    struct cpm_precision p = {5, 100, 0.95, 0.025};
    const double same[] = {1, 1, 1, 1, 1, 1};
    assert_false(cpm_precision_reached(&p, same, 4)); /* below min_reps */
    assert_true(cpm_precision_reached(&p, same, 5));
    /* Mean 1, sd 0.1, n = 5: t(0.975, 4) 0.1 / sqrt 5 = 0.124 > 0.025. */
    const double spread[] = {0.9, 1.1, 0.9, 1.1, 1.0};
    assert_false(cpm_precision_reached(&p, spread, 5));
    /* The half-width shrinks with n: 400 such samples are enough
     * (t 0.1 / 20 = 0.0098 < 0.025) when max_reps allows them. */
    struct cpm_precision wide = {5, 1000, 0.95, 0.025};
    double *many = malloc(400 * sizeof *many);
    for (int k = 0; k < 400; k++)
        many[k] = k % 2 ? 1.1 : 0.9;
    assert_false(cpm_precision_reached(&wide, many, 10));
    assert_true(cpm_precision_reached(&wide, many, 400));
    free(many);
    /* max_reps ends it whatever the spread; min == max is a fixed count. */
    struct cpm_precision fixed = {3, 3, 0.95, 0.025};
    assert_false(cpm_precision_reached(&fixed, spread, 2));
    assert_true(cpm_precision_reached(&fixed, spread, 3));
    /* The sampler applies the same rule as samples come in. */
    struct cpm_sampler s;
    cpm_sampler_init(&s, &p);
    int n = 0;
    while (!cpm_sampler_add(&s, 2.0))
        n++;
    assert_int_equal(n + 1, 5);
    struct cpm_result r;
    cpm_sampler_result(&s, 64, &r);
    assert_int_equal(r.reps, 5);
    assert_int_equal(r.size, 64);
    assert_double_equal(r.time, 2.0, 1e-15);
    assert_double_equal(r.ci, 0.0, 1e-15);
    cpm_sampler_free(&s);
    char err[100];
    struct cpm_precision bad = {5, 4, 0.95, 0.025};
    assert_int_equal(cpm_precision_check(&bad, err, sizeof err), -1);
    bad = (struct cpm_precision){5, 10, 1.5, 0.025};
    assert_int_equal(cpm_precision_check(&bad, err, sizeof err), -1);
}

/* The warm-up rule: at least the minimum, then on while both the count
 * and the time allow, never past the count. */
static void test_warmup_rule(void **state)
{
    (void)state;
    assert_true(CPM_WARMUP_MIN_REPS >= 1);
    assert_true(cpm_warmup_more(0, 0.0));
    assert_true(cpm_warmup_more(0, 10.0)); /* a long first one still warms up */
    assert_true(cpm_warmup_more(CPM_WARMUP_MIN_REPS, 0.0));
    assert_false(cpm_warmup_more(CPM_WARMUP_MIN_REPS, CPM_WARMUP_SECONDS));
    assert_true(cpm_warmup_more(CPM_WARMUP_MAX_REPS - 1, CPM_WARMUP_SECONDS / 2));
    assert_false(cpm_warmup_more(CPM_WARMUP_MAX_REPS, 0.0));
    /* Repetitions of 10 us: the count ends it; of 300 us: the time, at the
     * first that ends past CPM_WARMUP_SECONDS. */
    size_t fast = 0, slow = 0;
    while (cpm_warmup_more(fast, 1e-5 * (double)fast))
        fast++;
    while (cpm_warmup_more(slow, 3e-4 * (double)slow))
        slow++;
    assert_int_equal(fast, CPM_WARMUP_MAX_REPS);
    assert_int_equal(slow, (size_t)ceil(CPM_WARMUP_SECONDS / 3e-4));
}

/* Walks a message set against a synthetic curve; returns the count. */
static size_t walk(const struct cpm_msgset *m, double (*f)(double), size_t *sizes)
{
    struct cpm_msgset_walk w;
    cpm_msgset_walk_init(&w, m);
    size_t size;
    while (cpm_msgset_walk_next(&w, &size))
        cpm_msgset_walk_record(&w, size, f((double)size));
    size_t count = w.count;
    for (size_t k = 0; k < count; k++)
        sizes[k] = w.sizes[k];
    cpm_msgset_walk_free(&w);
    return count;
}

static double kinked(double x) { return x < 50000 ? 10 + 0.001 * x : 60 + 0.01 * (x - 50000); }
static double straight(double x) { return 5 + 0.002 * x; }

static void test_regular_msgset(void **state)
{
    (void)state;
    struct cpm_msgset m = {0, 10, 4, 0.1, 1, 100, false};
    size_t sizes[100] = {0};
    /* min + k stride below max, then max itself */
    assert_int_equal(walk(&m, straight, sizes), 4);
    assert_int_equal(sizes[0], 0);
    assert_int_equal(sizes[1], 4);
    assert_int_equal(sizes[2], 8);
    assert_int_equal(sizes[3], 10);
    m.max_num = 2;
    assert_int_equal(walk(&m, straight, sizes), 2);
}

static void test_adaptive_msgset_finds_kink(void **state)
{
    (void)state;
    struct cpm_msgset m = {0, 200000, 0, 0.02, 256, 100, false};
    size_t sizes[100] = {0};
    size_t count = walk(&m, kinked, sizes);
    assert_true(count >= 4);
    assert_int_equal(sizes[0], 0);
    assert_int_equal(sizes[count - 1], 200000);
    size_t near = 0, far = 0;
    for (size_t k = 0; k < count; k++) {
        if (k > 0)
            assert_true(sizes[k] > sizes[k - 1]);
        if (sizes[k] >= 45000 && sizes[k] <= 55000)
            near++;
        if (sizes[k] >= 145000 && sizes[k] <= 155000)
            far++;
    }
    if (!(near > far && near >= 2))
        fail_msg("%zu sizes near the kink, %zu as far away from it", near, far);
    /* A straight line needs few points: the stride keeps doubling. */
    size_t line = walk(&m, straight, sizes);
    assert_true(line < count);
    assert_true(line <= 12);
}

static void test_pair_and_triplet_numbering(void **state)
{
    (void)state;
    for (int n = 2; n <= 41; n++) {
        size_t expect = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                assert_int_equal(cpm_pair_index(n, i, j), expect);
                assert_int_equal(cpm_pair_index(n, j, i), expect);
                int a, b;
                cpm_pair_at(n, expect, &a, &b);
                assert_int_equal(a, i);
                assert_int_equal(b, j);
                expect++;
            }
        assert_int_equal(cpm_pairs(n), expect);
        size_t t = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int k = j + 1; k < n; k++) {
                    assert_int_equal(cpm_triplet_index(n, i, j, k), t);
                    int a, b, c;
                    cpm_triplet_at(n, t, &a, &b, &c);
                    assert_true(a == i && b == j && c == k);
                    t++;
                }
        assert_int_equal(cpm_triplets(n), t);
    }
}

static void test_round_robin_schedule(void **state)
{
    (void)state;
    for (int n = 2; n <= 9; n++) {
        int *met = calloc((size_t)(n * n), sizeof *met);
        int rounds = cpm_schedule_rounds(n);
        assert_int_equal(rounds, n % 2 ? n : n - 1);
        for (int r = 0; r < rounds; r++) {
            int byes = 0;
            for (int x = 0; x < n; x++) {
                int y = cpm_schedule_partner(n, r, x);
                if (y < 0) {
                    byes++;
                    continue;
                }
                assert_true(y != x && y < n);
                assert_int_equal(cpm_schedule_partner(n, r, y), x);
                met[x * n + y]++;
            }
            assert_int_equal(byes, n % 2);
        }
        for (int x = 0; x < n; x++)
            for (int y = 0; y < n; y++)
                assert_int_equal(met[x * n + y], x == y ? 0 : 1);
        free(met);
    }
}

static void test_breakpoint_found(void **state)
{
    (void)state;
    enum { N = 20 };
    double x[N], y[N], line[N];
    for (int k = 0; k < N; k++) {
        double noise = 0.01 * ((k * 7) % 5 - 2);
        x[k] = 1024.0 * k;
        y[k] = (k < 12 ? 1 + 0.5 * k : 9 + 3.0 * (k - 12)) + noise;
        line[k] = 2 + 0.25 * k + noise;
    }
    struct cpm_break b;
    assert_int_equal(cpm_breakpoint_search(x, y, N, 2, 0.01, &b), 0);
    assert_true(b.found);
    assert_int_equal(b.index, 12);
    assert_double_equal(b.x, 12 * 1024.0, 0);
    assert_double_equal(b.left[1], 0.5 / 1024, 0.01 / 1024);
    assert_double_equal(b.right[1], 3.0 / 1024, 0.01 / 1024);
    assert_true(b.p_value < 0.01);
    assert_int_equal(cpm_breakpoint_search(x, line, N, 2, 0.01, &b), 0);
    assert_false(b.found);
    assert_double_equal(b.left[1], 0.25 / 1024, 0.01 / 1024);
    /* Too few points to test: the single line, no break. */
    assert_int_equal(cpm_breakpoint_search(x, y, 3, 2, 0.01, &b), -1);
    assert_false(b.found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stopping_rule),
        cmocka_unit_test(test_warmup_rule),
        cmocka_unit_test(test_regular_msgset),
        cmocka_unit_test(test_adaptive_msgset_finds_kink),
        cmocka_unit_test(test_pair_and_triplet_numbering),
        cmocka_unit_test(test_round_robin_schedule),
        cmocka_unit_test(test_breakpoint_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
