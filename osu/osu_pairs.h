/*
 * osu_pairs: the small text files that OSU-style options name, one pair of
 * non-negative integers "A, B" a line, '#' lines and blank lines ignored:
 * -D indx's "displacement, block length" blocks and -N graph's "source,
 * destination" edges. Owns reading such a file whole and parsing its text
 * strictly (every value checked, the line named in every message); the
 * parser is pure, so it is unit tested on text.
 */
#ifndef COMMSWEEP_OSU_PAIRS_H
#define COMMSWEEP_OSU_PAIRS_H

#include <stddef.h>

/* What a file's pairs are and what they may be. */
struct osu_pairs_rule {
    const char *first, *second; /* names of the two numbers, for messages */
    size_t first_min, first_max, second_min, second_max;
    size_t max_pairs;
    const char *plural; /* what the pairs are: "blocks", "edges" */
};

struct osu_pair {
    size_t first, second;
    size_t line; /* where it stands in the file, from 1 */
};

/* The text between begin and end without the blanks around it, into out
 * (cut to len - 1 characters). */
void osu_pairs_trimmed(const char *begin, const char *end, char *out, size_t len);

/* The whole file at path, NUL-terminated, at most max bytes; *len its
 * length. NULL with a one-line message in err when it cannot be read. The
 * caller frees it. */
char *osu_pairs_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen);

/* Parses text (len bytes; name is used in messages) into *pairs (malloc'd,
 * *npairs of them, in file order). Refuses anything but two integers per
 * line separated by a comma, values outside the rule's bounds, a NUL byte,
 * more than max_pairs pairs, and a text without any pair. Returns 0, or -1
 * with a one-line message in err (and *pairs NULL). */
int osu_pairs_parse(const char *text, size_t len, const char *name,
                    const struct osu_pairs_rule *rule, struct osu_pair **pairs, size_t *npairs,
                    char *err, size_t errlen);

#endif
