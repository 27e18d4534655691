/*
 * jsonv: reads JSON text into a tree of values, the reverse of json.h, for
 * the programs that read what the suite wrote (tools/compare reads JSON
 * Lines). Strict RFC 8259: one value, no trailing text, no comments, no
 * NaN; strings are decoded to UTF-8 (\uXXXX escapes and surrogate pairs
 * included), numbers to doubles (their text is kept too). Nesting deeper
 * than JSONV_MAX_DEPTH is refused rather than recursed into. Errors are a
 * message naming the byte where the text went wrong, never an exit. Pure,
 * no MPI. A tree owns its memory; jsonv_free releases it.
 */
#ifndef COMMSWEEP_JSONV_H
#define COMMSWEEP_JSONV_H

#include <stdbool.h>
#include <stddef.h>

#define JSONV_MAX_DEPTH 64

enum jsonv_kind { JSONV_NULL, JSONV_BOOL, JSONV_NUMBER, JSONV_STRING, JSONV_ARRAY, JSONV_OBJECT };

struct jsonv {
    enum jsonv_kind kind;
    bool boolean;
    double number;
    char *text;          /* a string's bytes, a number's text as written; NUL-terminated */
    size_t len;          /* items of an array or members of an object; bytes of a string */
    struct jsonv *items; /* array items, or member values */
    char **keys;         /* member names of an object */
};

/* Parses the one value that len bytes of text hold (whitespace around it
 * allowed). 0 on success; -1 with a message in err (which byte, what was
 * expected), *out then empty. */
int jsonv_parse(const char *text, size_t len, struct jsonv *out, char *err, size_t errlen);
void jsonv_free(struct jsonv *v);

/* The member key of an object (the last, if repeated); NULL when v is not
 * an object or has no such member. */
const struct jsonv *jsonv_get(const struct jsonv *v, const char *key);
/* The member's string, or NULL when it is absent or not a string. */
const char *jsonv_string(const struct jsonv *v, const char *key);

#endif
