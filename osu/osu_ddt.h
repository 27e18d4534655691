/*
 * osu_ddt: OMB 7.4's -D option, which sends each message as one derived
 * datatype instead of plain elements, so the MPI library's datatype engine
 * (packing, strided transfers) is measured with the communication:
 *   cont            MPI_Type_contiguous of the message's elements;
 *   vect:STRIDE:BLOCK  MPI_Type_vector of count / STRIDE blocks of BLOCK
 *                   elements, STRIDE apart (the tail past the last whole
 *                   stride is not sent);
 *   indx:FILE       MPI_Type_indexed from FILE, one "displacement, block
 *                   length" pair in elements per line, '#' lines comments;
 *                   the same blocks at every size.
 * The type is built per message size over the element type (-T, MPI_CHAR by
 * default) and resized to the message's size, so the per-rank blocks of a
 * collective stay size bytes apart as without -D. The description of the
 * blocks, the parsing and the check of received data are pure (unit tested);
 * only osu_ddt_make calls MPI.
 */
#ifndef COMMSWEEP_OSU_DDT_H
#define COMMSWEEP_OSU_DDT_H

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "opt.h"

enum osu_ddt_kind { OSU_DDT_NONE, OSU_DDT_CONTIGUOUS, OSU_DDT_VECTOR, OSU_DDT_INDEXED };

/* Bounds of an indx file: blocks, and bytes read. */
#define OSU_DDT_MAX_BLOCKS ((size_t)1 << 20)
#define OSU_DDT_MAX_FILE ((size_t)64 << 20)

struct osu_ddt {
    enum osu_ddt_kind kind;
    size_t stride, block;     /* vect, in elements: 1 <= block <= stride */
    size_t nblocks;           /* indx */
    size_t *displs, *lengths; /* indx, in elements, sorted by displacement */
    size_t span;              /* indx: elements up to the end of the last block */
};

/* Parses a -D argument (reading the indx file); 0, or -1 with a one-line
 * message in err. */
int osu_ddt_parse(const char *arg, struct osu_ddt *d, char *err, size_t errlen);
/* Parses the text of an indx file; name is used in messages. Refuses
 * anything but two non-negative integers per line (block length >= 1, both
 * within an int), no blocks, and blocks that overlap (a receive type must
 * not). */
int osu_ddt_parse_index(const char *text, size_t len, const char *name, struct osu_ddt *d,
                        char *err, size_t errlen);
void osu_ddt_free(struct osu_ddt *d);

/* The -D option (OPT_CUSTOM, dest d, which must start zeroed). */
struct opt_spec osu_ddt_option(struct osu_ddt *d);

/* The smallest message, in elements, the type fits in (indx: its span;
 * otherwise 0). */
size_t osu_ddt_min_count(const struct osu_ddt *d);
/* Contiguous runs of elements the type carries in a message of count
 * elements, and run k of them (first element, length). */
size_t osu_ddt_nruns(const struct osu_ddt *d, size_t count);
void osu_ddt_run(const struct osu_ddt *d, size_t count, size_t k, size_t *first, size_t *len);
/* Elements carried in a message of count elements. */
size_t osu_ddt_carried(const struct osu_ddt *d, size_t count);
/* Marks in map[0..count) the elements the type carries (1) and skips (0). */
void osu_ddt_mark(const struct osu_ddt *d, size_t count, unsigned char *map);
/* -c: the first byte of the carried elements of a message (host memory,
 * count elements of elem_size bytes) that does not hold buf_pattern(rank,
 * iter, byte index), or SIZE_MAX. Bytes the type skips are not looked at. */
size_t osu_ddt_check(const struct osu_ddt *d, const unsigned char *data, size_t count,
                     size_t elem_size, int rank, size_t iter);
/* One line saying what -D sends ("vector, blocks of 4 elements every 8"). */
void osu_ddt_describe(const struct osu_ddt *d, char *out, size_t len);

/* The MPI type of a message of count elements of base (elem_size bytes) as
 * the -D type, committed and resized to count * elem_size bytes: m gets (type,
 * 1). Returns 0, or -1 with a message in err (counts beyond an int, or MPI
 * refused). */
int osu_ddt_make(const struct osu_ddt *d, size_t count, MPI_Datatype base, size_t elem_size,
                 struct msg_type *m, char *err, size_t errlen);

#endif
