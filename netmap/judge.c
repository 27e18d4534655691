/* judge: netmap/locate's references, tallies and scopes; see judge.h. */
#include "judge.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

const char *const judge_metric_names[JUDGE_NMETRICS] = {"bandwidth", "latency"};
const char *const judge_metric_units[JUDGE_NMETRICS] = {"MB/s", "us"};
const char *const judge_role_names[JUDGE_NROLES] = {"sender", "receiver", "round trips"};
const char *const judge_scope_names[JUDGE_NSCOPES] = {"node", "switch", "group", "any"};

static enum culprit_sense sense_of(int metric)
{
    return metric == JUDGE_BANDWIDTH ? CULPRIT_HIGHER_BETTER : CULPRIT_LOWER_BETTER;
}

int judge_references(struct judge *j, const struct judge_obs *obs, size_t n)
{
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!x)
        return -1;
    for (int m = 0; m < JUDGE_NMETRICS; m++)
        for (int c = 0; c < FABRIC_NCLASSES; c++) {
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (obs[i].metric == m && obs[i].cls == c && !isnan(obs[i].value))
                    x[k++] = obs[i].value;
            struct judge_ref *r = &j->ref[m][c];
            *r = (struct judge_ref){k, NAN, NAN};
            if (k == 0)
                continue;
            stats_sort(x, k);
            r->median = stats_percentile_sorted(x, k, 50.0);
            for (size_t i = 0; i < k; i++)
                x[i] = fabs(x[i] - r->median);
            stats_sort(x, k);
            r->mad = stats_percentile_sorted(x, k, 50.0);
        }
    free(x);
    return 0;
}

bool judge_slow(const struct judge *j, int metric, int cls, double value)
{
    const struct judge_ref *r = &j->ref[metric][cls];
    if (r->count == 0 || isnan(value))
        return false;
    return culprit_is_worse(value, r->median, r->mad, sense_of(metric), &j->rule);
}

double judge_worse_pct(const struct judge *j, int metric, int cls, double value)
{
    const struct judge_ref *r = &j->ref[metric][cls];
    if (r->count == 0)
        return NAN;
    return culprit_worse_pct(value, r->median, sense_of(metric));
}

static void count(struct judge_tally *t, int cls, bool slow)
{
    t->count++;
    t->slow += slow;
    t->class_count[cls]++;
    t->class_slow[cls] += slow;
}

void judge_tally(const struct judge *j, const struct judge_obs *obs, size_t n, size_t nodes,
                 struct judge_tally *tally)
{
    for (size_t i = 0; i < nodes * JUDGE_NROLES; i++)
        tally[i] = (struct judge_tally){0, 0, {0}, {0}};
    for (size_t i = 0; i < n; i++) {
        const struct judge_obs *o = &obs[i];
        if (isnan(o->value) || o->a >= nodes || o->b >= nodes || o->cls >= FABRIC_NCLASSES)
            continue;
        bool slow = judge_slow(j, o->metric, o->cls, o->value);
        if (o->metric == JUDGE_BANDWIDTH) {
            count(&tally[o->a * JUDGE_NROLES + JUDGE_SEND], o->cls, slow);
            count(&tally[o->b * JUDGE_NROLES + JUDGE_RECV], o->cls, slow);
        } else {
            count(&tally[o->a * JUDGE_NROLES + JUDGE_ROUND_TRIP], o->cls, slow);
            count(&tally[o->b * JUDGE_NROLES + JUDGE_ROUND_TRIP], o->cls, slow);
        }
    }
}

bool judge_suspect(const struct judge_tally *t)
{
    if (t->count >= 3 && 2 * t->slow > t->count)
        return true;
    for (int c = 0; c < FABRIC_NCLASSES; c++)
        if (t->class_count[c] >= 2 && 2 * t->class_slow[c] > t->class_count[c])
            return true;
    return false;
}

const char *const judge_element_names[JUDGE_NELEMENTS] = {
    "uplink", "group-uplink", "downlink", "switch-links", "group-links", "route", "links"};

enum judge_element judge_element_of(enum judge_scope from, enum judge_scope to)
{
    if (from == JUDGE_NODE && to == JUDGE_NODE)
        return JUDGE_PAIR_ROUTE;
    if (to == JUDGE_NODE)
        return from == JUDGE_SWITCH  ? JUDGE_UPLINK
               : from == JUDGE_GROUP ? JUDGE_GROUP_UPLINK
                                     : JUDGE_DOWNLINK;
    if (from == JUDGE_SWITCH && to == JUDGE_SWITCH)
        return JUDGE_SWITCH_LINKS;
    if (from == JUDGE_GROUP && to == JUDGE_GROUP)
        return JUDGE_GROUP_LINKS;
    return JUDGE_LINKS;
}
