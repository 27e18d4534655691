/*
 * json: builds JSON text in a growing buffer, so that an object can be put
 * together piece by piece and written out whole (never half a line). It
 * owns the text and the commas: each value after the first of an object or
 * array gets its comma, keys and strings are escaped (control characters as
 * \u00XX, bytes that are not UTF-8 as U+FFFD, so the text is always valid
 * UTF-8), numbers that are not finite become null (JSON has no NaN).
 * Pure, no MPI. After an allocation fails the builder writes nothing more
 * and json_failed says so: its text is then not to be used.
 */
#ifndef COMMSWEEP_JSON_H
#define COMMSWEEP_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 16

struct json {
    char *text;  /* NUL-terminated when len > 0 */
    size_t len, cap;
    bool failed; /* an allocation failed */
    int depth;
    bool has_item[JSON_MAX_DEPTH]; /* the open container holds a value already */
    bool after_key;                /* a key was written, its value comes next */
};

void json_init(struct json *j);
void json_free(struct json *j);
/* Empties the text, keeping the memory. */
void json_reset(struct json *j);
bool json_failed(const struct json *j);

/* Containers; inside an object every value is preceded by json_key. */
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);

void json_string(struct json *j, const char *s);
/* At most n bytes of s (stops early at a NUL). */
void json_string_n(struct json *j, const char *s, size_t n);
void json_size(struct json *j, size_t v);
void json_int(struct json *j, long long v);
/* The shortest of %.15g and %.17g that reads back as v; null when v is not
 * finite. */
void json_double(struct json *j, double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* A value that is JSON text already (a whole value, e.g. another builder's). */
void json_raw(struct json *j, const char *text, size_t len);

#endif
