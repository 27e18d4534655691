/* cpm_dot_lex: the tokens of the DOT reader; see cpm_dot_lex.h. */
#include "cpm_dot_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cpm_escape.h"

void cpm_dot_lex_init(struct cpm_dot_lexer *lx, const char *text, size_t len, char *err,
                      size_t errlen)
{
    memset(lx, 0, sizeof *lx);
    lx->s = text;
    lx->len = len;
    lx->line = 1;
    lx->line_start = true;
    lx->err = err;
    lx->errlen = errlen;
}

int cpm_dot_lex_fail(struct cpm_dot_lexer *lx, int line, const char *fmt, ...)
{
    char text[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* The IDs quoted come from the file, which may be damaged. */
    cpm_escape_controls(text);
    snprintf(lx->err, lx->errlen, "line %d: %s", line, text);
    return -1;
}

bool cpm_dot_is_keyword(const struct cpm_dot_token *t, const char *kw)
{
    return t->kind == CPM_DOT_ID && !t->quoted && strcasecmp(t->text, kw) == 0;
}

void cpm_dot_lex_unget(struct cpm_dot_lexer *lx, const struct cpm_dot_token *t)
{
    lx->ahead = *t;
    lx->have_ahead = true;
}

static int peek(const struct cpm_dot_lexer *lx, size_t at)
{
    return lx->pos + at < lx->len ? (unsigned char)lx->s[lx->pos + at] : -1;
}

/* Consumes one byte, counting lines; a NUL byte is refused. */
static int take(struct cpm_dot_lexer *lx, int *c)
{
    *c = (unsigned char)lx->s[lx->pos++];
    if (*c == '\0')
        return cpm_dot_lex_fail(lx, lx->line, "a NUL byte (is this a text file?)");
    if (*c == '\n') {
        lx->line++;
        lx->line_start = true;
    } else if (*c != ' ' && *c != '\t' && *c != '\r') {
        lx->line_start = false;
    }
    return 0;
}

/* Skips blanks and comments; 0 at the next token or the end. */
static int skip_blanks(struct cpm_dot_lexer *lx)
{
    int c;
    while (peek(lx, 0) >= 0) {
        c = peek(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            if (take(lx, &c) != 0)
                return -1;
        } else if ((c == '#' && lx->line_start) || (c == '/' && peek(lx, 1) == '/')) {
            while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
                if (take(lx, &c) != 0)
                    return -1;
        } else if (c == '/' && peek(lx, 1) == '*') {
            int start = lx->line;
            lx->pos += 2;
            while (!(peek(lx, 0) == '*' && peek(lx, 1) == '/')) {
                if (peek(lx, 0) < 0)
                    return cpm_dot_lex_fail(lx, start, "a comment '/*' that never ends");
                if (take(lx, &c) != 0)
                    return -1;
            }
            lx->pos += 2;
            lx->line_start = false;
        } else {
            return 0;
        }
    }
    return 0;
}

static int put_char(struct cpm_dot_lexer *lx, struct cpm_dot_token *t, size_t *n, int c)
{
    if (*n >= CPM_DOT_MAX_ID)
        return cpm_dot_lex_fail(lx, t->line, "an ID longer than %d bytes", CPM_DOT_MAX_ID);
    t->text[(*n)++] = (char)c;
    return 0;
}

static int lex_quoted(struct cpm_dot_lexer *lx, struct cpm_dot_token *t)
{
    size_t n = 0;
    int c;
    lx->pos++; /* the opening quote */
    for (;;) {
        if (peek(lx, 0) < 0)
            return cpm_dot_lex_fail(lx, t->line, "a quoted string that never ends");
        if (take(lx, &c) != 0)
            return -1;
        if (c == '"')
            break;
        if (c == '\\' && peek(lx, 0) == '"') {
            lx->pos++;
            c = '"';
        } else if (c == '\\' && peek(lx, 0) == '\n') {
            if (take(lx, &c) != 0)
                return -1;
            continue;
        }
        if (put_char(lx, t, &n, c) != 0)
            return -1;
    }
    t->text[n] = '\0';
    t->kind = CPM_DOT_ID;
    t->quoted = true;
    if (skip_blanks(lx) != 0)
        return -1;
    if (peek(lx, 0) == '+')
        return cpm_dot_lex_fail(lx, lx->line, "'+' (joining strings) is not supported");
    return 0;
}

static bool is_id_start(int c)
{
    return c == '_' || c >= 0x80 || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

/* An unquoted ID or a numeral [-](.digits | digits[.digits]). */
static int lex_word(struct cpm_dot_lexer *lx, struct cpm_dot_token *t)
{
    size_t n = 0;
    int c;
    if (is_id_start(peek(lx, 0))) {
        while (is_id_start(peek(lx, 0)) || is_digit(peek(lx, 0)))
            if (take(lx, &c) != 0 || put_char(lx, t, &n, c) != 0)
                return -1;
    } else {
        bool dot = false, digits = false;
        if (peek(lx, 0) == '-') {
            lx->pos++;
            t->text[n++] = '-';
        }
        while (is_digit(peek(lx, 0)) || (peek(lx, 0) == '.' && !dot)) {
            dot |= peek(lx, 0) == '.';
            digits |= is_digit(peek(lx, 0));
            if (take(lx, &c) != 0 || put_char(lx, t, &n, c) != 0)
                return -1;
        }
        t->text[n] = '\0';
        if (!digits)
            return cpm_dot_lex_fail(lx, t->line, "'%s' is not a number", t->text);
        if (is_id_start(peek(lx, 0)) || peek(lx, 0) == '.')
            return cpm_dot_lex_fail(lx, t->line, "a number followed by '%c' (quote the ID)",
                                    peek(lx, 0));
    }
    t->text[n] = '\0';
    t->kind = CPM_DOT_ID;
    return 0;
}

int cpm_dot_lex_next(struct cpm_dot_lexer *lx, struct cpm_dot_token *t)
{
    if (lx->have_ahead) {
        *t = lx->ahead;
        lx->have_ahead = false;
        return 0;
    }
    if (skip_blanks(lx) != 0)
        return -1;
    t->quoted = false;
    t->line = lx->line;
    t->text[0] = '\0';
    int c = peek(lx, 0);
    if (c < 0) {
        t->kind = CPM_DOT_EOF;
        return 0;
    }
    if (c == '\0')
        return cpm_dot_lex_fail(lx, lx->line, "a NUL byte (is this a text file?)");
    if (c == '"')
        return lex_quoted(lx, t);
    if (is_id_start(c) || is_digit(c) || c == '.' ||
        (c == '-' && (is_digit(peek(lx, 1)) || peek(lx, 1) == '.')))
        return lex_word(lx, t);
    static const char singles[] = "{}[]=;,:";
    static const enum cpm_dot_tok kinds[] = {CPM_DOT_LBRACE, CPM_DOT_RBRACE, CPM_DOT_LBRACKET,
                                             CPM_DOT_RBRACKET, CPM_DOT_EQUAL, CPM_DOT_SEMI,
                                             CPM_DOT_COMMA, CPM_DOT_COLON};
    const char *single = strchr(singles, c);
    if (single) {
        lx->pos++;
        lx->line_start = false;
        t->kind = kinds[single - singles];
        t->text[0] = (char)c;
        t->text[1] = '\0';
        return 0;
    }
    if (c == '-' && (peek(lx, 1) == '>' || peek(lx, 1) == '-')) {
        t->kind = peek(lx, 1) == '>' ? CPM_DOT_ARROW : CPM_DOT_DASHES;
        snprintf(t->text, sizeof t->text, "-%c", peek(lx, 1));
        lx->pos += 2;
        lx->line_start = false;
        return 0;
    }
    if (c == '<')
        return cpm_dot_lex_fail(lx, lx->line, "HTML strings '<...>' are not supported");
    if (c == '+')
        return cpm_dot_lex_fail(lx, lx->line, "'+' (joining strings) is not supported");
    if (c >= 0x20 && c < 0x7f)
        return cpm_dot_lex_fail(lx, lx->line, "unexpected character '%c'", c);
    return cpm_dot_lex_fail(lx, lx->line, "unexpected byte 0x%02x", (unsigned)c);
}
