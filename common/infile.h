/* infile: opening the files a program reads (model files, pair lists,
 * DOT graphs, results to compare). Only a regular file is taken: a FIFO
 * that no one writes would block open() for ever, and a device or a
 * folder is no input; the message says which it was. */
#ifndef COMMSWEEP_INFILE_H
#define COMMSWEEP_INFILE_H

#include <stdio.h>

/* fopen(path, "r") for a regular file; NULL with the reason in err
 * ("No such file or directory", "a FIFO, not a regular file", ...). */
FILE *infile_open(const char *path, char *err, size_t errlen);

#endif
