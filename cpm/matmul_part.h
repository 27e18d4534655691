/*
 * matmul_part: how the parallel matrix product (matmul) shares the rows of
 * A among the processes: in proportion to their measured speeds, the rows
 * left by rounding down going to the largest remainders (ties to the
 * faster, then the lower rank), so that the rows add up and a faster process never gets fewer.
 */
#ifndef COMMSWEEP_CPM_MATMUL_PART_H
#define COMMSWEEP_CPM_MATMUL_PART_H

#include <stddef.h>

/* rows[0..p-1] from speed[0..p-1] (each > 0 and finite) for n rows. */
void matmul_rows(const double *speed, int p, size_t n, size_t *rows);

#endif
