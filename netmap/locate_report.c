/* locate_report: netmap/locate's output; see locate_report.h. */
#include "locate_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "report.h"
#include "stats.h"


/* The fabric of the findings being printed (each entry point sets it). */
static const struct fabric *fab;

static const char *sw_name(size_t e)
{
    int s = fab->sw[e];
    return s >= 0 && fab->switch_names ? fab->switch_names[s] : "-";
}

static const char *group_name(size_t e)
{
    int g = fab->group[e];
    return g >= 0 && fab->group_names ? fab->group_names[g] : "-";
}

/* The name of a scope around endpoint e: "node node3", "switch s1.0". */
static void scope_name(const struct netmap *nm, enum judge_scope s, size_t e, char *out, size_t len)
{
    switch (s) {
    case JUDGE_NODE:
        snprintf(out, len, "node %s (endpoint %zu)", netmap_host(nm, (int)e), e);
        break;
    case JUDGE_SWITCH:
        snprintf(out, len, "switch %s", sw_name(e));
        break;
    case JUDGE_GROUP:
        snprintf(out, len, "group %s", group_name(e));
        break;
    default:
        snprintf(out, len, "anywhere");
    }
}

static void print_tests(const struct netmap *nm, const struct pinpoint_finding *f)
{
    for (size_t i = 0; i < f->ntests; i++) {
        const struct pinpoint_test *t = &f->tests[i];
        static const char *const of[] = {"%s pairs' median in the screening",
                                         "%s pairs' median alone", "the control's median"};
        char ref[96];
        snprintf(ref, sizeof ref, of[t->ref_kind], fabric_class_names[t->cls]);
        out_comment("  %s: %s (%zu) -> %s (%zu)%s: %.3f %s (%s %.3f): %s", t->what,
                    netmap_host(nm, (int)t->a), t->a, netmap_host(nm, (int)t->b), t->b,
                    t->ref_kind == PINPOINT_REF_CONTROL ? " and the others" : "", t->value,
                    judge_metric_units[t->metric], ref, t->reference,
                    t->slow ? "slow" : "not slow");
    }
}

static void culprit_row(const struct netmap *nm, const struct pinpoint_finding *f,
                        const char *from, const char *to, const char *element)
{
    const struct pinpoint_test *t = &f->tests[0];
    bool node = f->kind == PINPOINT_NODE;
    report_row_begin("netmap_locate_culprit");
    report_row_string("kind", node ? "node" : "route");
    report_row_string("metric", judge_metric_names[f->metric]);
    report_row_string("role", node ? judge_role_names[f->role] : "route");
    report_row_string("element", element);
    report_row_string("from_scope", node ? "node" : judge_scope_names[f->from]);
    report_row_string("from", from);
    report_row_string("to_scope", node ? "node" : judge_scope_names[f->to]);
    report_row_string("to", to);
    report_row_string("from_host", netmap_host(nm, (int)f->a));
    report_row_string("to_host", netmap_host(nm, (int)f->b));
    report_row_string("from_switch", sw_name(f->a));
    report_row_string("to_switch", sw_name(f->b));
    report_row_string("from_group", group_name(f->a));
    report_row_string("to_group", group_name(f->b));
    double v = f->ntests ? t->value : NAN;
    report_row_double("bandwidth", f->metric == JUDGE_BANDWIDTH ? v : NAN);
    report_row_double("latency", f->metric == JUDGE_LATENCY ? v : NAN);
    enum culprit_sense sense = f->metric == JUDGE_BANDWIDTH ? CULPRIT_HIGHER_BETTER
                                                            : CULPRIT_LOWER_BETTER;
    report_row_double("worse_pct", f->ntests ? culprit_worse_pct(v, t->reference, sense) : NAN);
    report_row_size("screened", f->screened);
    report_row_size("screened_slow", f->screened_slow);
    report_row_size("covered", f->covered);
    report_row_bool("under_load", f->under_load);
    report_row_bool("both_ways", f->both_ways);
    report_row_size("rounds", f->rounds);
    report_row_end();
}

/* A route finding in words: "an uplink of switch s1.4". */
static void route_words(const struct netmap *nm, const struct pinpoint_finding *f,
                        enum judge_element el, char *out, size_t len)
{
    char from[96], to[96];
    scope_name(nm, f->from, f->a, from, sizeof from);
    scope_name(nm, f->to, f->b, to, sizeof to);
    switch (el) {
    case JUDGE_UPLINK:
        snprintf(out, len, "an uplink of switch %s (the one its traffic to %s takes)",
                 sw_name(f->a), netmap_host(nm, (int)f->b));
        break;
    case JUDGE_GROUP_UPLINK:
        snprintf(out, len, "an uplink out of group %s (the one its traffic to %s takes)",
                 group_name(f->a), netmap_host(nm, (int)f->b));
        break;
    case JUDGE_DOWNLINK:
        snprintf(out, len, "a downlink of switch %s (the one to %s)", sw_name(f->b),
                 netmap_host(nm, (int)f->b));
        break;
    case JUDGE_SWITCH_LINKS:
        snprintf(out, len, "the links between switches %s and %s", sw_name(f->a), sw_name(f->b));
        break;
    case JUDGE_GROUP_LINKS:
        snprintf(out, len, "the links between groups %s and %s", group_name(f->a),
                 group_name(f->b));
        break;
    case JUDGE_PAIR_ROUTE:
        snprintf(out, len, "the route from %s to %s only (their ports, or a cable no other "
                 "pair tested takes)", netmap_host(nm, (int)f->a), netmap_host(nm, (int)f->b));
        break;
    default:
        snprintf(out, len, "links on the routes from %s to %s", from, to);
    }
}

void locate_report_findings(const struct netmap *nm, const struct pinpoint *l)
{
    fab = l->fabric;
    for (size_t i = 0; i < l->nfindings; i++) {
        const struct pinpoint_finding *f = &l->findings[i];
        size_t slow = 0;
        for (size_t k = 0; k < f->ntests; k++)
            slow += f->tests[k].slow;
        if (f->kind == PINPOINT_CLEARED) {
            out_comment("cleared (%s): node %s (endpoint %zu) as %s, slow with %zu of %zu "
                        "screening figures, but with %zu of %zu known good partners measured "
                        "alone; %zu extra rounds",
                        judge_metric_names[f->metric], netmap_host(nm, (int)f->a), f->a,
                        judge_role_names[f->role], f->screened_slow, f->screened, slow, f->ntests,
                        f->rounds);
            print_tests(nm, f);
            continue;
        }
        if (f->kind == PINPOINT_NODE) {
            const char *host = netmap_host(nm, (int)f->a);
            out_comment("culprit (%s): node %s (endpoint %zu, switch %s) as %s: slow with %zu of "
                        "%zu known good partners measured alone, and %zu of its %zu screening "
                        "figures; %zu extra rounds",
                        judge_metric_names[f->metric], host, f->a, sw_name(f->a),
                        judge_role_names[f->role], slow, f->ntests, f->screened_slow,
                        f->screened, f->rounds);
            print_tests(nm, f);
            culprit_row(nm, f, host, host, "node");
            continue;
        }
        char from[96], to[96], words[256];
        scope_name(nm, f->from, f->a, from, sizeof from);
        scope_name(nm, f->to, f->b, to, sizeof to);
        enum judge_element el = judge_element_of(f->from, f->to);
        route_words(nm, f, el, words, sizeof words);
        char how[160];
        if (f->under_load)
            snprintf(how, sizeof how, "its %zu pairs of a round slow all at once against a "
                     "control, not alone", f->bundle);
        else
            snprintf(how, sizeof how, "found on %s -> %s, slow alone twice",
                     netmap_host(nm, (int)f->a), netmap_host(nm, (int)f->b));
        out_comment("culprit (%s): %s%s: slow from %s to %s; %s; %zu later slow pairs the "
                    "same, %zu of %zu screening figures it covers slow; %zu extra rounds",
                    judge_metric_names[f->metric], words, f->both_ways ? ", both ways" : "", from,
                    to, how, f->covered, f->screened_slow, f->screened, f->rounds);
        print_tests(nm, f);
        culprit_row(nm, f, from, to, judge_element_names[el]);
    }
}

void locate_report_nodes(const struct netmap *nm, const struct judge_obs *obs, size_t nobs,
                         const struct pinpoint *l)
{
    fab = l->fabric;
    size_t n = (size_t)nm->endpoints;
    out_comment("per node: its screening figures' medians (bandwidth sent and received in MB/s, "
                "latency in us), how many it had and how many were slow, and the verdict");
    out_comment("endpoint host switch group send_median recv_median latency_median figures slow verdict");
    /* Each node's figures, by one pass into per-node lists. */
    size_t *count = netmap_alloc(n * 3, sizeof *count, NULL);
    for (size_t k = 0; k < nobs; k++) {
        const struct judge_obs *o = &obs[k];
        if (o->metric == JUDGE_BANDWIDTH) {
            count[3 * o->a]++;
            count[3 * o->b + 1]++;
        } else {
            count[3 * o->a + 2]++;
            count[3 * o->b + 2]++;
        }
    }
    size_t *start = netmap_alloc(n * 3 + 1, sizeof *start, NULL);
    for (size_t i = 0; i < 3 * n; i++)
        start[i + 1] = start[i] + count[i];
    double *val = netmap_alloc(start[3 * n], sizeof *val, NULL);
    memset(count, 0, n * 3 * sizeof *count);
    for (size_t k = 0; k < nobs; k++) {
        const struct judge_obs *o = &obs[k];
        size_t at[2] = {o->metric == JUDGE_BANDWIDTH ? 3 * o->a : 3 * o->a + 2,
                        o->metric == JUDGE_BANDWIDTH ? 3 * o->b + 1 : 3 * o->b + 2};
        for (int i = 0; i < 2; i++)
            val[start[at[i]] + count[at[i]]++] = o->value;
    }
    for (size_t e = 0; e < n; e++) {
        double med[3];
        for (int r = 0; r < 3; r++)
            med[r] = count[3 * e + r] ? stats_median(&val[start[3 * e + r]], count[3 * e + r]) : NAN;
        size_t figures = 0, slow = 0;
        bool named = false, suspect = false;
        for (int r = 0; r < JUDGE_NROLES; r++) {
            figures += l->tally[e * JUDGE_NROLES + r].count;
            slow += l->tally[e * JUDGE_NROLES + r].slow;
            named |= l->named[e * JUDGE_NROLES + r];
            suspect |= judge_suspect(&l->tally[e * JUDGE_NROLES + r]);
        }
        const char *verdict = named ? "named" : suspect ? "cleared" : "ok";
        const char *host = netmap_host(nm, (int)e);
        out_line("%zu %s %s %s %.3f %.3f %.3f %zu %zu %s", e, host, sw_name(e), group_name(e), med[0],
                 med[1], med[2], figures, slow, verdict);
        report_row_begin("netmap_locate_node");
        report_row_size("endpoint", e);
        report_row_string("host", host);
        report_row_string("switch", sw_name(e));
        report_row_string("group", group_name(e));
        report_row_double("send_median", med[0]);
        report_row_double("recv_median", med[1]);
        report_row_double("latency_median", med[2]);
        report_row_size("figures", figures);
        report_row_size("slow", slow);
        report_row_string("verdict", verdict);
        report_row_end();
    }
    out_block_end();
    free(count);
    free(start);
    free(val);
}

void locate_report_references(const struct judge *j)
{
    for (int m = 0; m < JUDGE_NMETRICS; m++)
        for (int c = 0; c < FABRIC_NCLASSES; c++) {
            const struct judge_ref *r = &j->ref[m][c];
            if (r->count)
                out_comment("reference (%s, %s pairs): median %.3f %s, MAD %.3f, over %zu figures",
                            judge_metric_names[m], fabric_class_names[c], r->median,
                            judge_metric_units[m], r->mad, r->count);
        }
}

void locate_report_verdict(const struct netmap *nm, const struct judge_obs *obs, size_t nobs,
                           size_t rounds, const struct pinpoint *l)
{
    size_t nodes = 0, routes = 0;
    for (size_t i = 0; i < l->nfindings; i++)
        nodes += l->findings[i].kind == PINPOINT_NODE,
            routes += l->findings[i].kind == PINPOINT_ROUTE;
    size_t pairs = 0;
    for (size_t k = 0; k < nobs; k++)
        pairs += obs[k].metric == JUDGE_LATENCY;
    out_comment("verdict: %d nodes and %zu pairs judged in %zu screening rounds; %zu node findings "
                "and %zu route findings named; %zu suspect nodes cleared, %zu of %zu slow pairs "
                "cleared alone%s; %zu extra rounds (pairs measured alone, %zu of them for the "
                "references alone; at most %zu)",
                nm->endpoints, pairs, rounds, nodes, routes, l->cleared_nodes,
                l->cleared_pairs, l->slow_pairs,
                l->unexamined ? " (some left unexamined: more rounds with --max-probes)" : "",
                l->probes, l->calibration, l->max_probes);
    if (l->unexamined)
        out_comment("verdict: %zu slow pairs left unexamined (--max-probes %zu reached)",
                    l->unexamined, l->max_probes);
    report_row_begin("netmap_locate_verdict");
    report_row_size("nodes", (size_t)nm->endpoints);
    report_row_size("pairs", pairs);
    report_row_size("rounds", rounds);
    report_row_size("named_nodes", nodes);
    report_row_size("named_routes", routes);
    report_row_size("cleared_nodes", l->cleared_nodes);
    report_row_size("slow_pairs", l->slow_pairs);
    report_row_size("cleared_pairs", l->cleared_pairs);
    report_row_size("unexamined", l->unexamined);
    report_row_size("extra_rounds", l->probes);
    report_row_end();
}

void locate_report_declare(void)
{
    report_table("netmap_locate_round", "bandwidth_median", REPORT_HIGHER_BETTER, NULL);
    report_key("round", REPORT_UNIT_COUNT);
    report_key("aim", REPORT_UNIT_TEXT);
    report_value("pairs", REPORT_UNIT_COUNT);
    report_value("bandwidth_median", REPORT_UNIT_MB_S);
    report_value("latency_median", REPORT_UNIT_US);
    report_no_iterations();
    report_table("netmap_locate_node", "send_median", REPORT_NOT_RANKED, NULL);
    report_key("endpoint", REPORT_UNIT_COUNT);
    report_key("host", REPORT_UNIT_TEXT);
    report_value("switch", REPORT_UNIT_TEXT);
    report_value("group", REPORT_UNIT_TEXT);
    netmap_report_values(REPORT_UNIT_MB_S, "send_median", "recv_median", NULL);
    report_value("latency_median", REPORT_UNIT_US);
    report_value("figures", REPORT_UNIT_COUNT);
    report_value("slow", REPORT_UNIT_COUNT);
    report_value("verdict", REPORT_UNIT_TEXT);
    report_no_iterations();
    report_table("netmap_locate_culprit", "element", REPORT_NOT_RANKED, NULL);
    report_key("kind", REPORT_UNIT_TEXT);
    report_key("metric", REPORT_UNIT_TEXT);
    report_key("role", REPORT_UNIT_TEXT);
    report_key("element", REPORT_UNIT_TEXT);
    report_key("from_scope", REPORT_UNIT_TEXT);
    report_key("from", REPORT_UNIT_TEXT);
    report_key("to_scope", REPORT_UNIT_TEXT);
    report_key("to", REPORT_UNIT_TEXT);
    netmap_report_values(REPORT_UNIT_TEXT, "from_host", "to_host", "from_switch", "to_switch",
                         "from_group", "to_group", NULL);
    report_value("bandwidth", REPORT_UNIT_MB_S);
    report_value("latency", REPORT_UNIT_US);
    report_value("worse_pct", REPORT_UNIT_PERCENT);
    netmap_report_values(REPORT_UNIT_COUNT, "screened", "screened_slow", "covered", "rounds", NULL);
    netmap_report_values(REPORT_UNIT_BOOL, "under_load", "both_ways", NULL);
    report_no_iterations();
    report_table("netmap_locate_verdict", "named_nodes", REPORT_NOT_RANKED, NULL);
    netmap_report_values(REPORT_UNIT_COUNT, "nodes", "pairs", "rounds", "named_nodes",
                         "named_routes", "cleared_nodes", "slow_pairs", "cleared_pairs",
                         "unexamined", "extra_rounds", NULL);
    report_no_iterations();
}
