/*
 * osu_compat: options of OMB 7.4 that the OSU-style programs take although
 * they have nothing to do here, so that a command line written for OMB
 * runs unchanged, and the '#' note each one given leaves after the table
 * (where OMB prints its own notes):
 *   -G, --graph tty,png,pdf   OMB's graphs of per-iteration values (every
 *                             program but the start-up ones)
 *   -a, --array-size N        the device arrays of OMB's dummy compute (the
 *                             collectives; the compute here is on the CPU)
 *   -t, --num-test-calls ARG  osu_bw, osu_bibw and their persistent forms
 *                             (OMB parses it there and uses it nowhere)
 *   OMB's whole table         osu_hello and osu_init, which take any of
 *                             OMB's options and use none (but osu_init's -I)
 * The module owns what was given (one program per process) and prints the
 * notes (osu_compat_notes, rank 0 as every '#' line, a JSON note with
 * --format=jsonl).
 */
#ifndef COMMSWEEP_OSU_COMPAT_H
#define COMMSWEEP_OSU_COMPAT_H

#include <stddef.h>

#include "opt.h"

/* -G tty|png|pdf, several separated by commas, each word as OMB reads it
 * (its first three letters, any case). */
struct opt_spec osu_compat_graph_option(void);
/* -a N, N >= 1 (OMB's rule). */
struct opt_spec osu_compat_array_option(void);
/* -t ARG, any value (OMB reads none). */
struct opt_spec osu_compat_test_calls_option(void);

#define OSU_COMPAT_MAX_IGNORED 32
/* osu_hello, osu_init: OMB 7.4's options (every letter and long name its
 * programs list) but the letters in except (those the program has itself,
 * and h, v: help and version), into specs[0..max); returns how many. */
size_t osu_compat_ignored_options(struct opt_spec *specs, size_t max, const char *except);

/* One '#' line per option above that was given, saying what it does here;
 * the program (name for the start-up programs) calls it after its table. */
void osu_compat_notes(const char *program);

#endif
