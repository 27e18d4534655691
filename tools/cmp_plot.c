/* cmp_plot: a comparison drawn by gnuplot; see cmp_plot.h. */
#include "cmp_plot.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void put_script(FILE *g, const struct cmp_file *a, const struct cmp_file *b,
                       const struct cmp_table *t, size_t x)
{
    char title[400];
    snprintf(title, sizeof title, "%s: %s of A and B, and B / A", cmp_match_program(a, b),
             t->main);
    /* No "set output": the picture goes to gnuplot's stdout, a pipe that
     * compare writes into the PNG file itself, checking every write. */
    fputs("set terminal pngcairo size 900,800 noenhanced font ',10'\n"
          "set multiplot layout 2,1 title ", g);
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

/* A temporary file for gnuplot (its script, its messages), unlinked at
 * once: nothing is left behind, whatever happens. -1 with errno. */
static int scratch_file(void)
{
    const char *dir = getenv("TMPDIR");
    char name[512];
    snprintf(name, sizeof name, "%s/compare-gnuplot.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkostemp(name, O_CLOEXEC);
    if (fd >= 0)
        unlink(name);
    return fd;
}

/* The script of table t into fd; 0, or -1 with errno. */
static int write_script(int fd, const struct cmp_file *a, const struct cmp_file *b,
                        const struct cmp_match *m, const struct cmp_outcome *o, size_t t)
{
    int copy = dup(fd);
    FILE *g = copy < 0 ? NULL : fdopen(copy, "w");
    if (!g) {
        if (copy >= 0)
            close(copy);
        return -1;
    }
    errno = 0;
    put_data(g, m, o, t);
    put_script(g, a, b, &a->tables[t], m->x_key[t]);
    int e = fflush(g) == EOF || ferror(g) ? (errno ? errno : EIO) : 0;
    fclose(g);
    if (!e && lseek(fd, 0, SEEK_SET) != 0)
        e = errno;
    errno = e;
    return e ? -1 : 0;
}

/* Runs gnuplot with the script on its stdin, its PNG on a pipe into png
 * (never onto compare's stdout, where it would land if it had no output of
 * its own) and its messages into log. The PNG's size in bytes, or -1 with
 * errno when gnuplot could not be started. */
static long run_gnuplot(int script, int log, struct ofile *png, int *status)
{
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, script, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, log, 2);
    char *argv[] = {"gnuplot", NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        errno = rc;
        return -1;
    }
    /* All of it is read, even after a failed write, so that gnuplot
     * ends rather than waiting on a full pipe. */
    long bytes = 0;
    char buf[1 << 16];
    for (;;) {
        ssize_t n = read(pipefd[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        fwrite(buf, 1, (size_t)n, png->f); /* a failure: ofile_close */
        bytes += n;
    }
    close(pipefd[0]);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return bytes;
}

/* The first line gnuplot wrote to log, "" when none. */
static void first_line(int log, char *out, size_t outlen)
{
    ssize_t n = pread(log, out, outlen - 1, 0);
    out[n > 0 ? n : 0] = '\0';
    out[strcspn(out, "\n")] = '\0';
}

/* One table's PNG into png, which ends closed (0, or -1 with err empty
 * after a failed write) or dropped (-1 with why in err). */
static int render(struct ofile *png, const struct cmp_file *a, const struct cmp_file *b,
                  const struct cmp_match *m, const struct cmp_outcome *o, size_t t, char *err,
                  size_t errlen)
{
    const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    int script = scratch_file(), log = scratch_file(), status = -1;
    char first[200] = "";
    long bytes = -1;
    if (script < 0 || log < 0 || write_script(script, a, b, m, o, t) != 0) {
        snprintf(err, errlen, "cannot keep gnuplot's script and messages in %s: %s", tmpdir,
                 strerror(errno));
    } else if ((bytes = run_gnuplot(script, log, png, &status)) < 0) {
        if (errno == ENOENT)
            snprintf(err, errlen, "gnuplot could not write %s: gnuplot is not installed "
                                  "(apt-get install gnuplot-nox)", png->path);
        else
            snprintf(err, errlen, "gnuplot could not be started for %s: %s", png->path,
                     strerror(errno));
    } else {
        first_line(log, first, sizeof first);
        snprintf(err, errlen, "gnuplot could not write %s%s%s", png->path, first[0] ? ": " : "",
                 first);
    }
    if (script >= 0)
        close(script);
    if (log >= 0)
        close(log);
    if (bytes > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        err[0] = '\0';
        return ofile_close(png);
    }
    ofile_discard(png);
    return -1;
}

int cmp_plot_open(struct cmp_plot *p, const char *png, const struct cmp_file *a,
                  const struct cmp_match *m, char *err, size_t errlen)
{
    bool used[CMP_MAX_TABLES] = {false};
    size_t tables = 0;
    p->n = 0;
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
        if (ofile_open(&p->out[p->n], name, err, errlen) != 0) {
            for (size_t k = 0; k < p->n; k++)
                ofile_discard(&p->out[k]);
            p->n = 0;
            return -1;
        }
        p->table[p->n++] = t;
    }
    return 0;
}

int cmp_plot_draw(struct cmp_plot *p, const struct cmp_file *a, const struct cmp_file *b,
                  const struct cmp_match *m, const struct cmp_outcome *o, char *err,
                  size_t errlen)
{
    size_t k = 0;
    int rc = 0;
    for (; k < p->n && rc == 0; k++)
        rc = render(&p->out[k], a, b, m, o, p->table[k], err, errlen);
    for (; k < p->n; k++)
        ofile_discard(&p->out[k]);
    p->n = 0;
    return rc;
}
