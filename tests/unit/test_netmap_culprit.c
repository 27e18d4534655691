/* Unit tests of the culprit rule (netmap/culprit) on made-up maps: which
 * nodes and pairs it names, exactly, and the reference figures by hand. */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "../../netmap/culprit.h"

#define N 8

/* Small deterministic jitter in [-amp, amp] around base, diagonal 0 (which
 * the rule must ignore). */
static void fill(double *m, size_t n, double base, double amp)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            m[i * n + j] = i == j ? 0.0 : base + amp * (double)((int)((i * 5 + j * 3) % 7) - 3) / 3.0;
}

/* Node k's row and column (sender and receiver) at v. */
static void set_node(double *m, size_t n, size_t k, double v)
{
    for (size_t o = 0; o < n; o++)
        if (o != k)
            m[k * n + o] = m[o * n + k] = v;
}

struct want_node {
    size_t node;
    enum culprit_dir dir;
};

struct want_pair {
    size_t from, to;
};

static void expect_nodes(const struct culprit_findings *f, const struct want_node *w, size_t k)
{
    assert_int_equal(f->n_nodes, k);
    for (size_t i = 0; i < k; i++) {
        assert_int_equal(f->nodes[i].node, w[i].node);
        assert_int_equal(f->nodes[i].dir, w[i].dir);
    }
    if (k == 0)
        assert_null(f->nodes);
}

static void expect_pairs(const struct culprit_findings *f, const struct want_pair *w, size_t k)
{
    assert_int_equal(f->n_pairs, k);
    for (size_t i = 0; i < k; i++) {
        assert_int_equal(f->pairs[i].from, w[i].from);
        assert_int_equal(f->pairs[i].to, w[i].to);
    }
    if (k == 0)
        assert_null(f->pairs);
}

/* Every group judged, over count_nodes nodes a direction. */
static void expect_all_judged(const struct culprit_findings *f, size_t count_nodes)
{
    for (int d = 0; d < CULPRIT_NDIRS; d++) {
        assert_true(f->node_verdict[d].judged);
        assert_null(f->node_verdict[d].why_not);
        assert_int_equal(f->node_verdict[d].count, count_nodes);
    }
    assert_true(f->pair_verdict.judged);
    assert_null(f->pair_verdict.why_not);
}

/* A named node's figures agree with each other and with the verdict. */
static void check_node_figures(const struct culprit_findings *f, const struct culprit_node *c,
                               double median, enum culprit_sense sense)
{
    const struct culprit_verdict *v = &f->node_verdict[c->dir];
    assert_double_equal(c->median, median, 1e-12);
    assert_double_equal(c->ref, v->ref, 0);
    assert_double_equal(c->mad, v->mad, 0);
    double pct = sense == CULPRIT_HIGHER_BETTER ? 100 * (v->ref - median) / v->ref
                                                : 100 * (median - v->ref) / v->ref;
    assert_double_equal(c->worse_pct, pct, 1e-9);
}

static void test_node_stats_by_hand(void **state)
{
    (void)state;
    const double m[16] = {
        999, 2,   4,   7,   /* node 0 sends 2 4 7 */
        5,   999, NAN, 1,   /* node 1 sends 5 1 */
        NAN, 6,   999, 3,   /* node 2 sends 6 3 */
        NAN, NAN, 8,   999, /* node 3 sends 8 */
    };
    struct culprit_node_stats s;
    assert_int_equal(culprit_node_stats(m, 4, 0, CULPRIT_SEND, &s), 0);
    assert_int_equal(s.count, 3);
    assert_double_equal(s.min, 2, 0);
    assert_double_equal(s.median, 4, 0);
    assert_double_equal(s.max, 7, 0); /* not the diagonal's 999 */
    assert_int_equal(culprit_node_stats(m, 4, 1, CULPRIT_SEND, &s), 0);
    assert_int_equal(s.count, 2);
    assert_double_equal(s.min, 1, 0);
    assert_double_equal(s.median, 3, 0);
    assert_double_equal(s.max, 5, 0);
    /* column 3: 7 1 3 */
    assert_int_equal(culprit_node_stats(m, 4, 3, CULPRIT_RECV, &s), 0);
    assert_int_equal(s.count, 3);
    assert_double_equal(s.min, 1, 0);
    assert_double_equal(s.median, 3, 0);
    assert_double_equal(s.max, 7, 0);
    /* column 2: 4 and 8 around a missing one */
    assert_int_equal(culprit_node_stats(m, 4, 2, CULPRIT_RECV, &s), 0);
    assert_int_equal(s.count, 2);
    assert_double_equal(s.median, 6, 0);
    /* column 0: 5 alone */
    assert_int_equal(culprit_node_stats(m, 4, 0, CULPRIT_RECV, &s), 0);
    assert_int_equal(s.count, 1);
    assert_double_equal(s.min, 5, 0);
    assert_double_equal(s.median, 5, 0);
    assert_double_equal(s.max, 5, 0);

    const double none[4] = {1, NAN, NAN, 1};
    assert_int_equal(culprit_node_stats(none, 2, 1, CULPRIT_SEND, &s), 0);
    assert_int_equal(s.count, 0);
    assert_true(isnan(s.median));
    errno = 0;
    assert_int_equal(culprit_node_stats(m, 4, 4, CULPRIT_SEND, &s), -1);
    assert_int_equal(errno, EINVAL);
}

/* Rows of constant figures r = 100 102 98 101 60 (diagonal 0).
 * Send medians are r: M = 100, |x - M| = 0 2 2 1 40, MAD = 2; node 4's 60
 * lies below 100 - 3 * 2 and below 90: named, 40% worse. Receive medians
 * (median of the other rows): 99.5 99 100.5 99 100.5: M = 99.5, MAD 0.5,
 * nobody below 98. Pairs without node 4: 98 100 101 102 three times each,
 * M = 100.5, deviations 0.5 (6), 1.5 (3), 2.5 (3): MAD 1; 98 is not below
 * 97.5. */
static void test_reference_figures_by_hand(void **state)
{
    (void)state;
    const double r[5] = {100, 102, 98, 101, 60};
    double m[25];
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++)
            m[i * 5 + j] = i == j ? 0 : r[i];
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, 5, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, 5);
    const struct want_node w[] = {{4, CULPRIT_SEND}};
    expect_nodes(&f, w, 1);
    expect_pairs(&f, NULL, 0);
    assert_double_equal(f.nodes[0].median, 60, 0);
    assert_double_equal(f.nodes[0].ref, 100, 0);
    assert_double_equal(f.nodes[0].mad, 2, 0);
    assert_double_equal(f.nodes[0].worse_pct, 40, 1e-12);
    assert_double_equal(f.node_verdict[CULPRIT_RECV].ref, 99.5, 0);
    assert_double_equal(f.node_verdict[CULPRIT_RECV].mad, 0.5, 0);
    assert_int_equal(f.pair_verdict.count, 12);
    assert_double_equal(f.pair_verdict.ref, 100.5, 0);
    assert_double_equal(f.pair_verdict.mad, 1, 0);
    culprit_free(&f);
    assert_null(f.nodes);

    /* Without the fraction the MADs alone decide: 3 of them still keep the
     * 98 sender (above 94) and the 99 receivers (above 98) unnamed, half a
     * MAD does not (below 99 and 99.25). That leaves node 0 alone, too few
     * pairs to judge. */
    const struct culprit_rule three = {3, 0}, half = {0.5, 0};
    /* 60 is exactly 20 MADs below 100, which is not more than 20 */
    const struct culprit_rule twenty = {20, 0.1}, below_twenty = {19.5, 0.1};
    assert_int_equal(culprit_find(m, 5, CULPRIT_HIGHER_BETTER, &twenty, &f), 0);
    expect_nodes(&f, NULL, 0);
    culprit_free(&f);
    assert_int_equal(culprit_find(m, 5, CULPRIT_HIGHER_BETTER, &below_twenty, &f), 0);
    expect_nodes(&f, w, 1);
    culprit_free(&f);
    assert_int_equal(culprit_find(m, 5, CULPRIT_HIGHER_BETTER, &three, &f), 0);
    expect_nodes(&f, w, 1);
    culprit_free(&f);
    assert_int_equal(culprit_find(m, 5, CULPRIT_HIGHER_BETTER, &half, &f), 0);
    const struct want_node w_half[] = {
        {1, CULPRIT_RECV}, {2, CULPRIT_SEND}, {3, CULPRIT_RECV}, {4, CULPRIT_SEND}};
    expect_nodes(&f, w_half, 4);
    assert_double_equal(f.nodes[1].worse_pct, 2, 1e-12);
    assert_double_equal(f.nodes[2].worse_pct, 100 * 0.5 / 99.5, 1e-12);
    assert_false(f.pair_verdict.judged);
    assert_int_equal(f.pair_verdict.count, 0);
    assert_non_null(f.pair_verdict.why_not);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);
}

static void test_one_bad_node(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    set_node(m, N, 3, 25);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    const struct want_node w[] = {{3, CULPRIT_SEND}, {3, CULPRIT_RECV}};
    expect_nodes(&f, w, 2);
    /* node 3's entries explain themselves: no pair, and the pairs weighed
     * are the 7 x 6 between the others */
    expect_pairs(&f, NULL, 0);
    assert_int_equal(f.pair_verdict.count, 7 * 6);
    for (size_t i = 0; i < 2; i++) {
        check_node_figures(&f, &f.nodes[i], 25, CULPRIT_HIGHER_BETTER);
        assert_true(f.nodes[i].ref >= 99 && f.nodes[i].ref <= 101);
        assert_true(f.nodes[i].mad < 1);
        assert_true(f.nodes[i].worse_pct > 74 && f.nodes[i].worse_pct < 76);
    }
    culprit_free(&f);
}

static void test_one_bad_pair(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    m[5 * N + 2] = m[2 * N + 5] = 30;
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    expect_nodes(&f, NULL, 0);
    const struct want_pair w[] = {{2, 5}, {5, 2}};
    expect_pairs(&f, w, 2);
    assert_int_equal(f.pair_verdict.count, N * (N - 1));
    for (size_t i = 0; i < 2; i++) {
        const struct culprit_pair *p = &f.pairs[i];
        assert_double_equal(p->value, 30, 0);
        assert_double_equal(p->ref, f.pair_verdict.ref, 0);
        assert_double_equal(p->mad, f.pair_verdict.mad, 0);
        assert_true(p->ref >= 99 && p->ref <= 101);
        assert_double_equal(p->worse_pct, 100 * (p->ref - 30) / p->ref, 1e-9);
    }
    culprit_free(&f);
}

static void test_two_bad_nodes(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    set_node(m, N, 6, 25);
    set_node(m, N, 1, 25);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    const struct want_node w[] = {
        {1, CULPRIT_SEND}, {1, CULPRIT_RECV}, {6, CULPRIT_SEND}, {6, CULPRIT_RECV}};
    expect_nodes(&f, w, 4);
    expect_pairs(&f, NULL, 0);
    assert_int_equal(f.pair_verdict.count, 6 * 5);
    culprit_free(&f);
}

static void test_jitter_only(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    assert_true(f.pair_verdict.mad > 0);
    culprit_free(&f);
    assert_int_equal(culprit_find(m, N, CULPRIT_LOWER_BETTER, NULL, &f), 0);
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);
}

static void test_all_equal(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 0);
    struct culprit_findings f;
    for (int s = 0; s < 2; s++) {
        assert_int_equal(culprit_find(m, N, (enum culprit_sense)s, NULL, &f), 0);
        expect_all_judged(&f, N);
        expect_nodes(&f, NULL, 0);
        expect_pairs(&f, NULL, 0);
        assert_double_equal(f.node_verdict[CULPRIT_SEND].mad, 0, 0);
        assert_double_equal(f.pair_verdict.ref, 100, 0);
        assert_double_equal(f.pair_verdict.mad, 0, 0);
        culprit_free(&f);
    }
}

/* MAD 0: the fraction alone decides, and half the figure is far enough. */
static void test_mad_zero_fraction_decides(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 0);
    set_node(m, N, 3, 50);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    const struct want_node w[] = {{3, CULPRIT_SEND}, {3, CULPRIT_RECV}};
    expect_nodes(&f, w, 2);
    expect_pairs(&f, NULL, 0);
    for (size_t i = 0; i < 2; i++) {
        assert_double_equal(f.nodes[i].mad, 0, 0);
        assert_double_equal(f.nodes[i].ref, 100, 0);
        assert_double_equal(f.nodes[i].worse_pct, 50, 1e-12);
    }
    culprit_free(&f);
    /* 50% worse is not more than a fraction 0.5 */
    const struct culprit_rule half = {3, 0.5};
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, &half, &f), 0);
    expect_nodes(&f, NULL, 0);
    culprit_free(&f);
}

static void test_missing_entries(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    set_node(m, N, 2, 25);
    set_node(m, N, 6, NAN); /* never measured */
    m[0 * N + 1] = m[4 * N + 2] = m[7 * N + 3] = m[3 * N + 0] = NAN;
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N - 1);
    const struct want_node w[] = {{2, CULPRIT_SEND}, {2, CULPRIT_RECV}};
    expect_nodes(&f, w, 2);
    expect_pairs(&f, NULL, 0);
    check_node_figures(&f, &f.nodes[0], 25, CULPRIT_HIGHER_BETTER);
    check_node_figures(&f, &f.nodes[1], 25, CULPRIT_HIGHER_BETTER);
    /* 6 nodes neither named nor unmeasured, less the 3 holes among them */
    assert_int_equal(f.pair_verdict.count, 6 * 5 - 3);
    culprit_free(&f);

    struct culprit_node_stats s;
    for (int d = 0; d < CULPRIT_NDIRS; d++) {
        assert_int_equal(culprit_node_stats(m, N, 6, (enum culprit_dir)d, &s), 0);
        assert_int_equal(s.count, 0);
    }
    /* column 2 without 4 (a hole) and 6 */
    assert_int_equal(culprit_node_stats(m, N, 2, CULPRIT_RECV, &s), 0);
    assert_int_equal(s.count, 5);
    assert_double_equal(s.median, 25, 0);
}

static void test_latency_slow_node(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 2.0, 0.02);
    set_node(m, N, 5, 6.0);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_LOWER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    const struct want_node w[] = {{5, CULPRIT_SEND}, {5, CULPRIT_RECV}};
    expect_nodes(&f, w, 2);
    expect_pairs(&f, NULL, 0);
    for (size_t i = 0; i < 2; i++) {
        check_node_figures(&f, &f.nodes[i], 6.0, CULPRIT_LOWER_BETTER);
        assert_true(f.nodes[i].ref >= 1.98 && f.nodes[i].ref <= 2.02);
        assert_true(f.nodes[i].worse_pct > 195 && f.nodes[i].worse_pct < 205);
    }
    culprit_free(&f);
}

/* Lower better, rows of constant figures 2 2.5 1.5 2 6: send medians have
 * M = 2 and MAD 0.5, so 6 lies exactly 8 MADs above (not more than 8) and
 * 7.5 MADs are passed; the receive medians 2.25 2 2.25 2.25 2 (MAD 0) are
 * within 10%. Constant rows 2 2 2 2 3: MAD 0, and 3 is 50% above 2, which
 * is not more than a fraction 0.5. */
static void test_latency_bounds_by_hand(void **state)
{
    (void)state;
    const double r[5] = {2, 2.5, 1.5, 2, 6}, flat[5] = {2, 2, 2, 2, 3};
    double m[25], mf[25];
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 5; j++) {
            m[i * 5 + j] = i == j ? 0 : r[i];
            mf[i * 5 + j] = i == j ? 0 : flat[i];
        }
    const struct culprit_rule eight = {8, 0.1}, seven_half = {7.5, 0.1}, half = {3, 0.5};
    const struct want_node w[] = {{4, CULPRIT_SEND}};
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, 5, CULPRIT_LOWER_BETTER, &eight, &f), 0);
    assert_double_equal(f.node_verdict[CULPRIT_SEND].ref, 2, 0);
    assert_double_equal(f.node_verdict[CULPRIT_SEND].mad, 0.5, 0);
    assert_double_equal(f.node_verdict[CULPRIT_RECV].ref, 2.25, 0);
    assert_double_equal(f.node_verdict[CULPRIT_RECV].mad, 0, 0);
    expect_nodes(&f, NULL, 0);
    culprit_free(&f);
    assert_int_equal(culprit_find(m, 5, CULPRIT_LOWER_BETTER, &seven_half, &f), 0);
    expect_nodes(&f, w, 1);
    assert_double_equal(f.nodes[0].worse_pct, 200, 1e-12);
    culprit_free(&f);
    assert_int_equal(culprit_find(mf, 5, CULPRIT_LOWER_BETTER, NULL, &f), 0);
    expect_nodes(&f, w, 1);
    assert_double_equal(f.nodes[0].worse_pct, 50, 1e-12);
    culprit_free(&f);
    assert_int_equal(culprit_find(mf, 5, CULPRIT_LOWER_BETTER, &half, &f), 0);
    expect_nodes(&f, NULL, 0);
    culprit_free(&f);
}

/* A node that is low on a map where lower is better is a fast one. */
static void test_sense_matters(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    set_node(m, N, 3, 25);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_LOWER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);
}

static void test_fewer_than_4_nodes(void **state)
{
    (void)state;
    struct culprit_findings f;
    /* 3 nodes, node 0 at 25: no direction judged; pairs are (6 entries,
     * 4 of them at 25, so M is 25 and nothing is worse) */
    double m3[9];
    fill(m3, 3, 100, 0);
    set_node(m3, 3, 0, 25);
    assert_int_equal(culprit_find(m3, 3, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    for (int d = 0; d < CULPRIT_NDIRS; d++) {
        assert_false(f.node_verdict[d].judged);
        assert_non_null(f.node_verdict[d].why_not);
        assert_non_null(strstr(f.node_verdict[d].why_not, "fewer than 4 nodes"));
        assert_int_equal(f.node_verdict[d].count, 3);
        assert_true(isnan(f.node_verdict[d].ref));
    }
    expect_nodes(&f, NULL, 0);
    assert_true(f.pair_verdict.judged);
    assert_int_equal(f.pair_verdict.count, 6);
    assert_double_equal(f.pair_verdict.ref, 25, 0);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);

    /* 4 nodes, one never measured: 3 with figures */
    double m4[16];
    fill(m4, 4, 100, 0);
    set_node(m4, 4, 1, 40);
    set_node(m4, 4, 3, NAN);
    assert_int_equal(culprit_find(m4, 4, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    for (int d = 0; d < CULPRIT_NDIRS; d++) {
        assert_false(f.node_verdict[d].judged);
        assert_int_equal(f.node_verdict[d].count, 3);
    }
    expect_nodes(&f, NULL, 0);
    culprit_free(&f);

    /* 2 nodes: 2 entries, too few for pairs as well */
    double m2[4] = {0, 10, 100, 0};
    assert_int_equal(culprit_find(m2, 2, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    assert_false(f.node_verdict[CULPRIT_SEND].judged);
    assert_false(f.pair_verdict.judged);
    assert_int_equal(f.pair_verdict.count, 2);
    assert_non_null(f.pair_verdict.why_not);
    assert_non_null(strstr(f.pair_verdict.why_not, "fewer than 4"));
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);

    /* no nodes at all */
    assert_int_equal(culprit_find(NULL, 0, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    assert_false(f.node_verdict[CULPRIT_RECV].judged);
    assert_false(f.pair_verdict.judged);
    culprit_free(&f);
}

static void test_receiver_only(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    for (size_t i = 0; i < N; i++)
        if (i != 4)
            m[i * N + 4] = 40;
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    const struct want_node w[] = {{4, CULPRIT_RECV}};
    expect_nodes(&f, w, 1);
    check_node_figures(&f, &f.nodes[0], 40, CULPRIT_HIGHER_BETTER);
    /* named as receiver only, node 4 still leaves the pairs (its sends too) */
    expect_pairs(&f, NULL, 0);
    assert_int_equal(f.pair_verdict.count, 7 * 6);
    culprit_free(&f);
}

/* 5% below a tight crowd (MAD 0 among the senders here): far beyond 3
 * MADs, but short of 10%. */
static void test_min_worse_fraction(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 0.3);
    set_node(m, N, 5, 95);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, NULL, &f), 0);
    expect_all_judged(&f, N);
    assert_true(f.node_verdict[CULPRIT_SEND].mad < 0.3);
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    culprit_free(&f);

    const struct culprit_rule loose = {3.0, 0.03};
    assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, &loose, &f), 0);
    const struct want_node w[] = {{5, CULPRIT_SEND}, {5, CULPRIT_RECV}};
    expect_nodes(&f, w, 2);
    expect_pairs(&f, NULL, 0);
    assert_true(f.nodes[0].worse_pct > 4.5 && f.nodes[0].worse_pct < 5.5);
    culprit_free(&f);
}

static void test_bad_rule(void **state)
{
    (void)state;
    double m[N * N];
    fill(m, N, 100, 1);
    struct culprit_findings f;
    const struct culprit_rule bad[] = {{-1, 0.1}, {3, -0.1}, {3, 1.0}, {NAN, 0.1}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        errno = 0;
        assert_int_equal(culprit_find(m, N, CULPRIT_HIGHER_BETTER, &bad[i], &f), -1);
        assert_int_equal(errno, EINVAL);
        assert_int_equal(f.n_nodes, 0);
        assert_null(f.pairs);
        culprit_free(&f);
    }
    errno = 0;
    assert_int_equal(culprit_find(NULL, 3, CULPRIT_HIGHER_BETTER, NULL, &f), -1);
    assert_int_equal(errno, EINVAL);
}

/* A fabric of 12 nodes: switches of 4 (0-3, 4-7, 8-11), the first two
 * switches one group, the third another. Latency without noise: 1 us on a
 * switch, 2 us in a group, 3 us across groups (MAD 0 in every class). */
static unsigned twelve_class(size_t a, size_t b, const void *ctx)
{
    (void)ctx;
    size_t sa = a / 4, sb = b / 4;
    if (sa == sb)
        return 0;
    return (sa < 2) == (sb < 2) ? 1 : 2;
}

static void fill_classes(double *m, size_t n, const double *by_class)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            m[i * n + j] = i == j ? 0 : by_class[twelve_class(i, j, NULL)];
}

/* The plain rule names the nodes whose partners are further away on
 * average (the third switch: 8 of its 11 partners across groups): what
 * the classes are for. */
static void test_distances_fool_the_plain_rule(void **state)
{
    (void)state;
    double m[144], lat[3] = {1, 2, 3};
    fill_classes(m, 12, lat);
    struct culprit_findings f;
    assert_int_equal(culprit_find(m, 12, CULPRIT_LOWER_BETTER, NULL, &f), 0);
    assert_true(f.n_nodes + f.n_pairs > 0);
    culprit_free(&f);
}

/* MAD 0 in every class, classes 1, 2 and 3 us apart: with the classes,
 * every ratio is 1 and nobody is named. */
static void test_classes_without_noise(void **state)
{
    (void)state;
    double m[144], lat[3] = {1, 2, 3};
    fill_classes(m, 12, lat);
    struct culprit_findings f;
    assert_int_equal(culprit_find_classed(m, 12, CULPRIT_LOWER_BETTER, NULL, twelve_class, NULL,
                                          3, &f), 0);
    assert_true(f.classed);
    assert_double_equal(f.class_ref[0], 1, 0);
    assert_double_equal(f.class_ref[1], 2, 0);
    assert_double_equal(f.class_ref[2], 3, 0);
    assert_int_equal(f.class_count[0], 12 * 3);
    assert_int_equal(f.class_count[1], 8 * 4);
    assert_int_equal(f.class_count[2], 2 * 8 * 4);
    expect_nodes(&f, NULL, 0);
    expect_pairs(&f, NULL, 0);
    assert_double_equal(f.node_verdict[CULPRIT_SEND].mad, 0, 0);
    culprit_free(&f);
}

/* With classes and MAD 0, a node 50% slower with every partner is named
 * (the fraction decides), and a pair 30% slower than its class. */
static void test_classes_still_find_faults(void **state)
{
    (void)state;
    double m[144], lat[3] = {1, 2, 3};
    fill_classes(m, 12, lat);
    for (size_t o = 0; o < 12; o++)
        if (o != 9) {
            m[9 * 12 + o] *= 1.5;
            m[o * 12 + 9] *= 1.5;
        }
    m[1 * 12 + 5] = 2.6; /* same group: 2 us */
    struct culprit_findings f;
    assert_int_equal(culprit_find_classed(m, 12, CULPRIT_LOWER_BETTER, NULL, twelve_class, NULL,
                                          3, &f), 0);
    const struct want_node nodes[] = {{9, CULPRIT_SEND}, {9, CULPRIT_RECV}};
    expect_nodes(&f, nodes, 2);
    const struct want_pair pairs[] = {{1, 5}};
    expect_pairs(&f, pairs, 1);
    assert_double_equal(f.nodes[0].median, 1.5, 1e-12);
    assert_double_equal(f.pairs[0].value, 1.3, 1e-12);
    culprit_free(&f);
}

static void test_classes_bad_input(void **state)
{
    (void)state;
    double m[144] = {0};
    struct culprit_findings f;
    errno = 0;
    assert_int_equal(culprit_find_classed(m, 12, CULPRIT_LOWER_BETTER, NULL, NULL, NULL, 3, &f), -1);
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_int_equal(culprit_find_classed(m, 12, CULPRIT_LOWER_BETTER, NULL, twelve_class, NULL,
                                          CULPRIT_MAX_CLASSES + 1, &f), -1);
    assert_int_equal(errno, EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_stats_by_hand),
        cmocka_unit_test(test_reference_figures_by_hand),
        cmocka_unit_test(test_one_bad_node),
        cmocka_unit_test(test_one_bad_pair),
        cmocka_unit_test(test_two_bad_nodes),
        cmocka_unit_test(test_jitter_only),
        cmocka_unit_test(test_all_equal),
        cmocka_unit_test(test_mad_zero_fraction_decides),
        cmocka_unit_test(test_missing_entries),
        cmocka_unit_test(test_latency_slow_node),
        cmocka_unit_test(test_latency_bounds_by_hand),
        cmocka_unit_test(test_sense_matters),
        cmocka_unit_test(test_fewer_than_4_nodes),
        cmocka_unit_test(test_receiver_only),
        cmocka_unit_test(test_min_worse_fraction),
        cmocka_unit_test(test_bad_rule),
        cmocka_unit_test(test_distances_fool_the_plain_rule),
        cmocka_unit_test(test_classes_without_noise),
        cmocka_unit_test(test_classes_still_find_faults),
        cmocka_unit_test(test_classes_bad_input),
    };
    return cmocka_run_group_tests_name("netmap_culprit", tests, NULL, NULL);
}
