/*
 * cpm_dot_lex: the tokens of the DOT reader (cpm_dot.c), kept apart from
 * the grammar. It owns the position in the text, the line count and the
 * one token of look-ahead; it skips blanks and the three kinds of comment
 * and refuses what the reader does not take at the level of characters
 * (NUL bytes, HTML strings, '+', unterminated strings and comments, IDs
 * longer than CPM_DOT_MAX_ID). Internal to libcpm.
 */
#ifndef COMMSWEEP_CPM_DOT_LEX_H
#define COMMSWEEP_CPM_DOT_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "cpm_dot.h"

enum cpm_dot_tok {
    CPM_DOT_EOF,
    CPM_DOT_ID,
    CPM_DOT_LBRACE,
    CPM_DOT_RBRACE,
    CPM_DOT_LBRACKET,
    CPM_DOT_RBRACKET,
    CPM_DOT_EQUAL,
    CPM_DOT_SEMI,
    CPM_DOT_COMMA,
    CPM_DOT_COLON,
    CPM_DOT_ARROW,
    CPM_DOT_DASHES
};

struct cpm_dot_token {
    enum cpm_dot_tok kind;
    bool quoted; /* an ID written in quotes (never a keyword) */
    int line;
    char text[CPM_DOT_MAX_ID + 1]; /* the ID, or the token as written */
};

struct cpm_dot_lexer {
    const char *s;
    size_t len, pos;
    int line;
    bool line_start; /* nothing but blanks since the last newline */
    char *err;
    size_t errlen;
    struct cpm_dot_token ahead; /* a token given back */
    bool have_ahead;
};

void cpm_dot_lex_init(struct cpm_dot_lexer *lx, const char *text, size_t len, char *err,
                      size_t errlen);
/* The next token into t; 0, or -1 with the message in lx->err. */
int cpm_dot_lex_next(struct cpm_dot_lexer *lx, struct cpm_dot_token *t);
/* Gives t back: the next call returns it again. */
void cpm_dot_lex_unget(struct cpm_dot_lexer *lx, const struct cpm_dot_token *t);
/* "line N: why" into lx->err; returns -1. */
int cpm_dot_lex_fail(struct cpm_dot_lexer *lx, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Whether t is the unquoted keyword kw (DOT keywords ignore case). */
bool cpm_dot_is_keyword(const struct cpm_dot_token *t, const char *kw);

#endif
