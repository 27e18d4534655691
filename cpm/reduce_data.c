/* reduce_data: reduction data that shows every contribution; see reduce_data.h. */
#include "reduce_data.h"

#include "buf.h"

/* Ranks that can share a byte: their powers of two add up to at most 127,
 * so a doubled one stays below 256. */
#define REDUCE_DATA_LEVELS 7

unsigned char reduce_data_term(int x, int n, size_t size, size_t iter, size_t i)
{
    size_t slots = size < (size_t)n ? size : (size_t)n, rank = (size_t)x;
    if (slots == 0 || i % slots != rank % slots)
        return 0;
    if (slots == (size_t)n) /* one owner a byte: 1 + [0, 85), thrice at most 255 */
        return (unsigned char)(1 + buf_pattern(x, iter, i) % 85);
    size_t level = rank / slots;
    return level < REDUCE_DATA_LEVELS ? (unsigned char)(1u << level) : 0;
}

unsigned char reduce_data_sum(int n, size_t size, size_t iter, size_t i)
{
    unsigned sum = 0;
    for (int x = 0; x < n; x++)
        sum += reduce_data_term(x, n, size, iter, i);
    return (unsigned char)sum;
}
