/*
 * out: everything a program prints on stdout. Only rank 0 prints; every line
 * is flushed as soon as it is written so a job killed by its time limit keeps
 * what it measured, and a flush that fails (a full disk) is recorded for the
 * exit status (err_write_check). stdout carries data lines and '#' comments
 * only.
 * Blocks (gnuplot "index") are separated by two blank lines.
 * With --format=jsonl (report.h) the text is not printed: data lines are
 * dropped (their printers write JSON rows through report.h), '#' comments
 * become notes of the JSON header or summary, and the title a header field.
 */
#ifndef COMMSWEEP_OUT_H
#define COMMSWEEP_OUT_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* Set by harness_init: whether this process prints. */
void out_set_printer(bool is_printer);
bool out_is_printer(void);

/* A data line (the format without its newline). */
void out_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A comment line: "# " + text. */
void out_comment(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End of a block: two blank lines. */
void out_block_end(void);

/* Each rank's text (at most len bytes with its terminator) gathered to rank
 * 0 and printed in rank order as "# rank R<label>: <text>"; in JSON they are
 * also the list json_key of the header (unless NULL), one string per rank. Collective
 * over comm (which must hold the printing rank as its rank 0). */
void out_comment_per_rank(MPI_Comm comm, const char *label, const char *json_key,
                          const char *text, size_t len);

/* The header block: "# <title> (commsweep VERSION)", the command line, the
 * date, number of ranks, MPI library, and the time limit of a step when
 * --timeout set one (watchdog.h; configure it first). Call on every rank
 * (collective). */
void out_header(const char *title, int argc, char **argv);
/* The same in two parts, for programs that print lines of their own between
 * the title and the rest (the OSU-style programs): the title line alone, and
 * the command, date, ranks, MPI and time limit lines (collective). */
void out_title(const char *title);
void out_header_details(int argc, char **argv);
/* The title as "# <title> <version> (commsweep VERSION)": the version of the
 * suite whose test this is (the OSU programs' "v7.4"), read by parsers
 * written for it; NULL: out_title. */
void out_title_version(const char *title, const char *version);

/* Holding the run description for after the table, where parsers written
 * for another suite's output do not see it: from out_hold_begin until
 * out_hold_end, comment lines (out_comment, out_header_details) are kept
 * instead of printed; out_release_held prints them, and a program that
 * ends (err_finish, err_fatal) before it did prints them then. With
 * print_later false they are dropped instead (a reader that takes every
 * line after the heading for a row sees none). Text output only: in JSON
 * Lines the comments are notes as always. */
void out_hold_begin(bool print_later);
void out_hold_end(void);
void out_release_held(void);

#endif
