/* opt: strict table-driven option parsing; see opt.h. */
#include "opt.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "out.h"
#include "report.h"
#include "version.h"

/* Marks a negative number so getopt treats it as a positional argument. */
#define NEG_MARK '\x01'

static int fail(char *err, size_t errlen, const char *fmt, const char *what, const char *text)
{
    snprintf(err, errlen, fmt, what, text);
    return -1;
}

/* Checks the text is a plain optionally signed decimal integer. */
static int check_integer_text(const char *text, const char *what, bool allow_sign,
                              char *err, size_t errlen)
{
    const char *p = text;
    if (*p == '\0')
        return fail(err, errlen, "invalid %s '%s': empty", what, text);
    if (*p == '+' || (allow_sign && *p == '-'))
        p++;
    if (!isdigit((unsigned char)*p)) {
        if (*text == '-' && !allow_sign)
            return fail(err, errlen, "invalid %s '%s': must not be negative", what, text);
        return fail(err, errlen, "invalid %s '%s': not a number", what, text);
    }
    while (isdigit((unsigned char)*p))
        p++;
    if (*p != '\0')
        return fail(err, errlen, "invalid %s '%s': trailing characters after the number",
                    what, text);
    return 0;
}

int opt_to_size(const char *text, const char *what, size_t min, size_t max, size_t *out,
                char *err, size_t errlen)
{
    if (max == 0)
        max = SIZE_MAX;
    if (check_integer_text(text, what, false, err, errlen))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(text, NULL, 10);
    if (errno == ERANGE || v > max) {
        snprintf(err, errlen, "invalid %s '%s': too large (at most %zu)", what, text, max);
        return -1;
    }
    if (v < min) {
        snprintf(err, errlen, "invalid %s '%s': must be at least %zu", what, text, min);
        return -1;
    }
    *out = (size_t)v;
    return 0;
}

int opt_to_long(const char *text, const char *what, long long min, long long max,
                long long *out, char *err, size_t errlen)
{
    if (check_integer_text(text, what, true, err, errlen))
        return -1;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno == ERANGE || v > max) {
        snprintf(err, errlen, "invalid %s '%s': too large (at most %lld)", what, text, max);
        return -1;
    }
    if (v < min) {
        snprintf(err, errlen, "invalid %s '%s': too small (at least %lld)", what, text, min);
        return -1;
    }
    *out = v;
    return 0;
}

int opt_env_rank(const char *name, int fallback)
{
    const char *text = getenv(name);
    long long v;
    char err[128];
    if (!text || opt_to_long(text, name, 0, INT_MAX, &v, err, sizeof err) != 0)
        return fallback;
    return (int)v;
}

int opt_to_double(const char *text, const char *what, bool allow_zero, double *out,
                  char *err, size_t errlen)
{
    char *end = NULL;
    if (*text == '\0')
        return fail(err, errlen, "invalid %s '%s': empty", what, text);
    errno = 0;
    double v = strtod(text, &end);
    /* Decimal only: strtod also reads hexadecimal (0x10 is 16), "inf" and
     * "nan", which nobody means by a time or a count. */
    size_t decimal = strspn(text, "0123456789.eE+-");
    if (end == text || (size_t)(end - text) > decimal)
        return fail(err, errlen, "invalid %s '%s': not a number", what, text);
    if (*end != '\0')
        return fail(err, errlen, "invalid %s '%s': trailing characters after the number",
                    what, text);
    if (errno == ERANGE || !isfinite(v))
        return fail(err, errlen, "invalid %s '%s': out of range", what, text);
    if (v < 0 || (v == 0 && !allow_zero))
        return fail(err, errlen, allow_zero ? "invalid %s '%s': must not be negative"
                                            : "invalid %s '%s': must be positive",
                    what, text);
    *out = v;
    return 0;
}

int opt_to_range(const char *text, const char *what, size_t *min_out, size_t *max_out,
                 char *err, size_t errlen)
{
    const char *colon = strchr(text, ':');
    size_t lo = *min_out, hi = *max_out;
    if (colon) {
        char head[64];
        size_t n = (size_t)(colon - text);
        if (n == 0 && colon[1] == '\0')
            return fail(err, errlen, "invalid %s '%s': empty range (MAX, MIN:MAX or MIN:)",
                        what, text);
        if (n >= sizeof head)
            return fail(err, errlen, "invalid %s '%s': too long", what, text);
        memcpy(head, text, n);
        head[n] = '\0';
        if (n > 0 && opt_to_size(head, what, 0, 0, &lo, err, errlen))
            return -1;
        /* "MIN:" keeps the maximum as it was (the default). */
        if (colon[1] != '\0' && opt_to_size(colon + 1, what, 0, 0, &hi, err, errlen))
            return -1;
    } else if (opt_to_size(text, what, 0, 0, &hi, err, errlen)) {
        return -1;
    }
    if (lo > hi) {
        snprintf(err, errlen, "invalid %s '%s': minimum %zu is above maximum %zu", what, text,
                 lo, hi);
        return -1;
    }
    *min_out = lo;
    *max_out = hi;
    return 0;
}

static const char *spec_name(const struct opt_spec *s, char *buf, size_t len)
{
    if (s->long_name)
        snprintf(buf, len, "--%s", s->long_name);
    else
        snprintf(buf, len, "-%c", s->short_name);
    return buf;
}

static int apply(const struct opt_spec *s, const char *arg, char *err, size_t errlen)
{
    char name[64];
    spec_name(s, name, sizeof name);
    switch (s->kind) {
    case OPT_FLAG:
        *(bool *)s->dest = true;
        return 0;
    case OPT_SIZE: {
        char what[96];
        snprintf(what, sizeof what, "value for %s", name);
        return opt_to_size(arg, what, s->min, s->max, (size_t *)s->dest, err, errlen);
    }
    case OPT_DOUBLE: {
        char what[96];
        double v;
        snprintf(what, sizeof what, "value for %s", name);
        if (opt_to_double(arg, what, s->allow_zero, &v, err, errlen))
            return -1;
        if (s->max && v > (double)s->max) {
            snprintf(err, errlen, "invalid %s '%s': too large (at most %zu)", what, arg, s->max);
            return -1;
        }
        *(double *)s->dest = v;
        return 0;
    }
    case OPT_STRING:
        if (*arg == '\0') {
            snprintf(err, errlen, "empty value for %s", name);
            return -1;
        }
        *(const char **)s->dest = arg;
        return 0;
    case OPT_CHOICE:
        for (int i = 0; s->choices[i]; i++) {
            if (strcmp(arg, s->choices[i]) == 0) {
                *(int *)s->dest = i;
                return 0;
            }
        }
        {
            size_t used = (size_t)snprintf(err, errlen, "invalid value '%s' for %s (choose from", arg, name);
            for (int i = 0; s->choices[i] && used < errlen; i++)
                used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "",
                                         s->choices[i]);
            if (used < errlen)
                snprintf(err + used, errlen - used, ")");
        }
        return -1;
    case OPT_CUSTOM: {
        char inner[200] = "";
        if (s->parse(arg, s->dest, inner, sizeof inner) == 0)
            return 0;
        snprintf(err, errlen, "invalid value '%s' for %s: %s", arg, name, inner);
        return -1;
    }
    }
    return -1;
}

/* --stats and --samples where the program keeps no per-iteration values,
 * and --samples without JSON to carry them. */
static void check_output_options(const struct opt_usage *usage, struct opt_result *r)
{
    const char *no_stats = usage ? usage->no_stats : NULL;
    const char *no_samples = usage && usage->no_samples ? usage->no_samples : no_stats;
    if (r->stats && no_stats)
        snprintf(r->message, sizeof r->message, "--stats: %s", no_stats);
    else if (r->samples && no_samples)
        snprintf(r->message, sizeof r->message, "--samples: %s", no_samples);
    else if (r->samples && r->format != REPORT_JSONL)
        snprintf(r->message, sizeof r->message,
                 "--samples adds each row's per-iteration values to its JSON object: use it "
                 "with --format=jsonl");
    else
        return;
    r->status = OPT_ERROR;
}

static bool looks_negative_number(const char *a)
{
    return a[0] == '-' && (isdigit((unsigned char)a[1]) ||
                           (a[1] == '.' && isdigit((unsigned char)a[2])));
}

enum opt_status opt_parse(int argc, char **argv, const struct opt_spec *specs, size_t nspecs,
                          const struct opt_usage *usage, struct opt_result *result)
{
    enum { HELP_ID = 1000, VERSION_ID, FORMAT_ID, STATS_ID, SAMPLES_ID, LONG_BASE = 2000 };
    struct option longs[nspecs + 6];
    char shorts[3 * nspecs + 9];
    size_t nl = 0, ns = 0;
    shorts[ns++] = ':'; /* report missing arguments as ':' */
    shorts[ns++] = 'h';
    if (usage && usage->v_is_version)
        shorts[ns++] = 'v';
    for (size_t i = 0; i < nspecs; i++) {
        int has_arg = specs[i].kind == OPT_FLAG ? no_argument : required_argument;
        if (specs[i].long_name)
            longs[nl++] = (struct option){specs[i].long_name, has_arg, NULL, (int)(LONG_BASE + i)};
        if (specs[i].short_name) {
            shorts[ns++] = (char)specs[i].short_name;
            if (has_arg == required_argument)
                shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';
    longs[nl++] = (struct option){"help", no_argument, NULL, HELP_ID};
    longs[nl++] = (struct option){"version", no_argument, NULL, VERSION_ID};
    longs[nl++] = (struct option){"format", required_argument, NULL, FORMAT_ID};
    longs[nl++] = (struct option){"stats", no_argument, NULL, STATS_ID};
    longs[nl++] = (struct option){"samples", no_argument, NULL, SAMPLES_ID};
    longs[nl] = (struct option){NULL, 0, NULL, 0};

    result->status = OPT_OK;
    result->message[0] = '\0';
    result->first_positional = argc;
    result->argv = argv;
    result->argc = argc;
    result->format = REPORT_TEXT;
    result->stats = result->samples = false;
    for (size_t i = 0; i < OPT_MAX_SPECS; i++)
        result->given[i] = NULL;

    /* Negative numbers stay positional (seed arguments where a non-positive
     * value means "use the default"): while getopt runs they are replaced by
     * a two-byte tag that does not start with '-', then restored. */
    char *originals[argc > 0 ? argc : 1];
    char tags[argc > 0 ? argc : 1][3];
    int ntags = 0;
    if (usage && usage->negative_positionals) {
        for (int i = 1; i < argc && ntags < 255; i++) {
            if (looks_negative_number(argv[i])) {
                originals[ntags] = argv[i];
                tags[ntags][0] = NEG_MARK;
                tags[ntags][1] = (char)(ntags + 1);
                tags[ntags][2] = '\0';
                argv[i] = tags[ntags++];
            }
        }
    }

    opterr = 0;
    optind = 0; /* GNU: full re-initialisation, so opt_parse can run again */
    int c;
    while (result->status == OPT_OK && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        const struct opt_spec *s = NULL;
        if (c == HELP_ID || c == 'h') { /* -h is always help */
            result->status = OPT_HELP;
            break;
        }
        if (c == VERSION_ID || (c == 'v' && usage && usage->v_is_version)) {
            result->status = OPT_VERSION;
            break;
        }
        if (c == FORMAT_ID) {
            static const struct opt_spec format = {.long_name = "format", .kind = OPT_CHOICE,
                                                   .choices = report_format_names};
            struct opt_spec spec = format;
            spec.dest = &result->format;
            if (apply(&spec, optarg, result->message, sizeof result->message))
                result->status = OPT_ERROR;
            continue;
        }
        if (c == STATS_ID || c == SAMPLES_ID) {
            *(c == STATS_ID ? &result->stats : &result->samples) = true;
            continue;
        }
        if (c == '?') {
            /* A long option that takes no value given one (--stats=1):
             * optopt is then its number, which is no character. */
            const char *flag = NULL;
            for (size_t i = 0; optopt >= HELP_ID && i < nl && !flag; i++)
                if (longs[i].val == optopt)
                    flag = longs[i].name;
            if (flag)
                snprintf(result->message, sizeof result->message, "option '--%s' takes no value",
                         flag);
            else if (optopt)
                snprintf(result->message, sizeof result->message, "unknown option '-%c'", optopt);
            else
                snprintf(result->message, sizeof result->message, "unknown option '%s'",
                         argv[optind - 1]);
            result->status = OPT_ERROR;
            break;
        }
        if (c == ':') {
            if (optopt > 0 && optopt < HELP_ID) /* a short option: a character */
                snprintf(result->message, sizeof result->message,
                         "option '-%c' needs a value", optopt);
            else
                snprintf(result->message, sizeof result->message, "option '%s' needs a value",
                         argv[optind - 1]);
            result->status = OPT_ERROR;
            break;
        }
        if (c >= LONG_BASE)
            s = &specs[c - LONG_BASE];
        else
            for (size_t i = 0; i < nspecs && !s; i++)
                if (specs[i].short_name == c)
                    s = &specs[i];
        if (!s) {
            snprintf(result->message, sizeof result->message, "unknown option '-%c'", c);
            result->status = OPT_ERROR;
            break;
        }
        const char *arg = optarg;
        if (arg && arg[0] == NEG_MARK && ntags) /* "-i -4": a negative value, not a positional */
            arg = originals[(unsigned char)arg[1] - 1];
        if (apply(s, arg, result->message, sizeof result->message))
            result->status = OPT_ERROR;
        if ((size_t)(s - specs) < OPT_MAX_SPECS)
            result->given[s - specs] = arg ? arg : "";
    }
    if (result->status == OPT_OK)
        check_output_options(usage, result);
    if (result->status == OPT_OK)
        result->first_positional = optind;

    for (int i = 1; i < argc && ntags; i++)
        if (argv[i][0] == NEG_MARK)
            argv[i] = originals[(unsigned char)argv[i][1] - 1];
    return result->status;
}

void opt_print_help(void *stream, const char *prog, const struct opt_spec *specs, size_t nspecs,
                    const struct opt_usage *usage)
{
    FILE *f = stream;
    fprintf(f, "Usage: %s %s\n", prog, usage && usage->synopsis ? usage->synopsis : "[options]");
    if (usage && usage->description)
        fprintf(f, "\n%s\n", usage->description);
    fprintf(f, "\nOptions:\n");
    for (size_t i = 0; i < nspecs; i++) {
        char left[96];
        const struct opt_spec *s = &specs[i];
        const char *mv = s->kind == OPT_FLAG ? "" : (s->metavar ? s->metavar : "VALUE");
        if (s->short_name && s->long_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", s->short_name, s->long_name,
                     *mv ? "=" : "", mv);
        else if (s->short_name)
            snprintf(left, sizeof left, "-%c%s%s", s->short_name, *mv ? " " : "", mv);
        else
            snprintf(left, sizeof left, "    --%s%s%s", s->long_name, *mv ? "=" : "", mv);
        fprintf(f, "  %-28s %s\n", left, s->help ? s->help : "");
    }
    fprintf(f, "  %-28s %s\n", "    --format=text|jsonl",
            "output: text (default), or JSON Lines (doc/jsonl.md)");
    const char *no_stats = usage ? usage->no_stats : NULL;
    if (no_stats) {
        fprintf(f, "  %-28s refused here: %s\n", "    --stats, --samples", no_stats);
    } else {
        fprintf(f, "  %-28s %s\n", "    --stats",
                "add median, P5, P95 and CV of the iterations to each row");
        if (usage && usage->no_samples)
            fprintf(f, "  %-28s refused here: %s\n", "    --samples", usage->no_samples);
        else
            fprintf(f, "  %-28s %s\n", "    --samples",
                    "with --format=jsonl: each row's per-iteration values");
    }
    fprintf(f, "  %-28s %s\n", "-h, --help", "print this help and exit");
    fprintf(f, "  %-28s %s\n", usage && usage->v_is_version ? "-v, --version" : "    --version",
            "print the version and exit");
}

/* Every option's value (aliases, which share a destination, once) and the
 * positional arguments, into the JSON header. */
static void record_options(const struct opt_spec *specs, size_t nspecs, const struct opt_result *r)
{
    for (size_t i = 0; i < nspecs; i++) {
        const struct opt_spec *s = &specs[i];
        bool alias = false;
        for (size_t k = 0; k < i && !alias; k++)
            alias = s->dest && specs[k].dest == s->dest;
        if (alias)
            continue;
        char letter[2] = {(char)s->short_name, '\0'};
        const char *name = s->long_name ? s->long_name : letter;
        switch (s->kind) {
        case OPT_FLAG:
            report_option_bool(name, *(const bool *)s->dest);
            break;
        case OPT_SIZE: {
            size_t v = *(const size_t *)s->dest;
            if (v == SIZE_MAX) /* unset: the program's rule decides */
                report_option_string(name, NULL);
            else
                report_option_size(name, v);
            break;
        }
        case OPT_DOUBLE:
            report_option_double(name, *(const double *)s->dest);
            break;
        case OPT_STRING:
            report_option_string(name, *(const char *const *)s->dest);
            break;
        case OPT_CHOICE: {
            int v = *(const int *)s->dest;
            report_option_string(name, v >= 0 ? s->choices[v] : NULL);
            break;
        }
        case OPT_CUSTOM:
            report_option_string(name, i < OPT_MAX_SPECS ? r->given[i] : NULL);
            break;
        }
    }
    for (int i = r->first_positional; i < r->argc; i++)
        report_positional(r->argv[i]);
}

int opt_parse_or_exit(int argc, char **argv, const struct opt_spec *specs, size_t nspecs,
                      const struct opt_usage *usage)
{
    struct opt_result r;
    opt_parse(argc, argv, specs, nspecs, usage, &r);
    return opt_result_or_exit(&r, specs, nspecs, usage);
}

int opt_result_or_exit(const struct opt_result *r, const struct opt_spec *specs, size_t nspecs,
                       const struct opt_usage *usage)
{
    switch (r->status) {
    case OPT_OK: {
        struct report_config config = {(enum report_format)r->format, r->stats, r->samples,
                                       usage ? usage->family : NULL};
        report_configure(&config);
        if (report_jsonl()) {
            record_options(specs, nspecs, r);
            report_environment();
        }
        return r->first_positional;
    }
    case OPT_HELP:
        errno = 0;
        if (out_is_printer())
            opt_print_help(stdout, err_program(), specs, nspecs, usage);
        err_write_check(stdout, ERR_STDOUT_NAME);
        err_finish(ERR_STATUS_OK);
    case OPT_VERSION:
        errno = 0;
        if (out_is_printer())
            printf("%s (commsweep) %s\n", err_program(), COMMSWEEP_VERSION);
        err_write_check(stdout, ERR_STDOUT_NAME);
        err_finish(ERR_STATUS_OK);
    case OPT_ERROR:
        break;
    }
    err_usage("%s (try --help)", r->message);
}

size_t opt_positional_or_exit(const char *text, const char *what, size_t max, size_t fallback)
{
    long long v;
    char err[200];
    long long top = max > (size_t)LLONG_MAX ? LLONG_MAX : (long long)max;
    if (opt_to_long(text, what, LLONG_MIN, top, &v, err, sizeof err))
        err_usage("%s (try --help)", err);
    return v <= 0 ? fallback : (size_t)v;
}
