/*
 * reduce_data: the data collective reduces and checks (MPI_SUM over
 * MPI_UINT8_T), chosen so that the result shows every contribution counted
 * exactly once. Every byte has its own contributors and all the others
 * add 0 there:
 *   - from n bytes on, byte i belongs to rank i mod n alone, which adds a
 *     value v in [1, 85] keyed by the run and the byte: the sum is v when
 *     the owner came once, and 0, 2v or 3v when it came never, twice or
 *     three times; data put at another byte shows too;
 *   - below n bytes the ranks share them: rank x adds 2^(x / size) at byte
 *     x mod size, so each rank is one bit of the expected sum and a
 *     missing or doubled rank changes it; with more than 7 ranks a byte
 *     (n > 7 size) the ranks beyond go unchecked (their terms are 0).
 * No sum, even with a rank counted three times, passes 255: the check does
 * not depend on whether the library's byte sums wrap or saturate (Open
 * MPI 4.1's vectorised sums saturate). A flipped bit changes the byte it
 * is in. (A bitwise OR of patterns, the check before, hid a doubled rank,
 * x | x = x, and a bit one rank set covered another's flipped one.)
 */
#ifndef COMMSWEEP_CPM_REDUCE_DATA_H
#define COMMSWEEP_CPM_REDUCE_DATA_H

#include <stddef.h>

/* Byte i of rank x's contribution to run iter of a reduction of size bytes
 * per process over n ranks. */
unsigned char reduce_data_term(int x, int n, size_t size, size_t iter, size_t i);
/* What byte i of the result must be: the sum of the n terms. */
unsigned char reduce_data_sum(int n, size_t size, size_t iter, size_t i);

#endif
