/* jsonv: JSON text to a tree of values; see jsonv.h. */
#include "jsonv.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const char *s;
    size_t len, pos;
    int depth;
    char *err;
    size_t errlen;
    bool failed;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
    if (p->failed) /* the first error is the one to report */
        return -1;
    p->failed = true;
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s at byte %zu", what, p->pos + 1);
    return -1;
}

static void skip_space(struct parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(const struct parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static int parse_value(struct parser *p, struct jsonv *v);

static int literal(struct parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, "expected a value");
    p->pos += n;
    return 0;
}

/* The number grammar of RFC 8259 (no '+', no leading zeros, digits on both
 * sides of '.'), then strtod on exactly that text. */
static int parse_number(struct parser *p, struct jsonv *v)
{
    size_t start = p->pos;
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0') {
        p->pos++;
    } else if (is_digit(peek(p))) {
        while (is_digit(peek(p)))
            p->pos++;
    } else {
        return fail(p, "expected a digit");
    }
    if (peek(p) == '.') {
        p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "expected a digit after '.'");
        while (is_digit(peek(p)))
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!is_digit(peek(p)))
            return fail(p, "expected a digit in the exponent");
        while (is_digit(peek(p)))
            p->pos++;
    }
    size_t n = p->pos - start;
    v->text = malloc(n + 1);
    if (!v->text)
        return fail(p, "out of memory");
    memcpy(v->text, p->s + start, n);
    v->text[n] = '\0';
    v->kind = JSONV_NUMBER;
    v->number = strtod(v->text, NULL); /* HUGE_VAL past the double range, as JSON allows */
    return 0;
}

static int hex4(struct parser *p, unsigned *out)
{
    if (p->len - p->pos < 4)
        return fail(p, "expected four hex digits");
    unsigned u = 0;
    for (int i = 0; i < 4; i++) {
        int c = (unsigned char)p->s[p->pos];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return fail(p, "expected a hex digit");
        u = u * 16 + d;
        p->pos++;
    }
    *out = u;
    return 0;
}

/* A \u escape (after the 'u'), with the second half of a surrogate pair,
 * as the code point. A lone surrogate has no UTF-8 form: U+FFFD. */
static int unicode_escape(struct parser *p, unsigned *cp)
{
    if (hex4(p, cp) != 0)
        return -1;
    if (*cp >= 0xDC00 && *cp <= 0xDFFF) {
        *cp = 0xFFFD;
    } else if (*cp >= 0xD800 && *cp <= 0xDBFF) {
        unsigned low;
        if (p->len - p->pos >= 6 && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
            size_t back = p->pos;
            p->pos += 2;
            if (hex4(p, &low) != 0)
                return -1;
            if (low >= 0xDC00 && low <= 0xDFFF) {
                *cp = 0x10000 + ((*cp - 0xD800) << 10) + (low - 0xDC00);
                return 0;
            }
            p->pos = back;
        }
        *cp = 0xFFFD;
    }
    return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string (after its opening quote) into a new buffer: an escape never
 * makes its text longer, so the raw length bounds the decoded one. */
static int parse_string(struct parser *p, char **out, size_t *outlen)
{
    size_t end = p->pos;
    while (end < p->len && p->s[end] != '"')
        end += p->s[end] == '\\' ? 2 : 1;
    char *buf = malloc((end > p->len ? p->len : end) - p->pos + 1);
    if (!buf)
        return fail(p, "out of memory");
    size_t n = 0;
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            free(buf);
            return fail(p, "unterminated string");
        }
        p->pos++;
        if (c == '"')
            break;
        if (c < 0x20) {
            p->pos--;
            free(buf);
            return fail(p, "control character in a string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            continue;
        }
        c = peek(p);
        p->pos++;
        unsigned cp;
        switch (c) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (unicode_escape(p, &cp) != 0) {
                free(buf);
                return -1;
            }
            n += put_utf8(buf + n, cp);
            break;
        default:
            p->pos--;
            free(buf);
            return fail(p, "unknown escape in a string");
        }
    }
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return 0;
}

/* Grows an array of items (and of keys, for an object) to hold one more. */
static int grow(struct parser *p, struct jsonv *v, size_t *cap)
{
    if (v->len < *cap)
        return 0;
    size_t ncap = *cap ? 2 * *cap : 8;
    struct jsonv *items = realloc(v->items, ncap * sizeof *items);
    if (!items)
        return fail(p, "out of memory");
    v->items = items;
    if (v->kind == JSONV_OBJECT) {
        char **keys = realloc(v->keys, ncap * sizeof *keys);
        if (!keys)
            return fail(p, "out of memory");
        v->keys = keys;
    }
    *cap = ncap;
    return 0;
}

/* An array or object after its opening bracket; close is ']' or '}'. */
static int parse_container(struct parser *p, struct jsonv *v, char close)
{
    if (++p->depth > JSONV_MAX_DEPTH)
        return fail(p, "nested deeper than %d", JSONV_MAX_DEPTH);
    v->kind = close == ']' ? JSONV_ARRAY : JSONV_OBJECT;
    size_t cap = 0;
    skip_space(p);
    if (peek(p) == close) {
        p->pos++;
        p->depth--;
        return 0;
    }
    for (;;) {
        if (grow(p, v, &cap) != 0)
            return -1;
        struct jsonv *item = &v->items[v->len];
        memset(item, 0, sizeof *item);
        if (v->kind == JSONV_OBJECT) {
            size_t klen;
            skip_space(p);
            if (peek(p) != '"')
                return fail(p, "expected a member name");
            p->pos++;
            if (parse_string(p, &v->keys[v->len], &klen) != 0)
                return -1;
            v->len++; /* the key is owned from here, the value may still fail */
            skip_space(p);
            if (peek(p) != ':')
                return fail(p, "expected ':'");
            p->pos++;
        } else {
            v->len++;
        }
        if (parse_value(p, item) != 0)
            return -1;
        skip_space(p);
        int c = peek(p);
        p->pos++;
        if (c == close)
            break;
        if (c != ',') {
            p->pos--;
            return fail(p, "expected ',' or '%c'", close);
        }
    }
    p->depth--;
    return 0;
}

static int parse_value(struct parser *p, struct jsonv *v)
{
    skip_space(p);
    int c = peek(p);
    switch (c) {
    case '{':
        p->pos++;
        return parse_container(p, v, '}');
    case '[':
        p->pos++;
        return parse_container(p, v, ']');
    case '"':
        p->pos++;
        v->kind = JSONV_STRING;
        return parse_string(p, &v->text, &v->len);
    case 't':
        v->kind = JSONV_BOOL;
        v->boolean = true;
        return literal(p, "true");
    case 'f':
        v->kind = JSONV_BOOL;
        return literal(p, "false");
    case 'n':
        return literal(p, "null");
    case -1:
        return fail(p, "unexpected end of the text");
    default:
        if (c == '-' || is_digit(c))
            return parse_number(p, v);
        return fail(p, "expected a value");
    }
}

int jsonv_parse(const char *text, size_t len, struct jsonv *out, char *err, size_t errlen)
{
    struct parser p = {.s = text, .len = len, .err = err, .errlen = errlen};
    memset(out, 0, sizeof *out);
    if (parse_value(&p, out) == 0) {
        skip_space(&p);
        if (p.pos == p.len)
            return 0;
        fail(&p, "text after the value");
    }
    jsonv_free(out);
    return -1;
}

void jsonv_free(struct jsonv *v)
{
    for (size_t i = 0; i < v->len && v->items; i++)
        jsonv_free(&v->items[i]);
    if (v->keys)
        for (size_t i = 0; i < v->len; i++)
            free(v->keys[i]);
    free(v->items);
    free(v->keys);
    free(v->text);
    memset(v, 0, sizeof *v);
}

const struct jsonv *jsonv_get(const struct jsonv *v, const char *key)
{
    if (!v || v->kind != JSONV_OBJECT)
        return NULL;
    for (size_t i = v->len; i-- > 0;)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

const char *jsonv_string(const struct jsonv *v, const char *key)
{
    const struct jsonv *m = jsonv_get(v, key);
    return m && m->kind == JSONV_STRING ? m->text : NULL;
}
