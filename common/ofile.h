/*
 * ofile: a file a program writes besides stdout (a model file, a PNG), so
 * that it is whole or not there. A regular file, or a name not taken yet, is
 * written under a temporary name in the same folder and renamed over the
 * target once complete and synced: a reader sees the old file or the new
 * one, never half of one, and a run that fails leaves the old file as it
 * was. What is not a regular file belongs to someone else and is never
 * unlinked or replaced: a device, a FIFO or a symbolic link is written
 * through; a folder, or a FIFO that no process reads (the open would wait
 * for ever), is refused. Every write is checked, and a failed one is
 * recorded with its errno for the exit status (err.h, ERR_STATUS_WRITE).
 */
#ifndef COMMSWEEP_OFILE_H
#define COMMSWEEP_OFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ofile {
    FILE *f;      /* what the program writes into; it must not move while open */
    char *path;   /* the target as named */
    char *tmp;    /* the temporary name; NULL when written through */
    int fd;
    int errnum;   /* the first failed write's errno, 0 while none */
    bool cut;     /* written through into a regular file: cut to length at the end */
};

/* Opens path for writing; nothing reaches path before ofile_close. 0, or -1
 * with one line in err ("cannot write PATH: ...") when it cannot be written:
 * a folder, a FIFO that no process reads, a missing or read-only folder.
 * Callers take that for bad input (ERR_STATUS_USAGE). */
int ofile_open(struct ofile *o, const char *path, char *err, size_t errlen);

/* Completes the file: flushed, synced and renamed into place. 0, or -1
 * after a failed write, which err_write_failed has recorded and printed;
 * the temporary file is removed and the target left as it was. */
int ofile_close(struct ofile *o);

/* Drops the file unwritten, for a run that failed before its result: the
 * temporary file removed, the target untouched. */
void ofile_discard(struct ofile *o);

#endif
