/* cpm_escape: control bytes out of error messages; see cpm_escape.h. */
#include "cpm_escape.h"

#include <stdbool.h>
#include <stddef.h>

/* Bytes of the UTF-8 sequence at s that encodes a printable code point
 * (C1 controls, overlong forms, surrogates and values past U+10FFFF are
 * not), 0 when there is none. s is NUL-terminated, and a NUL is never a
 * continuation byte, so the scan stops inside the string. */
static size_t printable_sequence(const unsigned char *s)
{
    size_t need;
    unsigned long cp, least;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        need = 1, cp = s[0] & 0x1fu, least = 0xa0; /* U+0080..U+009F are C1 */
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        need = 2, cp = s[0] & 0x0fu, least = 0x800;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        need = 3, cp = s[0] & 0x07u, least = 0x10000;
    else
        return 0;
    for (size_t k = 1; k <= need; k++) {
        if ((s[k] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[k] & 0x3fu);
    }
    bool surrogate = cp >= 0xd800 && cp <= 0xdfff;
    return cp < least || cp > 0x10ffff || surrogate ? 0 : need + 1;
}

void cpm_escape_controls(char *s)
{
    unsigned char *u = (unsigned char *)s;
    while (*u) {
        if (*u >= 0x20 && *u < 0x7f) {
            u++;
            continue;
        }
        size_t len = *u >= 0x80 ? printable_sequence(u) : 0;
        if (len) {
            u += len;
            continue;
        }
        *u++ = '?';
    }
}
