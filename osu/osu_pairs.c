/* osu_pairs: files of "A, B" integer pairs; see osu_pairs.h. */
#include "osu_pairs.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infile.h"
#include "opt.h"

void osu_pairs_trimmed(const char *begin, const char *end, char *out, size_t len)
{
    while (begin < end && (*begin == ' ' || *begin == '\t' || *begin == '\r'))
        begin++;
    while (end > begin && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    size_t n = (size_t)(end - begin);
    if (n >= len)
        n = len - 1;
    memcpy(out, begin, n);
    out[n] = '\0';
}

char *osu_pairs_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    char why[160];
    FILE *f = infile_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, why);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *text = malloc(cap + 1);
    while (text) {
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= max) {
            snprintf(err, errlen, "'%s' is larger than %zu bytes", path, max);
            free(text);
            fclose(f);
            return NULL;
        }
        char *more = realloc(text, 2 * cap + 1);
        if (!more)
            free(text);
        text = more;
        cap *= 2;
    }
    bool failed = !text || ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        snprintf(err, errlen, "cannot read '%s'", path);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

/* One "A, B" line (line .. end, where names it) into *p; 0, or -1 with err. */
static int parse_line(const char *line, const char *end, const char *where,
                      const struct osu_pairs_rule *rule, struct osu_pair *p, char *err,
                      size_t errlen)
{
    const char *comma = memchr(line, ',', (size_t)(end - line));
    if (!comma) {
        snprintf(err, errlen, "%s: expected \"%s, %s\"", where, rule->first, rule->second);
        return -1;
    }
    char first[64], second[64], what[160];
    osu_pairs_trimmed(line, comma, first, sizeof first);
    osu_pairs_trimmed(comma + 1, end, second, sizeof second);
    snprintf(what, sizeof what, "%s (%s)", rule->first, where);
    if (opt_to_size(first, what, rule->first_min, rule->first_max, &p->first, err, errlen))
        return -1;
    snprintf(what, sizeof what, "%s (%s)", rule->second, where);
    return opt_to_size(second, what, rule->second_min, rule->second_max, &p->second, err,
                       errlen);
}

int osu_pairs_parse(const char *text, size_t len, const char *name,
                    const struct osu_pairs_rule *rule, struct osu_pair **pairs, size_t *npairs,
                    char *err, size_t errlen)
{
    size_t cap = 16, n = 0;
    struct osu_pair *all = malloc(cap * sizeof *all);
    *pairs = NULL;
    *npairs = 0;
    if (!all) {
        snprintf(err, errlen, "out of memory reading %s", name);
        return -1;
    }
    const char *p = text, *stop = text + len;
    for (size_t line = 1; p < stop; line++) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        const char *end = eol ? eol : stop;
        char where[128], probe[4];
        snprintf(where, sizeof where, "%.100s line %zu", name, line);
        osu_pairs_trimmed(p, end, probe, sizeof probe);
        if (memchr(p, '\0', (size_t)(end - p))) {
            snprintf(err, errlen, "%s: a NUL byte", where);
            goto fail;
        }
        if (probe[0] != '\0' && probe[0] != '#') {
            if (n == rule->max_pairs) {
                snprintf(err, errlen, "%s: more than %zu %s", where, rule->max_pairs,
                         rule->plural);
                goto fail;
            }
            if (n == cap) {
                struct osu_pair *more = realloc(all, 2 * cap * sizeof *all);
                if (!more) {
                    snprintf(err, errlen, "out of memory reading %s", name);
                    goto fail;
                }
                all = more;
                cap *= 2;
            }
            char why[400];
            if (parse_line(p, end, where, rule, &all[n], why, sizeof why)) {
                snprintf(err, errlen, "%s", why);
                goto fail;
            }
            all[n++].line = line;
        }
        p = eol ? eol + 1 : stop;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s holds no \"%s, %s\" line", name, rule->first, rule->second);
        goto fail;
    }
    *pairs = all;
    *npairs = n;
    return 0;
fail:
    free(all);
    return -1;
}
