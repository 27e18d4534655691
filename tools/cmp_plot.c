/* cmp_plot: a comparison drawn by gnuplot; see cmp_plot.h. */
#include "cmp_plot.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* text as a gnuplot string in single quotes, where '' is a quote. */
static void put_quoted(FILE *g, const char *text)
{
    fputc('\'', g);
    for (const char *c = text; *c; c++) {
        if (*c == '\'')
            fputc('\'', g);
        fputc(*c, g);
    }
    fputc('\'', g);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The rows of table t as a datablock: x, A, B, ratio, significant (1, 0,
 * -1), a blank line between groups (gnuplot then draws no line across). */
static void put_data(FILE *g, const struct cmp_match *m, const struct cmp_outcome *o, size_t t)
{
    size_t x = m->x_key[t], row = 0, group = 0;
    bool first = true;
    fputs("$data << EOD\n", g);
    for (size_t i = 0; i < m->n; i++) {
        const struct cmp_pair *p = &m->pairs[i];
        if (p->table != t)
            continue;
        if (!first && p->group != group)
            fputc('\n', g);
        first = false;
        group = p->group;
        row++;
        if (x == CMP_NO_KEY)
            fprintf(g, "%zu", row);
        else
            fprintf(g, "%s", cmp_pair_row(p)->key[x][0] ? cmp_pair_row(p)->key[x] : "nan");
        fprintf(g, " %.9g %.9g %.9g %d\n", o[i].a, o[i].b, o[i].ratio, o[i].significant);
    }
    fputs("EOD\n", g);
}

static void put_script(FILE *g, const char *png, const struct cmp_file *a,
                       const struct cmp_file *b, const struct cmp_table *t, size_t x)
{
    char title[400];
    snprintf(title, sizeof title, "%s: %s of A and B, and B / A", a->program, t->main);
    fputs("set terminal pngcairo size 900,800 noenhanced font ',10'\nset output ", g);
    put_quoted(g, png);
    fputs("\nset multiplot layout 2,1 title ", g);
    put_quoted(g, title);
    fputs("\nset grid\nset key top left box opaque\nset datafile missing 'nan'\n", g);
    /* Sizes double: log 2 along x, without the sizes of 0 it cannot place. */
    const char *xcol = x == CMP_NO_KEY ? "1" : "($1 > 0 ? $1 : NaN)";
    if (x != CMP_NO_KEY) {
        fputs("set logscale x 2\n", g);
        if (ends_with(t->keys[x], "_bytes"))
            fputs("set format x '%.0b%BB'\n", g);
    }
    fprintf(g, "set logscale y\nset ylabel '%s (%s)'\n", t->main, t->main_unit);
    char name[600];
    fprintf(g, "plot $data using %s:2 with linespoints pt 7 ps 0.7 title ", xcol);
    snprintf(name, sizeof name, "A: %s", a->path);
    put_quoted(g, name);
    fprintf(g, ", $data using %s:3 with linespoints pt 5 ps 0.7 title ", xcol);
    snprintf(name, sizeof name, "B: %s", b->path);
    put_quoted(g, name);
    fputs("\nunset logscale y\nset ylabel 'B / A'\nset key below horizontal noopaque nobox\n"
          "set xlabel ", g);
    put_quoted(g, x == CMP_NO_KEY ? "row" : t->keys[x]);
    fprintf(g, "\nplot $data using %s:4 with lines lc 'gray40' notitle, "
               "$data using %s:($5 == 1 ? $4 : NaN) with points pt 7 ps 1.4 lc 'red' "
               "title 'significant (95%%)', "
               "$data using %s:($5 == 0 ? $4 : NaN) with points pt 6 ps 1.2 lc 'blue' "
               "title 'not significant', "
               "$data using %s:($5 < 0 ? $4 : NaN) with points pt 2 ps 1 lc 'gray40' "
               "title 'not tested', 1 with lines dt 2 lc 'black' notitle\n",
            xcol, xcol, xcol, xcol);
    fputs("unset multiplot\n", g);
}

/* Runs gnuplot on one table's script; its messages go to a file, the
 * first of which names a failure. */
static int render(const char *png, const struct cmp_file *a, const struct cmp_file *b,
                  const struct cmp_match *m, const struct cmp_outcome *o, size_t t, char *err,
                  size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    char log[512], command[600];
    if (!dir || !*dir || strchr(dir, '\'')) /* the name goes into a shell command */
        dir = "/tmp";
    snprintf(log, sizeof log, "%s/compare-gnuplot.XXXXXX", dir);
    int fd = mkstemp(log);
    if (fd < 0) {
        snprintf(err, errlen, "cannot make a temporary file in %s for gnuplot's messages", dir);
        return -1;
    }
    close(fd);
    unlink(png); /* a PNG of an earlier run must not pass for this one */
    snprintf(command, sizeof command, "gnuplot 2>'%s'", log);
    FILE *g = popen(command, "w");
    int status = -1;
    if (g) {
        put_data(g, m, o, t);
        put_script(g, png, a, b, &a->tables[t], m->x_key[t]);
        status = pclose(g);
    }
    char first[200] = "";
    FILE *l = fopen(log, "r");
    if (l) {
        if (!fgets(first, sizeof first, l))
            first[0] = '\0';
        first[strcspn(first, "\n")] = '\0';
        fclose(l);
    }
    unlink(log);
    struct stat st;
    if (status != 0 || stat(png, &st) != 0 || st.st_size == 0) {
        bool missing = status > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127;
        snprintf(err, errlen, "gnuplot could not write %s%s%s", png,
                 missing ? ": gnuplot is not installed (apt-get install gnuplot-nox)" : "",
                 !missing && first[0] ? ": " : "");
        if (!missing && first[0])
            snprintf(err + strlen(err), errlen - strlen(err), "%s", first);
        return -1;
    }
    return 0;
}

int cmp_plot_png(const char *png, const struct cmp_file *a, const struct cmp_file *b,
                 const struct cmp_match *m, const struct cmp_outcome *o, char *err, size_t errlen)
{
    bool used[CMP_MAX_TABLES] = {false};
    size_t tables = 0;
    for (size_t i = 0; i < m->n; i++) {
        tables += !used[m->pairs[i].table];
        used[m->pairs[i].table] = true;
    }
    for (size_t t = 0; t < a->ntables; t++) {
        if (!used[t])
            continue;
        char name[1024];
        size_t stem = strlen(png) - (ends_with(png, ".png") ? 4 : 0);
        if (tables == 1)
            snprintf(name, sizeof name, "%s", png);
        else
            snprintf(name, sizeof name, "%.*s-%s.png", (int)stem, png, a->tables[t].name);
        if (render(name, a, b, m, o, t, err, errlen) != 0)
            return -1;
    }
    return 0;
}
