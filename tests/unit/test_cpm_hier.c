/* Unit tests of the hierarchy tools' logic: the seed's grouping of host
 * names (three characters, user prefixes, domains), the links a
 * hierarchical model measures and which stands for each pair of hosts
 * (with every host reachable and with some not), and the flat models
 * filled from the models of those links. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_hier.h"
#include "cpm_hier_fill.h"
#include "cpm_hier_plan.h"
#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_plogp.h"

/* "parent:host ..." for every host, and the root's name first. */
static void shape_of(const struct cpm_hier *h, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "[%s]", h->nodes[h->root].name);
    for (size_t i = 0; i < h->nleaves; i++) {
        const struct cpm_hier_node *leaf = &h->nodes[h->leaves[i]];
        const struct cpm_hier_node *group = &h->nodes[leaf->parent];
        used +=
            (size_t)snprintf(out + used, len - used, " %s/%s:%s",
                             group->parent == CPM_HIER_NONE ? "-" : h->nodes[group->parent].name,
                             group->name, leaf->model_data);
    }
}

static void expect_groups(const char *const *hosts, size_t n, const char *const *prefixes,
                          size_t np, const char *want)
{
    struct cpm_hier h;
    char got[1000];
    cpm_hier_group(&h, hosts, n, prefixes, np);
    shape_of(&h, got, sizeof got);
    assert_string_equal(got, want);
    cpm_hier_free(&h);
}

static void test_grouping(void **state)
{
    (void)state;
    const char *two_domains[] = {"hcl01.ucd.ie", "csi1.ucd.ie", "hcl02.ucd.ie", "node1.g5k.fr",
                                 "node2.g5k.fr"};
    expect_groups(two_domains, 5, NULL, 0,
                  "[all hosts] *.ucd.ie/hcl*.ucd.ie:hcl01.ucd.ie *.ucd.ie/hcl*.ucd.ie:hcl02.ucd.ie "
                  "*.ucd.ie/csi*.ucd.ie:csi1.ucd.ie *.g5k.fr/nod*.g5k.fr:node1.g5k.fr "
                  "*.g5k.fr/nod*.g5k.fr:node2.g5k.fr");
    /* One domain: no domain level. */
    const char *one_domain[] = {"fast1.east.lab", "slow1.east.lab", "fast2.east.lab"};
    expect_groups(one_domain, 3, NULL, 0,
                  "[all hosts] all hosts/fas*.east.lab:fast1.east.lab "
                  "all hosts/fas*.east.lab:fast2.east.lab all hosts/slo*.east.lab:slow1.east.lab");
    /* Without domains, short names; a name shorter than three characters. */
    const char *bare[] = {"node0", "ab", "node1"};
    expect_groups(bare, 3, NULL, 0,
                  "[all hosts] all hosts/nod*:node0 all hosts/nod*:node1 all hosts/ab*:ab");
    /* Prefixes split what three characters would join; the longest wins. */
    const char *prefixed[] = {"node01.x", "nodeb1.x", "node02.x", "other.x"};
    const char *prefixes[] = {"no", "node0", "nodeb"};
    expect_groups(prefixed, 4, prefixes, 3,
                  "[all hosts] all hosts/node0*.x:node01.x all hosts/node0*.x:node02.x "
                  "all hosts/nodeb*.x:nodeb1.x all hosts/oth*.x:other.x");
    const char *mixed[] = {"a1", "a2.x"};
    expect_groups(mixed, 2, NULL, 0, "[all hosts] */a1*:a1 *.x/a2*.x:a2.x");
    assert_int_equal(cpm_hier_prefix_len("abcdef", NULL, 0), 3);
    assert_string_equal(cpm_hier_domain("a.b.c"), "b.c");
    assert_string_equal(cpm_hier_domain("abc"), "");
}

static void parse(const char *text, struct cpm_hier *h)
{
    char err[300];
    if (cpm_hier_parse(text, strlen(text), h, err, sizeof err) != 0)
        fail_msg("%s", err);
}

#define LEAF(id) id " [type=0, model_data=" id "]\n"
#define GROUP(id) id " [type=1, model_data=\"\"]\n"
/* Hosts h0 h1 h2 in g1, h3 h4 in g2. */
static const char two_level[] =
    "digraph h {\n" GROUP("r") GROUP("g1") GROUP("g2") LEAF("h0") LEAF("h1") LEAF("h2") LEAF("h3")
        LEAF("h4") "r -> g1 -> h0; g1 -> h1; g1 -> h2; r -> g2 -> h3; g2 -> h4 }";
/* Hosts x, y directly below the root, a and b in g between them. */
static const char mixed[] = "digraph h {\n" GROUP("r") GROUP("g") LEAF("x") LEAF("a") LEAF("b")
    LEAF("y") "r -> x; r -> g -> a; g -> b; r -> y }";

static void expect_link(const struct cpm_hier_plan *p, size_t k, size_t a, size_t b, bool within,
                        size_t pairs)
{
    assert_true(k < p->nlinks);
    assert_int_equal(p->links[k].a, a);
    assert_int_equal(p->links[k].b, b);
    assert_int_equal(p->links[k].within, within);
    assert_int_equal(p->links[k].pairs, pairs);
}

/* Every pair has a link whose pair count says how many point to it. */
static void expect_consistent(const struct cpm_hier *h, const struct cpm_hier_plan *p)
{
    size_t *count = calloc(p->nlinks, sizeof *count);
    for (size_t i = 0; i < h->nleaves; i++)
        for (size_t j = i + 1; j < h->nleaves; j++) {
            size_t k = cpm_hier_plan_link(h, p, i, j);
            assert_true(k < p->nlinks);
            assert_int_equal(cpm_hier_plan_link(h, p, j, i), k);
            count[k]++;
        }
    for (size_t k = 0; k < p->nlinks; k++) {
        assert_int_equal(count[k], p->links[k].pairs);
        /* A link stands for its own pair. */
        assert_int_equal(cpm_hier_plan_link(h, p, p->links[k].a, p->links[k].b), k);
    }
    free(count);
}

static void test_plan(void **state)
{
    (void)state;
    struct cpm_hier h;
    struct cpm_hier_plan p;
    char err[300];
    parse(two_level, &h);
    assert_int_equal(cpm_hier_plan_make(&h, NULL, &p, err, sizeof err), 0);
    assert_int_equal(p.nlinks, 3);
    expect_link(&p, 0, 0, 3, false, 6);
    expect_link(&p, 1, 0, 1, true, 3);
    expect_link(&p, 2, 3, 4, true, 1);
    assert_int_equal(cpm_hier_plan_link(&h, &p, 1, 2), 1);
    assert_int_equal(cpm_hier_plan_link(&h, &p, 2, 4), 0);
    expect_consistent(&h, &p);
    size_t hosts[5];
    assert_int_equal(cpm_hier_plan_hosts(&h, &p, hosts), 4);
    assert_int_equal(hosts[2], 3);
    cpm_hier_plan_free(&p);

    /* h0 out of reach: g1's next hosts stand in for it. */
    bool reach[5] = {false, true, true, true, true};
    assert_int_equal(cpm_hier_plan_make(&h, reach, &p, err, sizeof err), 0);
    expect_link(&p, 0, 1, 3, false, 6);
    expect_link(&p, 1, 1, 2, true, 3);
    expect_consistent(&h, &p);
    cpm_hier_plan_free(&p);
    bool one_in_g1[5] = {true, false, false, true, true};
    assert_int_equal(cpm_hier_plan_make(&h, one_in_g1, &p, err, sizeof err), -1);
    assert_string_equal(err, "line 3: the links among the 3 hosts directly below \"g1\" are "
                             "measured between two of them, and the run reaches 1");
    bool no_g2[5] = {true, true, true, false, false};
    assert_int_equal(cpm_hier_plan_make(&h, no_g2, &p, err, sizeof err), -1);
    assert_string_equal(err, "line 4: the run reaches none of the 2 hosts of \"g2\"");
    cpm_hier_free(&h);

    parse(mixed, &h);
    assert_int_equal(cpm_hier_plan_make(&h, NULL, &p, err, sizeof err), 0);
    assert_int_equal(p.nlinks, 3);
    expect_link(&p, 0, 0, 3, true, 1);  /* x - y, the root's own hosts */
    expect_link(&p, 1, 0, 1, false, 4); /* x - a: own hosts and g */
    expect_link(&p, 2, 1, 2, true, 1);  /* a - b within g */
    expect_consistent(&h, &p);
    cpm_hier_plan_free(&p);
    bool no_own[4] = {false, true, true, false};
    assert_int_equal(cpm_hier_plan_make(&h, no_own, &p, err, sizeof err), -1);
    assert_non_null(strstr(err, "measured between two of them, and the run reaches 0"));
    cpm_hier_free(&h);

    /* One group of many hosts: one link, two hosts. */
    const char *many[] = {"node1", "node2", "node3", "node4", "node5", "node6"};
    cpm_hier_group(&h, many, 6, NULL, 0);
    assert_int_equal(cpm_hier_plan_make(&h, NULL, &p, err, sizeof err), 0);
    assert_int_equal(p.nlinks, 1);
    expect_link(&p, 0, 0, 1, true, 15);
    expect_consistent(&h, &p);
    cpm_hier_plan_free(&p);
    cpm_hier_free(&h);
}

/* Link models for two_level whose parameters name the link. */
static void test_fill(void **state)
{
    (void)state;
    struct cpm_hier h;
    struct cpm_hier_plan p;
    char err[300];
    parse(two_level, &h);
    assert_int_equal(cpm_hier_plan_make(&h, NULL, &p, err, sizeof err), 0);
    void *links[3];
    for (int k = 0; k < 3; k++) {
        struct cpm_hockney *l = cpm_hockney_alloc(2);
        l->a[0] = 1e-5 * (k + 1);
        l->b[0] = 1e-9 * (k + 1);
        links[k] = l;
    }
    void *model;
    assert_int_equal(cpm_hier_fill(&cpm_hockney_kind, &h, &p, links, &model, err, sizeof err), 0);
    struct cpm_hockney *m = model;
    assert_int_equal(m->n, 5);
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++) {
            size_t k = cpm_hier_plan_link(&h, &p, (size_t)i, (size_t)j);
            assert_double_equal(
                cpm_predict_p2p(&m->predictor, i, j, 1000),
                cpm_predict_p2p(&((struct cpm_hockney *)links[k])->predictor, 0, 1, 1000), 0);
        }
    assert_double_equal(m->a[cpm_pair_index(5, 3, 4)], 3e-5, 1e-20);
    assert_double_equal(m->a[cpm_pair_index(5, 1, 2)], 2e-5, 1e-20);
    assert_double_equal(m->b[cpm_pair_index(5, 2, 4)], 1e-9, 1e-20);
    cpm_hockney_free(m);
    for (int k = 0; k < 3; k++)
        cpm_hockney_free(links[k]);

    for (int k = 0; k < 3; k++) {
        struct cpm_lininterp *l = cpm_lininterp_alloc(2, 2);
        l->sizes[0] = 0;
        l->sizes[1] = 1024;
        l->times[0] = 1e-5 * (k + 1);
        l->times[1] = 2e-5 * (k + 1);
        links[k] = l;
    }
    assert_int_equal(cpm_hier_fill(&cpm_lininterp_kind, &h, &p, links, &model, err, sizeof err), 0);
    struct cpm_lininterp *li = model;
    assert_double_equal(li->times[cpm_pair_index(5, 0, 4) * 2 + 1], 2e-5, 1e-20);
    assert_double_equal(li->times[cpm_pair_index(5, 3, 4) * 2], 3e-5, 1e-20);
    assert_double_equal(li->sizes[1], 1024, 1e-20);
    cpm_lininterp_free(li);
    ((struct cpm_lininterp *)links[2])->sizes[1] = 2048;
    assert_int_equal(cpm_hier_fill(&cpm_lininterp_kind, &h, &p, links, &model, err, sizeof err),
                     -1);
    assert_string_equal(err, "links 0 and 2 were measured at other message sizes");
    assert_null(model);
    for (int k = 0; k < 3; k++)
        cpm_lininterp_free(links[k]);

    for (int k = 0; k < 3; k++) {
        struct cpm_plogp *l = cpm_plogp_alloc(2, 2);
        l->sizes[1] = 4096;
        l->pairs[0].L = 1e-6 * (k + 1);
        l->pairs[0].g[1] = 3e-6 * (k + 1);
        l->pairs[0].os[1] = 4e-6 * (k + 1);
        l->pairs[0].orecv[1] = 5e-6 * (k + 1);
        links[k] = l;
    }
    assert_int_equal(cpm_hier_fill(&cpm_plogp_kind, &h, &p, links, &model, err, sizeof err), 0);
    struct cpm_plogp *pl = model;
    const struct cpm_plogp_pair *q = &pl->pairs[cpm_pair_index(5, 1, 2)];
    assert_double_equal(q->L, 2e-6, 1e-20);
    assert_double_equal(q->g[1], 6e-6, 1e-20);
    assert_double_equal(q->os[1], 8e-6, 1e-20);
    assert_double_equal(q->orecv[1], 10e-6, 1e-20);
    assert_double_equal(pl->sizes[1], 4096, 1e-20);
    cpm_plogp_free(pl);
    for (int k = 0; k < 3; k++)
        cpm_plogp_free(links[k]);

    assert_false(cpm_hier_fill_takes(&cpm_lmo_kind));
    assert_true(cpm_hier_fill_takes(&cpm_hockney_kind));
    assert_int_equal(cpm_hier_fill(&cpm_lmo_kind, &h, &p, links, &model, err, sizeof err), -1);
    cpm_hier_plan_free(&p);
    cpm_hier_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grouping),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_fill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
