/* cpm_mutate: the model files of the CPM fuzz test (tests/integration/cpm_fuzz.sh).
 *   cpm_mutate seeds DIR
 *       writes valid models of every kind with libcpm's own writers:
 *       DIR/Hockney.model, LinInterp.model, PLogP.model, LMO.model (4
 *       processes, heterogeneous) and LMOh.model (3, homogeneous);
 *   cpm_mutate mutate SEED FIRST COUNT OUTDIR INPUT...
 *       writes COUNT damaged copies OUTDIR/K.model, K = FIRST ..
 *       FIRST+COUNT-1, of the inputs in turn, and one line per file on
 *       stdout: "K INPUT MUTATION[,MUTATION...] NP", NP the process count
 *       the file declares (0 when it declares none in range). File K
 *       depends only on SEED, K and its input, so a failure reproduces alone.
 * The damage is what a disk, a transfer or a hand edit does to a text file
 * and what a reader must refuse or survive: truncation, lines duplicated,
 * dropped or swapped, declared counts made huge, numbers negated, scaled
 * or swapped, NaN, infinities and 1e308, binary junk, NUL bytes inside
 * numbers, very long lines. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_plogp.h"

/* ---- seed models ---- */

enum { SEED_N = 4 };

static void write_or_die(const char *dir, const char *name, const struct cpm_model_kind *kind,
                         const void *model)
{
    char path[4096], err[400];
    snprintf(path, sizeof path, "%s/%s.model", dir, name);
    if (cpm_model_write_file(path, kind, model, err, sizeof err) != 0) {
        fprintf(stderr, "cpm_mutate: %s\n", err);
        exit(1);
    }
}

/* One-way time of pair (i, j) at s bytes: the link 0 - (n-1) ten times slower. */
static double seed_time(int n, int i, int j, double s)
{
    double slow = i == 0 && j == n - 1 ? 10.0 : 1.0;
    return 2e-5 + 1e-6 * j + s * slow * (1e-9 + 1e-10 * (i + j));
}

static void write_seeds(const char *dir)
{
    const double sizes[] = {0, 1024, 65536, 1048576};
    struct cpm_hockney *h = cpm_hockney_alloc(SEED_N);
    struct cpm_lininterp *l = cpm_lininterp_alloc(SEED_N, 4);
    struct cpm_plogp *p = cpm_plogp_alloc(SEED_N, 3);
    struct cpm_lmo *lmo = cpm_lmo_alloc(SEED_N, false), *hom = cpm_lmo_alloc(3, true);
    if (!h || !l || !p || !lmo || !hom) {
        fprintf(stderr, "cpm_mutate: out of memory\n");
        exit(1);
    }
    memcpy(l->sizes, sizes, sizeof sizes);
    memcpy(p->sizes, sizes, 3 * sizeof *sizes);
    for (size_t k = 0; k < cpm_pairs(SEED_N); k++) {
        int i, j;
        cpm_pair_at(SEED_N, k, &i, &j);
        h->a[k] = seed_time(SEED_N, i, j, 0);
        h->b[k] = seed_time(SEED_N, i, j, 1) - h->a[k];
        for (int s = 0; s < 4; s++)
            l->times[k * 4 + (size_t)s] = seed_time(SEED_N, i, j, sizes[s]);
        struct cpm_plogp_pair *q = &p->pairs[k];
        q->L = 1e-5 + 1e-6 * j;
        for (int s = 0; s < 3; s++) {
            q->os[s] = 1e-6 + 2e-10 * sizes[s];
            q->orecv[s] = 1e-6 + 3e-10 * sizes[s];
            q->g[s] = seed_time(SEED_N, i, j, sizes[s]) - 1.8e-5;
        }
        /* Link terms below 0, as the LMO solver keeps them, with sums above. */
        lmo->L[k] = k % 2 ? -5e-7 : 1e-5;
        lmo->inv_beta[k] = k % 3 ? 1e-9 * (1 + (double)k) : -5e-11;
    }
    for (int v = 0; v < SEED_N; v++) {
        lmo->C[v] = 1e-6 * (1 + v % 2);
        lmo->t[v] = 1e-10 * (1 + v % 3);
    }
    lmo->S = 8192;
    lmo->M1 = 4096;
    lmo->M2 = 65536;
    lmo->one2many_small[0] = 3e-5;
    lmo->one2many_small[1] = 2e-9;
    lmo->many2one_large[0] = -1e-6;
    lmo->many2one_large[1] = 4e-9;
    hom->C[0] = 2e-6;
    hom->t[0] = 1e-10;
    hom->L[0] = 1.5e-5;
    hom->inv_beta[0] = 1e-9;
    write_or_die(dir, "Hockney", &cpm_hockney_kind, h);
    write_or_die(dir, "LinInterp", &cpm_lininterp_kind, l);
    write_or_die(dir, "PLogP", &cpm_plogp_kind, p);
    write_or_die(dir, "LMO", &cpm_lmo_kind, lmo);
    write_or_die(dir, "LMOh", &cpm_lmo_kind, hom);
    cpm_hockney_free(h);
    cpm_lininterp_free(l);
    cpm_plogp_free(p);
    cpm_lmo_free(lmo);
    cpm_lmo_free(hom);
}

/* ---- mutations ---- */

/* splitmix64: small, and the same sequence everywhere. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}
static size_t rng_below(uint64_t *state, size_t n) { return n ? (size_t)(rng_next(state) % n) : 0; }

struct buf {
    char *b;
    size_t len, cap;
};

static void buf_reserve(struct buf *b, size_t more)
{
    if (b->len + more <= b->cap)
        return;
    size_t cap = 2 * (b->len + more);
    char *p = realloc(b->b, cap);
    if (!p) {
        fprintf(stderr, "cpm_mutate: out of memory\n");
        exit(1);
    }
    b->b = p;
    b->cap = cap;
}

/* Replaces b[at, at + cut) by n bytes of text. */
static void buf_splice(struct buf *b, size_t at, size_t cut, const char *text, size_t n)
{
    buf_reserve(b, n);
    memmove(b->b + at + n, b->b + at + cut, b->len - at - cut);
    memcpy(b->b + at, text, n);
    b->len = b->len - cut + n;
}

/* Swaps two disjoint ranges of b. */
static void buf_swap(struct buf *b, size_t at, size_t len, size_t at2, size_t len2)
{
    if (at2 < at) {
        buf_swap(b, at2, len2, at, len);
        return;
    }
    char *first = malloc(len + 1), *second = malloc(len2 + 1);
    if (!first || !second)
        exit(1);
    memcpy(first, b->b + at, len);
    memcpy(second, b->b + at2, len2);
    /* The later range first, so the earlier one's place holds. */
    buf_splice(b, at2, len2, first, len);
    buf_splice(b, at, len, second, len2);
    free(first);
    free(second);
}

static int is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }
static int is_numeric(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '.'; }

/* Start and length of the k-th of the tokens that start numeric (all
 * tokens when numeric is 0); returns 0 when there is none. */
static int pick_token(const struct buf *b, uint64_t *rng, int numeric, size_t *at, size_t *len)
{
    size_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t want = pass ? rng_below(rng, count) : 0, seen = 0;
        for (size_t k = 0; k < b->len;) {
            if (is_space(b->b[k])) {
                k++;
                continue;
            }
            size_t start = k;
            while (k < b->len && !is_space(b->b[k]))
                k++;
            if (numeric && !is_numeric(b->b[start]))
                continue;
            if (pass && seen == want) {
                *at = start;
                *len = k - start;
                return 1;
            }
            seen++;
        }
        count = seen;
        if (!count)
            return 0;
    }
    return 0;
}

/* Start and length (with its newline) of a random line. */
static int pick_line(const struct buf *b, uint64_t *rng, size_t *at, size_t *len)
{
    size_t lines = 0;
    for (size_t k = 0; k < b->len; k++)
        lines += b->b[k] == '\n';
    if (b->len && b->b[b->len - 1] != '\n')
        lines++;
    if (!lines)
        return 0;
    size_t want = rng_below(rng, lines), k = 0;
    for (size_t line = 0; line < want; k++)
        if (b->b[k] == '\n')
            line++;
    *at = k;
    while (k < b->len && b->b[k] != '\n')
        k++;
    *len = k - *at + (k < b->len);
    return 1;
}

static const char *const huge_counts[] = {"0", "-1", "2000", "65536", "1048576", "1048577",
                                          "2147483648", "99999999999999999999"};
static const char *const odd_values[] = {"nan", "NaN", "inf", "-inf", "1e308", "-1e308",
                                         "1e309", "1e-400", "0x1p1023", "3601", "1e4", "0",
                                         "-0", "1e-300", "none"};
static const char *const words[] = {"pair", "link", "sizes", "points", "model", "processes",
                                    "os", "g", "none", "x", "#", "C"};
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Applies one mutation chosen by the generator; returns its name. */
static const char *mutate_once(struct buf *b, uint64_t *rng)
{
    size_t at = 0, len = 0, at2 = 0, len2 = 0;
    char text[64];
    switch (rng_below(rng, 14)) {
    case 0:
        b->len = rng_below(rng, b->len + 1);
        return "truncated";
    case 1:
        if (!pick_line(b, rng, &at, &len))
            return "none";
        {
            char *copy = malloc(len + 1);
            if (!copy)
                exit(1);
            memcpy(copy, b->b + at, len);
            buf_splice(b, at, 0, copy, len);
            free(copy);
        }
        return "duplicated-line";
    case 2:
        if (!pick_line(b, rng, &at, &len))
            return "none";
        buf_splice(b, at, len, "", 0);
        return "dropped-line";
    case 3:
        if (!pick_line(b, rng, &at, &len) || !pick_line(b, rng, &at2, &len2) || at == at2)
            return "none";
        buf_swap(b, at, len, at2, len2);
        return "swapped-lines";
    case 4: {
        const char *key = rng_below(rng, 2) ? "points " : "processes ";
        char *where = memmem(b->b, b->len, key, strlen(key));
        if (!where)
            return "none";
        at = (size_t)(where - b->b) + strlen(key);
        len = 0;
        while (at + len < b->len && !is_space(b->b[at + len]))
            len++;
        const char *v = huge_counts[rng_below(rng, COUNT_OF(huge_counts))];
        buf_splice(b, at, len, v, strlen(v));
        return key[0] == 'p' && key[1] == 'o' ? "huge-points" : "huge-processes";
    }
    case 5:
        if (!pick_token(b, rng, 1, &at, &len))
            return "none";
        if (b->b[at] == '-')
            buf_splice(b, at, 1, "", 0);
        else
            buf_splice(b, at, 0, "-", 1);
        return "negated";
    case 6: {
        if (!pick_token(b, rng, 1, &at, &len))
            return "none";
        const char *v = odd_values[rng_below(rng, COUNT_OF(odd_values))];
        buf_splice(b, at, len, v, strlen(v));
        return "odd-value";
    }
    case 7: {
        size_t n = 1 + rng_below(rng, 64);
        char junk[64];
        for (size_t k = 0; k < n; k++)
            junk[k] = (char)rng_below(rng, 256);
        buf_splice(b, rng_below(rng, b->len + 1), 0, junk, n);
        return "binary-junk";
    }
    case 8:
        if (!pick_token(b, rng, 1, &at, &len))
            return "none";
        buf_splice(b, at + 1 + rng_below(rng, len), 0, "\0", 1);
        return "nul-in-number";
    case 9: {
        static const char fill[] = "9 #a";
        size_t n = 50000 + rng_below(rng, 100000);
        char c = fill[rng_below(rng, 4)];
        char *line = malloc(n + 1);
        if (!line)
            exit(1);
        memset(line, c, n);
        line[n] = '\n';
        buf_splice(b, rng_below(rng, b->len + 1), 0, line, n + 1);
        free(line);
        return "long-line";
    }
    case 10:
        if (!b->len)
            return "none";
        b->b[rng_below(rng, b->len)] ^= (char)(1u << rng_below(rng, 8));
        return "flipped-bit";
    case 11:
        if (!pick_token(b, rng, 1, &at, &len) || !pick_token(b, rng, 1, &at2, &len2) ||
            at == at2)
            return "none";
        buf_swap(b, at, len, at2, len2);
        return "swapped-numbers";
    case 12: {
        if (!pick_token(b, rng, 1, &at, &len) || len >= sizeof text)
            return "none";
        memcpy(text, b->b + at, len);
        text[len] = '\0';
        char scaled[96];
        int power = (int)rng_below(rng, 25) - 12;
        snprintf(scaled, sizeof scaled, "%.9g", strtod(text, NULL) * pow(10.0, power));
        buf_splice(b, at, len, scaled, strlen(scaled));
        return "scaled";
    }
    default: {
        if (!pick_token(b, rng, 0, &at, &len))
            return "none";
        const char *w = words[rng_below(rng, COUNT_OF(words))];
        buf_splice(b, at, len, w, strlen(w));
        return "word";
    }
    }
}

/* The count after the first "processes " when it is a plain number in
 * [1, CPM_MAX_PROCESSES], else 0: what prediction -n must say for the file
 * to reach the model's reader. */
static long declared_processes(const struct buf *b)
{
    const char *key = "\nprocesses ";
    const char *at = memmem(b->b, b->len, key, strlen(key));
    if (!at)
        return 0;
    long n = 0;
    for (at += strlen(key); at < b->b + b->len && *at >= '0' && *at <= '9'; at++)
        if ((n = 10 * n + (*at - '0')) > CPM_MAX_PROCESSES)
            return 0;
    return at < b->b + b->len && is_space(*at) ? n : 0;
}

static int read_file(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char chunk[4096];
    size_t got;
    b->len = 0;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_reserve(b, got);
        memcpy(b->b + b->len, chunk, got);
        b->len += got;
    }
    fclose(f);
    return 0;
}

static int mutate_files(uint64_t seed, size_t first, size_t count, const char *outdir,
                        char **inputs, size_t ninputs)
{
    struct buf b = {0};
    for (size_t k = first; k < first + count; k++) {
        const char *input = inputs[k % ninputs];
        if (read_file(input, &b) != 0) {
            fprintf(stderr, "cpm_mutate: cannot read %s\n", input);
            return 1;
        }
        /* Every file its own stream, so file k needs nothing but (seed, k). */
        uint64_t rng = seed ^ (0xD1B54A32D192ED03u * (k + 1));
        size_t n = 1 + rng_below(&rng, 3);
        printf("%zu %s ", k, input);
        for (size_t m = 0; m < n; m++)
            printf("%s%s", m ? "," : "", mutate_once(&b, &rng));
        printf(" %ld\n", declared_processes(&b));
        char path[4096];
        snprintf(path, sizeof path, "%s/%zu.model", outdir, k);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b.b, 1, b.len, f) != b.len || fclose(f) != 0) {
            fprintf(stderr, "cpm_mutate: cannot write %s\n", path);
            return 1;
        }
    }
    free(b.b);
    return 0;
}

static int usage(void)
{
    fprintf(stderr, "usage: cpm_mutate seeds DIR\n"
                    "       cpm_mutate mutate SEED FIRST COUNT OUTDIR INPUT...\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "seeds") == 0) {
        write_seeds(argv[2]);
        return 0;
    }
    if (argc < 7 || strcmp(argv[1], "mutate") != 0)
        return usage();
    char *end1, *end2, *end3;
    uint64_t seed = strtoull(argv[2], &end1, 0);
    size_t first = strtoull(argv[3], &end2, 10), count = strtoull(argv[4], &end3, 10);
    if (*end1 || *end2 || *end3)
        return usage();
    return mutate_files(seed, first, count, argv[5], argv + 6, (size_t)(argc - 6));
}
