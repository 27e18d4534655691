/* fabric: the switch and group of each endpoint; see fabric.h. */
#include "fabric.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fabric_class_names[FABRIC_NCLASSES] = {"same-switch", "same-group",
                                                         "across-groups", "unknown"};

int fabric_alloc(size_t n, struct fabric *f)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    f->sw = malloc((n ? n : 1) * sizeof *f->sw);
    f->group = malloc((n ? n : 1) * sizeof *f->group);
    if (!f->sw || !f->group) {
        fabric_free(f);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        f->sw[i] = f->group[i] = -1;
    return 0;
}

int fabric_none(size_t n, struct fabric *f)
{
    return fabric_alloc(n, f);
}

void fabric_free(struct fabric *f)
{
    free(f->sw);
    free(f->group);
    free(f->switch_names);
    free(f->group_names);
    memset(f, 0, sizeof *f);
}

enum fabric_class fabric_class_of(const struct fabric *f, size_t a, size_t b)
{
    if (f->sw[a] < 0 || f->sw[b] < 0)
        return FABRIC_UNKNOWN;
    if (f->sw[a] == f->sw[b])
        return FABRIC_SAME_SWITCH;
    return f->group[a] == f->group[b] ? FABRIC_SAME_GROUP : FABRIC_ACROSS_GROUPS;
}

/* ---------------------------------------------------------------- host lists */

/* Expands the first [...] of item (prefix[ranges]rest), recursing on rest. */
static int expand(const char *item, size_t len, char *name, size_t used,
                  int (*add)(const char *, void *), void *arg)
{
    const char *open = memchr(item, '[', len);
    if (!open) {
        if (used + len >= FABRIC_NAME_LEN)
            return -1;
        memcpy(name + used, item, len);
        name[used + len] = '\0';
        return used + len == 0 ? -1 : add(name, arg);
    }
    const char *close = memchr(open, ']', len - (size_t)(open - item));
    size_t pre = (size_t)(open - item);
    if (!close || close == open + 1 || used + pre >= FABRIC_NAME_LEN)
        return -1;
    memcpy(name + used, item, pre);
    const char *rest = close + 1;
    size_t rest_len = len - (size_t)(rest - item);
    for (const char *p = open + 1; p < close;) {
        const char *comma = memchr(p, ',', (size_t)(close - p));
        const char *end = comma ? comma : close;
        const char *dash = memchr(p, '-', (size_t)(end - p));
        const char *lo_end = dash ? dash : end;
        size_t width = (size_t)(lo_end - p);
        if (width == 0 || width > 9)
            return -1;
        for (const char *q = p; q < end; q++)
            if (q != dash && !isdigit((unsigned char)*q))
                return -1;
        unsigned long lo = strtoul(p, NULL, 10), hi = dash ? strtoul(dash + 1, NULL, 10) : lo;
        if (dash && (dash + 1 == end || end - dash - 1 > 9))
            return -1;
        if (hi < lo || hi - lo > 1000000)
            return -1;
        for (unsigned long v = lo; v <= hi; v++) {
            int w = snprintf(name + used + pre, FABRIC_NAME_LEN - used - pre, "%0*lu", (int)width, v);
            if (w < 0 || used + pre + (size_t)w >= FABRIC_NAME_LEN)
                return -1;
            if (expand(rest, rest_len, name, used + pre + (size_t)w, add, arg))
                return -1;
        }
        p = comma ? comma + 1 : close;
    }
    return 0;
}

int fabric_hostlist(const char *list, int (*add)(const char *, void *), void *arg)
{
    char name[FABRIC_NAME_LEN];
    const char *p = list;
    while (*p) {
        /* An item ends at a comma outside brackets. */
        const char *q = p;
        int depth = 0;
        for (; *q && (*q != ',' || depth); q++) {
            depth += *q == '[';
            depth -= *q == ']';
            if (depth < 0 || depth > 1)
                return -1;
        }
        if (depth || q == p || expand(p, (size_t)(q - p), name, 0, add, arg))
            return -1;
        p = *q ? q + 1 : q;
        if (*q && !*p)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- parsing */

/* The endpoints by host name, sorted, for lookups: each endpoint under its
 * label, its label before ':' (per-rank endpoints) and before '.'. */
struct key {
    char name[FABRIC_NAME_LEN];
    size_t endpoint;
};

struct parser {
    struct fabric *f;
    struct key *keys;
    size_t nkeys;
    int current;       /* the switch (or group, in Switches=) being filled */
    int current_group; /* the group of current's hosts; -1: decided later */
    char *err;
    size_t errlen;
    size_t line;
    int *switch_group; /* HOST SWITCH GROUP lines: each switch's group so far */
    size_t room;       /* of switch_group */
};

static int key_cmp(const void *a, const void *b)
{
    return strcmp(((const struct key *)a)->name, ((const struct key *)b)->name);
}

static void add_key(struct parser *p, const char *name, size_t len, size_t e)
{
    if (len == 0 || len >= FABRIC_NAME_LEN)
        return;
    struct key *k = &p->keys[p->nkeys];
    memcpy(k->name, name, len);
    k->name[len] = '\0';
    /* The same key twice for one endpoint would place it twice: harmless. */
    k->endpoint = e;
    p->nkeys++;
}

static int make_keys(struct parser *p, const char *const *hosts, size_t n)
{
    p->keys = malloc((4 * n + 1) * sizeof *p->keys);
    if (!p->keys)
        return -1;
    for (size_t e = 0; e < n; e++) {
        const char *h = hosts[e];
        size_t full = strlen(h), colon = strcspn(h, ":"), dot = strcspn(h, ".:");
        add_key(p, h, full, e);
        if (colon < full)
            add_key(p, h, colon, e);
        if (dot < colon)
            add_key(p, h, dot, e);
        char at[24];
        add_key(p, at, (size_t)snprintf(at, sizeof at, "@%zu", e), e);
    }
    qsort(p->keys, p->nkeys, sizeof *p->keys, key_cmp);
    return 0;
}

static void fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parser *p, const char *fmt, ...)
{
    int w = snprintf(p->err, p->errlen, "line %zu: ", p->line);
    va_list ap;
    va_start(ap, fmt);
    if (w >= 0 && (size_t)w < p->errlen)
        vsnprintf(p->err + w, p->errlen - (size_t)w, fmt, ap);
    va_end(ap);
}

/* The number of a switch or group name, added when new. */
static int intern(char (**names)[FABRIC_NAME_LEN], size_t *count, const char *name)
{
    for (size_t i = 0; i < *count; i++)
        if (strcmp((*names)[i], name) == 0)
            return (int)i;
    if ((*count & (*count + 1)) == 0 || *count == 0) { /* grow at 1, 2, 4, 8 ... minus 1 */
        void *bigger = realloc(*names, (2 * *count + 2) * sizeof **names);
        if (!bigger)
            return -1;
        *names = bigger;
    }
    snprintf((*names)[*count], FABRIC_NAME_LEN, "%s", name);
    return (int)(*count)++;
}

/* Places every endpoint named host on the parser's current switch. */
static int place_host(const char *host, void *arg)
{
    struct parser *p = arg;
    struct key probe;
    snprintf(probe.name, sizeof probe.name, "%s", host);
    struct key *k = bsearch(&probe, p->keys, p->nkeys, sizeof *p->keys, key_cmp);
    if (!k)
        return 0; /* a node of the machine outside the job */
    while (k > p->keys && strcmp(k[-1].name, host) == 0)
        k--;
    for (; k < p->keys + p->nkeys && strcmp(k->name, host) == 0; k++) {
        int was = p->f->sw[k->endpoint];
        if (was >= 0 && was != p->current) {
            /* A node has one NIC's switch here: two is a damaged file,
             * and the last line's would be taken without a word. */
            fail(p, "%s is on switch %s and on %s", host, p->f->switch_names[was],
                 p->f->switch_names[p->current]);
            return -1;
        }
        if (was < 0)
            p->f->placed++;
        p->f->sw[k->endpoint] = p->current;
        p->f->group[k->endpoint] = p->current_group;
    }
    return 0;
}

/* Switches= of group `current`: the switches it lists get it as their group
 * (the first group that lists a switch keeps it). switch_group has room for
 * every switch named so far; -1 where none. */
struct group_pass {
    struct parser *p;
    int **switch_group;
    size_t *room;
};

static int group_switch(const char *name, void *arg)
{
    struct group_pass *g = arg;
    struct fabric *f = g->p->f;
    int s = intern(&f->switch_names, &f->nswitches, name);
    if (s < 0)
        return -1;
    if ((size_t)s >= *g->room) {
        size_t room = 2 * (size_t)s + 2;
        int *bigger = realloc(*g->switch_group, room * sizeof *bigger);
        if (!bigger)
            return -1;
        for (size_t i = *g->room; i < room; i++)
            bigger[i] = -1;
        *g->switch_group = bigger;
        *g->room = room;
    }
    if ((*g->switch_group)[s] < 0)
        (*g->switch_group)[s] = g->p->current;
    return 0;
}

/* The value of KEY= in a Slurm line (case-insensitive key), into out, which
 * has room for len bytes (a line's length is enough). */
static bool slurm_value(const char *line, const char *key, char *out, size_t len)
{
    size_t k = strlen(key);
    for (const char *p = line; *p;) {
        while (isspace((unsigned char)*p))
            p++;
        const char *end = p + strcspn(p, " \t\r\n");
        if ((size_t)(end - p) > k && strncasecmp(p, key, k) == 0 && p[k] == '=') {
            size_t v = (size_t)(end - p) - k - 1;
            if (v >= len)
                v = len - 1;
            memcpy(out, p + k + 1, v);
            out[v] = '\0';
            return true;
        }
        p = end;
    }
    return false;
}

/* The next line of *rest (cut at its newline and at a '#'), counted in
 * p->line; NULL after the last. */
static char *next_line(struct parser *p, char **rest)
{
    char *line = *rest;
    if (!line)
        return NULL;
    char *next = strchr(line, '\n');
    if (next)
        *next++ = '\0';
    *rest = next;
    p->line++;
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    return line;
}

static int parse_slurm(struct parser *p, char *text)
{
    struct fabric *f = p->f;
    int *switch_group = NULL;
    size_t room = 0;
    char name[FABRIC_NAME_LEN];
    char *list = malloc(strlen(text) + 1);
    if (!list)
        goto bad;
    p->current_group = -1;
    p->line = 0;
    for (char *line, *rest = text; (line = next_line(p, &rest)) != NULL;) {
        if (line[strspn(line, " \t\r")] == '\0')
            continue;
        size_t room_of_line = strlen(line) + 1;
        if (!slurm_value(line, "SwitchName", name, sizeof name) || !name[0]) {
            fail(p, "no SwitchName= (Slurm's topology.conf)");
            goto bad;
        }
        if (slurm_value(line, "Nodes", list, room_of_line)) {
            p->current = intern(&f->switch_names, &f->nswitches, name);
            if (p->current < 0 || fabric_hostlist(list, place_host, p)) {
                if (!p->err[0])
                    fail(p, "Nodes=%.40s is not a host list", list);
                goto bad;
            }
        }
        if (slurm_value(line, "Switches", list, room_of_line)) {
            p->current = intern(&f->group_names, &f->ngroups, name);
            struct group_pass g = {p, &switch_group, &room};
            if (p->current < 0 || fabric_hostlist(list, group_switch, &g)) {
                fail(p, "Switches=%.40s is not a switch list", list);
                goto bad;
            }
        }
    }
    /* A leaf no switch lists is a group of its own. */
    for (size_t e = 0; e < f->n; e++) {
        int s = f->sw[e];
        if (s < 0)
            continue;
        int g = (size_t)s < room ? switch_group[s] : -1;
        if (g < 0) {
            g = intern(&f->group_names, &f->ngroups, f->switch_names[s]);
            if (g < 0)
                goto bad;
            if ((size_t)s < room)
                switch_group[s] = g;
        }
        f->group[e] = g;
    }
    free(switch_group);
    free(list);
    return 0;
bad:
    if (!p->err[0])
        snprintf(p->err, p->errlen, "out of memory");
    free(switch_group);
    free(list);
    return -1;
}

/* Room in switch_group for the current switch (-1 where none yet). */
static int keep_group(struct parser *p)
{
    if ((size_t)p->current < p->room)
        return 0;
    size_t room = 2 * (size_t)p->current + 2;
    int *bigger = realloc(p->switch_group, room * sizeof *bigger);
    if (!bigger)
        return -1;
    for (size_t i = p->room; i < room; i++)
        bigger[i] = -1;
    p->switch_group = bigger;
    p->room = room;
    return 0;
}

static int parse_lines(struct parser *p, char *text)
{
    struct fabric *f = p->f;
    p->line = 0;
    for (char *line, *rest = text; (line = next_line(p, &rest)) != NULL;) {
        char host[FABRIC_NAME_LEN], sw[FABRIC_NAME_LEN], group[FABRIC_NAME_LEN], extra[2];
        int got = sscanf(line, "%63s %63s %63s %1s", host, sw, group, extra);
        if (got <= 0)
            continue;
        if (got == 1 || got == 4) {
            fail(p, "'%s': expected HOST SWITCH [GROUP]", host);
            return -1;
        }
        if (got == 2)
            snprintf(group, sizeof group, "%s", sw);
        p->current = intern(&f->switch_names, &f->nswitches, sw);
        p->current_group = intern(&f->group_names, &f->ngroups, group);
        if (p->current < 0 || p->current_group < 0 || keep_group(p)) {
            snprintf(p->err, p->errlen, "out of memory");
            return -1;
        }
        int was = p->switch_group[p->current];
        if (was >= 0 && was != p->current_group) {
            fail(p, "switch %s is in group %s and in %s", sw, f->group_names[was], group);
            return -1;
        }
        p->switch_group[p->current] = p->current_group;
        if (place_host(host, p))
            return -1;
    }
    return 0;
}

int fabric_parse(const char *text, const char *const *hosts, size_t n, struct fabric *f,
                 char *err, size_t errlen)
{
    err[0] = '\0';
    if (fabric_alloc(n, f)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct parser p = {f, NULL, 0, -1, -1, err, errlen, 0, NULL, 0};
    char *copy = strdup(text);
    int rc = -1;
    if (!copy || make_keys(&p, hosts, n)) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    bool slurm = strcasestr(text, "SwitchName=") != NULL;
    rc = slurm ? parse_slurm(&p, copy) : parse_lines(&p, copy);
    if (rc == 0 && f->placed == 0 && n > 0) {
        /* An empty file, or one of another machine: a run judged as if
         * it had no topology, under a name that says it had one. */
        snprintf(err, errlen, "places none of the job's %zu endpoints (HOST: a node's host "
                 "name, or @E for endpoint E)", n);
        rc = -1;
    }
out:
    free(copy);
    free(p.keys);
    free(p.switch_group);
    if (rc)
        fabric_free(f);
    return rc;
}

/* x<cabinet>c<chassis>s<slot>b<board>n<node>, alone or before a domain. */
static bool xname_of(const char *host, unsigned *cabinet, unsigned *chassis)
{
    unsigned slot, board, node;
    int used = 0;
    if (host[0] != 'x' || !isdigit((unsigned char)host[1]) ||
        sscanf(host, "x%uc%us%ub%un%u%n", cabinet, chassis, &slot, &board, &node, &used) != 5)
        return false;
    return host[used] == '\0' || host[used] == '.';
}

int fabric_from_xnames(const char *const *hosts, size_t n, struct fabric *f, char *err,
                       size_t errlen)
{
    /* As the lines of a file: one parser, one set of checks. */
    size_t cap = n * (FABRIC_NAME_LEN + 48) + 1, used = 0;
    char *text = malloc(cap);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    text[0] = '\0';
    for (size_t e = 0; e < n; e++) {
        unsigned cabinet, chassis;
        if (xname_of(hosts[e], &cabinet, &chassis))
            used += (size_t)snprintf(text + used, cap - used, "%.*s x%uc%u x%u\n",
                                     FABRIC_NAME_LEN - 1, hosts[e], cabinet, chassis, cabinet);
    }
    if (used == 0) {
        free(text);
        snprintf(err, errlen, "no host name is an HPE Cray xname (x1000c0s0b0n0): give "
                 "--topology=FILE");
        return -1;
    }
    int rc = fabric_parse(text, hosts, n, f, err, errlen);
    free(text);
    return rc;
}
