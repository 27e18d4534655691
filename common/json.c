/* json: JSON text builder; see json.h. */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json *j) { memset(j, 0, sizeof *j); }

void json_free(struct json *j)
{
    free(j->text);
    json_init(j);
}

void json_reset(struct json *j)
{
    j->len = 0;
    if (j->text)
        j->text[0] = '\0';
    j->depth = 0;
    j->has_item[0] = false;
    j->after_key = false;
    j->failed = false;
}

bool json_failed(const struct json *j) { return j->failed; }

static bool reserve(struct json *j, size_t more)
{
    if (j->failed)
        return false;
    if (j->len + more + 1 <= j->cap)
        return true;
    size_t cap = j->cap ? j->cap : 256;
    while (cap < j->len + more + 1)
        cap *= 2;
    char *text = realloc(j->text, cap);
    if (!text) {
        j->failed = true;
        return false;
    }
    j->text = text;
    j->cap = cap;
    return true;
}

static void put(struct json *j, const char *s, size_t n)
{
    if (!reserve(j, n))
        return;
    memcpy(j->text + j->len, s, n);
    j->len += n;
    j->text[j->len] = '\0';
}

/* The comma before a value (or a key), unless it follows its key. */
static void separate(struct json *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    if (j->depth > 0 && j->has_item[j->depth])
        put(j, ",", 1);
    if (j->depth > 0)
        j->has_item[j->depth] = true;
}

static void open_container(struct json *j, char c)
{
    separate(j);
    put(j, &c, 1);
    if (j->depth + 1 < JSON_MAX_DEPTH) {
        j->depth++;
        j->has_item[j->depth] = false;
    } else {
        j->failed = true; /* deeper than anything this suite writes */
    }
}

static void close_container(struct json *j, char c)
{
    put(j, &c, 1);
    if (j->depth > 0)
        j->depth--;
}

void json_object_begin(struct json *j) { open_container(j, '{'); }
void json_object_end(struct json *j) { close_container(j, '}'); }
void json_array_begin(struct json *j) { open_container(j, '['); }
void json_array_end(struct json *j) { close_container(j, ']'); }

/* Length of the UTF-8 sequence starting at s (at most n bytes), or 0 when
 * it is not a well-formed one (overlong forms and surrogates included). */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned min;
    unsigned long cp;
    if (c < 0x80)
        return 1;
    if ((c & 0xE0) == 0xC0)
        len = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0)
        len = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0)
        len = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

static void quoted(struct json *j, const char *s, size_t n)
{
    put(j, "\"", 1);
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n && u[i];) {
        unsigned char c = u[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(j, esc, 2);
            i++;
        } else if (c < 0x20) {
            static const char short_form[] = {['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n',
                                              ['\r'] = 'r', ['\t'] = 't'};
            if (c < sizeof short_form && short_form[c]) {
                esc[0] = '\\';
                esc[1] = short_form[c];
                put(j, esc, 2);
            } else {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                put(j, esc, 6);
            }
            i++;
        } else {
            size_t len = utf8_length(u + i, n - i);
            if (len == 0) {
                put(j, "\xEF\xBF\xBD", 3); /* U+FFFD for a byte that is not UTF-8 */
                i++;
            } else {
                put(j, s + i, len);
                i += len;
            }
        }
    }
    put(j, "\"", 1);
}

void json_key(struct json *j, const char *key)
{
    separate(j);
    quoted(j, key, strlen(key));
    put(j, ":", 1);
    j->after_key = true;
}

void json_string_n(struct json *j, const char *s, size_t n)
{
    separate(j);
    quoted(j, s, n);
}

void json_string(struct json *j, const char *s) { json_string_n(j, s, strlen(s)); }

static void literal(struct json *j, const char *text)
{
    separate(j);
    put(j, text, strlen(text));
}

void json_size(struct json *j, size_t v)
{
    char text[32];
    snprintf(text, sizeof text, "%zu", v);
    literal(j, text);
}

void json_int(struct json *j, long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    literal(j, text);
}

void json_double(struct json *j, double v)
{
    if (!isfinite(v)) {
        literal(j, "null");
        return;
    }
    char text[40];
    snprintf(text, sizeof text, "%.15g", v);
    if (strtod(text, NULL) != v)
        snprintf(text, sizeof text, "%.17g", v);
    literal(j, text);
}

void json_bool(struct json *j, bool v) { literal(j, v ? "true" : "false"); }
void json_null(struct json *j) { literal(j, "null"); }

void json_raw(struct json *j, const char *text, size_t len)
{
    separate(j);
    put(j, text, len);
}
