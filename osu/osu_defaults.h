/*
 * osu_defaults: which of two sets of defaults the OSU programs take.
 * OMB 7.4's (the default): what users compare with and what the frameworks
 * that run OMB parse: MPI_CHAR reductions from 1 byte, MPI_Win_allocate
 * windows with flush, OMB's lines alone before the table (the run
 * description after it), OMB's headings. The seed's (MVAPICH-era OMB, the
 * document this suite was built from): float reductions from 4 bytes,
 * MPI_Win_create windows with pscw or lock, the run description before the
 * table, commsweep's headings. One switch selects it: --defaults=seed or
 * COMMSWEEP_DEFAULTS=seed (the option wins). Invalid values of either
 * variable are bad input.
 */
#ifndef COMMSWEEP_OSU_DEFAULTS_H
#define COMMSWEEP_OSU_DEFAULTS_H

#include <stdbool.h>

#include "opt.h"

/* The --defaults option, for every OSU program's table. */
struct opt_spec osu_defaults_option(void);
/* --describe: under OMB's defaults the run description (command, date,
 * ranks, MPI, buffers, iterations...) is printed after the table only when
 * asked, by --describe or COMMSWEEP_DESCRIBE=1: a framework that reads
 * every line after OMB's heading as a row (metrics-operator) fails on any
 * line OMB does not print. The JSON Lines header has it always; the
 * seed's defaults print it before the table, always. */
struct opt_spec osu_describe_option(void);
/* After the options are parsed: the environment variable where the option
 * was not given; a value that is neither omb nor seed is bad input (one
 * line, status 2 on every rank; MPI must be running). */
void osu_defaults_settle(void);
/* Whether the seed's defaults are in force (after osu_defaults_settle). */
bool osu_seed_defaults(void);
/* Whether the run description is printed (after osu_defaults_settle). */
bool osu_describe(void);
/* "omb" or "seed", for the run description. */
const char *osu_defaults_name(void);

#endif
