/* Unit tests of netmap/locate's parts without MPI: topology files and host
 * lists (fabric), the screening's matchings (plan), the class references
 * and suspects (judge), and the search (pinpoint) on a made-up fabric
 * whose faults are known. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../netmap/fabric.h"
#include "../../netmap/judge.h"
#include "../../netmap/pinpoint.h"
#include "../../netmap/plan.h"

/* ---------------------------------------------------------------- fabric */

struct names {
    char list[64][FABRIC_NAME_LEN];
    size_t n;
};

static int collect(const char *name, void *arg)
{
    struct names *s = arg;
    if (s->n == 64)
        return -1;
    snprintf(s->list[s->n++], FABRIC_NAME_LEN, "%s", name);
    return 0;
}

static void test_hostlist(void **state)
{
    (void)state;
    struct names s = {.n = 0};
    assert_int_equal(fabric_hostlist("node[0-2,7],gpu[08-10],login", collect, &s), 0);
    const char *want[] = {"node0", "node1", "node2", "node7", "gpu08", "gpu09", "gpu10", "login"};
    assert_int_equal(s.n, 8);
    for (size_t i = 0; i < 8; i++)
        assert_string_equal(s.list[i], want[i]);
    s.n = 0;
    assert_int_equal(fabric_hostlist("r[1-2]n[1-2]", collect, &s), 0);
    assert_int_equal(s.n, 4);
    assert_string_equal(s.list[1], "r1n2");
    assert_string_equal(s.list[2], "r2n1");
    const char *bad[] = {"node[1-", "node[a-b]", "node[3-1]", "node]", ",node", "node,", "n[[1]]",
                         "node[1-2", "node[]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s.n = 0;
        assert_int_equal(fabric_hostlist(bad[i], collect, &s), -1);
    }
}

static const char *const eight[] = {"n0", "n1", "n2", "n3", "n4.lab", "n5.lab", "n6:3", "n7"};

static void test_lines(void **state)
{
    (void)state;
    struct fabric f;
    char err[128];
    const char *text = "# switch and group\nn0 s0 g0\nn1 s0 g0\r\nn2 s1 g0\n  n3 s1 g0 # pod\n"
                       "n4 s2 g1\nn5 s2 g1\nn6 s3\n\nother s9 g9\n";
    assert_int_equal(fabric_parse(text, eight, 8, &f, err, sizeof err), 0);
    assert_int_equal(f.placed, 7); /* n7 is not in the file */
    assert_int_equal(f.sw[7], -1);
    assert_int_equal(fabric_class_of(&f, 0, 1), FABRIC_SAME_SWITCH);
    assert_int_equal(fabric_class_of(&f, 0, 2), FABRIC_SAME_GROUP);
    assert_int_equal(fabric_class_of(&f, 0, 4), FABRIC_ACROSS_GROUPS);
    assert_int_equal(fabric_class_of(&f, 4, 5), FABRIC_SAME_SWITCH); /* short names */
    assert_int_equal(fabric_class_of(&f, 6, 0), FABRIC_ACROSS_GROUPS); /* n6:3, group s3 */
    assert_int_equal(fabric_class_of(&f, 6, 7), FABRIC_UNKNOWN);
    assert_string_equal(f.switch_names[f.sw[4]], "s2");
    assert_string_equal(f.group_names[f.group[6]], "s3");
    fabric_free(&f);

    assert_int_equal(fabric_parse("n0 s0 g0\nn1\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
    assert_int_equal(fabric_parse("n0 s0 g0 extra\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
    /* Endpoints by number: a job on one machine. */
    const char *same[] = {"vm", "vm", "vm"};
    assert_int_equal(fabric_parse("@0 a\n@1 a\n@2 b\n", same, 3, &f, err, sizeof err), 0);
    assert_int_equal(fabric_class_of(&f, 0, 1), FABRIC_SAME_SWITCH);
    assert_int_equal(fabric_class_of(&f, 0, 2), FABRIC_ACROSS_GROUPS);
    fabric_free(&f);
}

static void test_slurm(void **state)
{
    (void)state;
    struct fabric f;
    char err[128];
    const char *text = "SwitchName=leaf0 Nodes=n[0-1] LinkSpeed=100\n"
                       "switchname=leaf1 nodes=n[2-3]\n"
                       "SwitchName=leaf2 Nodes=n[4-5],n7\n"
                       "SwitchName=pod0 Switches=leaf[0-1]\n"
                       "SwitchName=top Switches=pod0,leaf2\n";
    assert_int_equal(fabric_parse(text, eight, 8, &f, err, sizeof err), 0);
    assert_int_equal(f.placed, 7);
    assert_int_equal(fabric_class_of(&f, 0, 1), FABRIC_SAME_SWITCH);
    assert_int_equal(fabric_class_of(&f, 1, 2), FABRIC_SAME_GROUP);
    assert_int_equal(fabric_class_of(&f, 0, 4), FABRIC_ACROSS_GROUPS);
    assert_int_equal(fabric_class_of(&f, 4, 7), FABRIC_SAME_SWITCH);
    assert_string_equal(f.group_names[f.group[0]], "pod0");
    assert_string_equal(f.group_names[f.group[4]], "top");
    fabric_free(&f);
    assert_int_equal(fabric_parse("SwitchName=x Nodes=n[0-\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
    assert_int_equal(fabric_parse("SwitchName=x Nodes=n0\nNodes=n1\n", eight, 8, &f, err,
                                  sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
}

/* What a file may not say: a host on two switches, a switch in two
 * groups, nothing about the job's hosts. */
static void test_damaged(void **state)
{
    (void)state;
    struct fabric f;
    char err[160];
    assert_int_equal(fabric_parse("n0 s0 g0\nn0 s1 g0\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2: n0 is on switch s0 and on s1"));
    assert_int_equal(fabric_parse("n0 s0 g0\nn1 s0 g1\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "switch s0 is in group g0 and in g1"));
    assert_int_equal(fabric_parse("# nothing\n", eight, 8, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "places none of the job's 8 endpoints"));
    assert_int_equal(fabric_parse("other s0\n", eight, 8, &f, err, sizeof err), -1);
    /* the same line twice is no contradiction */
    assert_int_equal(fabric_parse("n0 s0 g0\nn0 s0 g0\n", eight, 8, &f, err, sizeof err), 0);
    assert_int_equal(f.placed, 1);
    fabric_free(&f);
}

static void test_xnames(void **state)
{
    (void)state;
    struct fabric f;
    char err[160];
    const char *hosts[] = {"x1000c0s0b0n0", "x1000c0s7b1n1.hsn", "x1000c1s0b0n0",
                           "x1001c0s0b0n0", "login1", "x1000c0s0b0n0x"};
    assert_int_equal(fabric_from_xnames(hosts, 6, &f, err, sizeof err), 0);
    assert_int_equal(f.placed, 4);
    assert_int_equal(fabric_class_of(&f, 0, 1), FABRIC_SAME_SWITCH); /* one chassis */
    assert_int_equal(fabric_class_of(&f, 0, 2), FABRIC_SAME_GROUP);  /* one cabinet */
    assert_int_equal(fabric_class_of(&f, 0, 3), FABRIC_ACROSS_GROUPS);
    assert_int_equal(fabric_class_of(&f, 0, 4), FABRIC_UNKNOWN);     /* not an xname */
    assert_int_equal(fabric_class_of(&f, 0, 5), FABRIC_UNKNOWN);     /* trailing text */
    assert_string_equal(f.switch_names[f.sw[2]], "x1000c1");
    assert_string_equal(f.group_names[f.group[3]], "x1001");
    fabric_free(&f);
    const char *plain[] = {"nid001234", "vm"};
    assert_int_equal(fabric_from_xnames(plain, 2, &f, err, sizeof err), -1);
    assert_non_null(strstr(err, "no host name is an HPE Cray xname"));
}

/* ---------------------------------------------------------------- plan */

/* A fabric of g groups of s switches of k nodes (the last node count may
 * be cut to n). */
static void layout(size_t n, size_t s, size_t k, int *sw, int *group)
{
    for (size_t e = 0; e < n; e++) {
        sw[e] = (int)(e / k);
        group[e] = (int)(e / (k * s));
    }
}

/* partner is a matching: symmetric, no one with itself, at most `idle`
 * without a partner. */
static void assert_matching(const size_t *partner, size_t n, size_t idle)
{
    size_t alone = 0;
    for (size_t e = 0; e < n; e++) {
        if (partner[e] == SIZE_MAX) {
            alone++;
            continue;
        }
        assert_true(partner[e] < n);
        assert_true(partner[e] != e);
        assert_int_equal(partner[partner[e]], e);
    }
    assert_true(alone <= idle);
}

static void test_matchings_are_perfect(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 41; n++) {
        int sw[41], group[41];
        size_t partner[41], scratch[3 * 41 + 2];
        layout(n, 3, 3, sw, group);
        for (int aim = PLAN_SAME_SWITCH; aim <= PLAN_RANDOM; aim++)
            for (uint64_t r = 0; r < 5; r++) {
                plan_matching(7, r, (enum plan_aim)aim, n, sw, group, partner, scratch);
                assert_matching(partner, n, n % 2);
                plan_matching(7, r, (enum plan_aim)aim, n, NULL, NULL, partner, scratch);
                assert_matching(partner, n, n % 2);
            }
    }
}

/* Without a topology, N - 1 rounds (N even; N rounds with N odd) bring
 * every two endpoints together exactly once, whatever the seed. */
static void test_random_rounds_meet_everyone_once(void **state)
{
    (void)state;
    for (size_t n = 2; n <= 17; n++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            unsigned met[17][17] = {{0}};
            size_t partner[17], scratch[3 * 17 + 2], rounds = n - 1 + n % 2;
            for (uint64_t r = 0; r < rounds; r++) {
                plan_matching(seed, r, PLAN_RANDOM, n, NULL, NULL, partner, scratch);
                assert_matching(partner, n, n % 2);
                for (size_t e = 0; e < n; e++)
                    if (partner[e] != SIZE_MAX)
                        met[e][partner[e]]++;
            }
            for (size_t a = 0; a < n; a++)
                for (size_t b = 0; b < n; b++)
                    assert_int_equal(met[a][b], a == b ? 0 : 1);
        }
}

/* Over groups - 1 rounds across groups, every two groups meet; over
 * switches - 1 rounds in a group, every two switches of each group; the
 * pairs of a same-switch round stay on their switch. */
static void test_rounds_cover_the_fabric(void **state)
{
    (void)state;
    enum { G = 6, S = 4, K = 3, N = G * S * K };
    int sw[N], group[N];
    size_t partner[N], scratch[3 * N + 2];
    layout(N, S, K, sw, group);
    bool met[G][G] = {{false}};
    for (uint64_t r = 0; r < G - 1; r++) {
        plan_matching(3, r, PLAN_ACROSS_GROUPS, N, sw, group, partner, scratch);
        assert_matching(partner, N, 0);
        for (size_t e = 0; e < N; e++) {
            assert_true(group[e] != group[partner[e]]); /* equal groups: all across */
            met[group[e]][group[partner[e]]] = true;
        }
    }
    for (int a = 0; a < G; a++)
        for (int b = 0; b < G; b++)
            assert_true(a == b || met[a][b]);
    bool seen[G * S][G * S] = {{false}};
    for (uint64_t r = 0; r < S - 1; r++) {
        plan_matching(3, r, PLAN_SAME_GROUP, N, sw, group, partner, scratch);
        assert_matching(partner, N, 0);
        for (size_t e = 0; e < N; e++) {
            assert_int_equal(group[e], group[partner[e]]);
            assert_true(sw[e] != sw[partner[e]]);
            seen[sw[e]][sw[partner[e]]] = true;
        }
    }
    for (int a = 0; a < G * S; a++)
        for (int b = 0; b < G * S; b++)
            if (a != b && a / S == b / S)
                assert_true(seen[a][b]);
    int sw2[N];
    for (size_t e = 0; e < N; e++)
        sw2[e] = (int)(e / 2); /* switches of 2 */
    plan_matching(3, 0, PLAN_SAME_SWITCH, N, sw2, group, partner, scratch);
    for (size_t e = 0; e < N; e++)
        assert_int_equal(sw2[e], sw2[partner[e]]);
}

static void test_circle(void **state)
{
    (void)state;
    for (size_t m = 2; m <= 9; m++) {
        size_t even = m + m % 2;
        bool met[10][10] = {{false}};
        for (size_t t = 0; t < even - 1; t++)
            for (size_t i = 0; i < even; i++) {
                size_t p = plan_circle_partner(m, t, i);
                assert_true(p < even && p != i);
                assert_int_equal(plan_circle_partner(m, t, p), i);
                met[i][p] = true;
            }
        for (size_t i = 0; i < even; i++)
            for (size_t j = 0; j < even; j++)
                assert_true(i == j || met[i][j]);
    }
}

/* ---------------------------------------------------------------- judge */

static struct judge_obs obs(size_t a, size_t b, int metric, int cls, double v)
{
    return (struct judge_obs){(uint32_t)a, (uint32_t)b, (uint8_t)metric, (uint8_t)cls, 0, v};
}

/* Classes 1, 2, 3 us apart without noise (MAD 0): nothing is slow; a
 * figure 20% above its class is, whatever the other classes. */
static void test_judge_by_class(void **state)
{
    (void)state;
    struct judge j = {{3, 0.10}, {{{0, 0, 0}}}};
    struct judge_obs o[30];
    size_t k = 0;
    for (size_t i = 0; i < 10; i++) {
        o[k++] = obs(i, i + 1, JUDGE_LATENCY, FABRIC_SAME_SWITCH, 1.0);
        o[k++] = obs(i, i + 2, JUDGE_LATENCY, FABRIC_SAME_GROUP, 2.0);
        o[k++] = obs(i, i + 3, JUDGE_LATENCY, FABRIC_ACROSS_GROUPS, 3.0);
    }
    assert_int_equal(judge_references(&j, o, k), 0);
    assert_double_equal(j.ref[JUDGE_LATENCY][FABRIC_SAME_GROUP].median, 2.0, 0);
    assert_double_equal(j.ref[JUDGE_LATENCY][FABRIC_SAME_GROUP].mad, 0, 0);
    for (size_t i = 0; i < k; i++)
        assert_false(judge_slow(&j, o[i].metric, o[i].cls, o[i].value));
    assert_true(judge_slow(&j, JUDGE_LATENCY, FABRIC_SAME_SWITCH, 1.2));
    assert_false(judge_slow(&j, JUDGE_LATENCY, FABRIC_ACROSS_GROUPS, 3.2));
    assert_false(judge_slow(&j, JUDGE_BANDWIDTH, FABRIC_SAME_SWITCH, 1.0)); /* no reference */
    assert_double_equal(judge_worse_pct(&j, JUDGE_LATENCY, FABRIC_SAME_SWITCH, 1.5), 50, 1e-9);
}

static void test_suspects(void **state)
{
    (void)state;
    struct judge_tally t = {0, 0, {0}, {0}};
    assert_false(judge_suspect(&t));
    t = (struct judge_tally){8, 4, {4, 4}, {4, 0}}; /* all of one class slow */
    assert_true(judge_suspect(&t));
    t = (struct judge_tally){8, 4, {4, 4}, {2, 2}}; /* half */
    assert_false(judge_suspect(&t));
    t = (struct judge_tally){3, 2, {1, 1, 1}, {1, 1, 0}};
    assert_true(judge_suspect(&t));
    t = (struct judge_tally){2, 2, {1, 1}, {1, 1}}; /* too few */
    assert_false(judge_suspect(&t));
}

/* ---------------------------------------------------------------- pinpoint */

/* A made-up fabric: 4 groups of 2 switches of 4 nodes. Alone, a pair gets
 * 100 MB/s and 1 us; in a screening round, pairs between groups share
 * their groups' link and get 25, between switches of a group 50, on a
 * switch 100. Faults scale what crosses them. */
enum { M_N = 32 };

struct model {
    struct fabric fabric;
    int slow_node;            /* both ways at half rate; -1 none */
    int uplink_switch;        /* its traffic to even receivers outside it at half */
    int group_from, group_to; /* that link at half, visible only under load */
    size_t noisy_a, noisy_b;  /* this pair slow in the screening only */
};

static double model_value(const struct model *m, int metric, size_t a, size_t b, bool loaded)
{
    const struct fabric *f = &m->fabric;
    enum fabric_class c = fabric_class_of(f, a, b);
    double bw = 100;
    if (loaded)
        bw = c == FABRIC_SAME_SWITCH ? 100 : c == FABRIC_SAME_GROUP ? 50 : 25;
    if ((int)a == m->slow_node || (int)b == m->slow_node)
        bw = bw < 50 ? bw : 50; /* a NIC at half its rate */
    if (f->sw[a] == m->uplink_switch && f->sw[b] != m->uplink_switch && b % 2 == 0)
        bw /= 2;
    if (loaded && f->group[a] == m->group_from && f->group[b] == m->group_to)
        bw /= 2;
    if (metric == JUDGE_LATENCY)
        return 100 / bw;
    return bw;
}

static double model_probe(void *ctx, int metric, size_t a, size_t b)
{
    return model_value(ctx, metric, a, b, false);
}

static void model_set(void *ctx, int metric, const size_t *a, const size_t *b, size_t count,
                      double *value)
{
    for (size_t i = 0; i < count; i++)
        value[i] = model_value(ctx, metric, a[i], b[i], true);
}

/* Screens the model with the rounds locate runs (3 across groups, 1 in
 * each group, 2 on each switch), bandwidth both ways. Returns how many
 * figures, into o. */
static size_t screen(const struct model *m, struct judge_obs *o)
{
    static const int aims[] = {PLAN_ACROSS_GROUPS, PLAN_ACROSS_GROUPS, PLAN_ACROSS_GROUPS,
                               PLAN_SAME_GROUP, PLAN_SAME_SWITCH, PLAN_SAME_SWITCH};
    size_t partner[M_N], scratch[3 * M_N + 2], k = 0, index[4] = {0};
    for (size_t r = 0; r < 6; r++) {
        plan_matching(5, index[aims[r]]++, (enum plan_aim)aims[r], M_N, m->fabric.sw,
                      m->fabric.group, partner, scratch);
        for (size_t a = 0; a < M_N; a++) {
            size_t b = partner[a];
            if (b == SIZE_MAX)
                continue;
            double v = model_value(m, JUDGE_BANDWIDTH, a, b, true);
            if (a == m->noisy_a && b == m->noisy_b)
                v /= 3;
            o[k++] = (struct judge_obs){(uint32_t)a, (uint32_t)b, JUDGE_BANDWIDTH,
                                        (uint8_t)fabric_class_of(&m->fabric, a, b),
                                        (uint32_t)r, v};
        }
    }
    return k;
}

static void model_init(struct model *m)
{
    assert_int_equal(fabric_alloc(M_N, &m->fabric), 0);
    layout(M_N, 2, 4, m->fabric.sw, m->fabric.group);
    m->slow_node = m->uplink_switch = m->group_from = m->group_to = -1;
    m->noisy_a = m->noisy_b = SIZE_MAX;
}

/* Runs the search on the model; the findings stay in l. */
static void search(struct model *m, struct pinpoint *l, struct judge *j, struct judge_obs *o)
{
    size_t k = screen(m, o);
    *j = (struct judge){{3, 0.10}, {{{0, 0, 0}}}};
    assert_int_equal(judge_references(j, o, k), 0);
    *l = (struct pinpoint){.fabric = &m->fabric, .judge = j, .obs = o, .nobs = k, .n = M_N,
                           .confirmers = 3, .max_probes = 80, .seed = 1, .probe = model_probe,
                           .probe_set = model_set, .ctx = m};
    assert_int_equal(pinpoint_run(l), 0);
}

static size_t count_kind(const struct pinpoint *l, enum pinpoint_kind kind)
{
    size_t k = 0;
    for (size_t i = 0; i < l->nfindings; i++)
        k += l->findings[i].kind == kind;
    return k;
}

/* One search on the model: its faults set between model_init and run. */
struct searched {
    struct model m;
    struct pinpoint l;
    struct judge j;
    struct judge_obs o[6 * M_N];
};

static void searched_run(struct searched *s)
{
    search(&s->m, &s->l, &s->j, s->o);
}

static void searched_free(struct searched *s)
{
    pinpoint_free(&s->l);
    fabric_free(&s->m.fabric);
}

/* The one finding of a search that named a single route and no node. */
static const struct pinpoint_finding *the_route(const struct pinpoint *l)
{
    assert_int_equal(count_kind(l, PINPOINT_NODE), 0);
    assert_int_equal(count_kind(l, PINPOINT_ROUTE), 1);
    const struct pinpoint_finding *f = &l->findings[l->nfindings - 1];
    assert_int_equal(f->kind, PINPOINT_ROUTE);
    return f;
}

static void test_pinpoint_healthy(void **state)
{
    (void)state;
    struct searched s;
    model_init(&s.m);
    searched_run(&s);
    assert_int_equal(count_kind(&s.l, PINPOINT_NODE) + count_kind(&s.l, PINPOINT_ROUTE), 0);
    assert_int_equal(s.l.probes, 0);
    searched_free(&s);
}

static void test_pinpoint_slow_node(void **state)
{
    (void)state;
    struct searched s;
    model_init(&s.m);
    s.m.slow_node = 13;
    searched_run(&s);
    assert_int_equal(count_kind(&s.l, PINPOINT_ROUTE), 0);
    assert_int_equal(count_kind(&s.l, PINPOINT_NODE), 2);
    for (size_t i = 0; i < s.l.nfindings; i++)
        if (s.l.findings[i].kind == PINPOINT_NODE)
            assert_int_equal(s.l.findings[i].a, 13);
    assert_true(s.l.named[13 * JUDGE_NROLES + JUDGE_SEND]);
    assert_true(s.l.named[13 * JUDGE_NROLES + JUDGE_RECV]);
    assert_true(s.l.probes <= 3 * 5);
    searched_free(&s);
}

static void test_pinpoint_uplink(void **state)
{
    (void)state;
    struct searched s;
    model_init(&s.m);
    s.m.uplink_switch = 5;
    searched_run(&s);
    const struct pinpoint_finding *f = the_route(&s.l);
    assert_int_equal(judge_element_of(f->from, f->to), JUDGE_UPLINK);
    assert_int_equal(s.m.fabric.sw[f->a], 5);
    searched_free(&s);
}

static void test_pinpoint_group_link_under_load(void **state)
{
    (void)state;
    struct searched s;
    model_init(&s.m);
    s.m.group_from = 1;
    s.m.group_to = 3;
    searched_run(&s);
    const struct pinpoint_finding *f = the_route(&s.l);
    assert_true(f->under_load);
    assert_int_equal(judge_element_of(f->from, f->to), JUDGE_GROUP_LINKS);
    assert_int_equal(s.m.fabric.group[f->a], 1);
    assert_int_equal(s.m.fabric.group[f->b], 3);
    searched_free(&s);
}

/* A pair slow once in the screening and fine alone: cleared, no name. */
static void test_pinpoint_noise_cleared(void **state)
{
    (void)state;
    struct searched s;
    model_init(&s.m);
    size_t k = screen(&s.m, s.o);
    s.m.noisy_a = s.o[k / 2].a;
    s.m.noisy_b = s.o[k / 2].b;
    searched_run(&s);
    assert_int_equal(count_kind(&s.l, PINPOINT_NODE) + count_kind(&s.l, PINPOINT_ROUTE), 0);
    assert_int_equal(s.l.cleared_pairs, 1);
    searched_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostlist),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_slurm),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_xnames),
        cmocka_unit_test(test_matchings_are_perfect),
        cmocka_unit_test(test_random_rounds_meet_everyone_once),
        cmocka_unit_test(test_rounds_cover_the_fabric),
        cmocka_unit_test(test_circle),
        cmocka_unit_test(test_judge_by_class),
        cmocka_unit_test(test_suspects),
        cmocka_unit_test(test_pinpoint_healthy),
        cmocka_unit_test(test_pinpoint_slow_node),
        cmocka_unit_test(test_pinpoint_uplink),
        cmocka_unit_test(test_pinpoint_group_link_under_load),
        cmocka_unit_test(test_pinpoint_noise_cleared),
    };
    return cmocka_run_group_tests_name("netmap_locate", tests, NULL, NULL);
}
