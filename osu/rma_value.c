/* rma_value: values and expected results of validated runs; see rma_value.h. */
#include "rma_value.h"

#include <string.h>

#include "buf.h"

uint64_t rma_value_pattern(int rank, size_t iteration, size_t index)
{
    return buf_pattern(rank, iteration, index);
}

uint64_t rma_value_addend(int rank, size_t iteration, size_t index)
{
    return (uint64_t)buf_pattern(rank, iteration, index) + 1;
}

uint64_t rma_value_swap(int rank, size_t iteration, size_t index)
{
    (void)index;
    return ((uint64_t)(rank + 1) << 40) | (uint64_t)(iteration + 1);
}

uint64_t rma_elem_mask(size_t elem)
{
    return elem >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * elem)) - 1);
}

uint64_t rma_combine_value(enum rma_combine c, uint64_t before, uint64_t operand, size_t elem)
{
    uint64_t v = c == RMA_SUM ? before + operand : operand;
    return v & rma_elem_mask(elem);
}

uint64_t rma_elem_load(const void *base, size_t idx, size_t elem)
{
    const unsigned char *p = (const unsigned char *)base + idx * elem;
    switch (elem) {
    case 1:
        return *p;
    case 4: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

void rma_elem_store(void *base, size_t idx, size_t elem, uint64_t v)
{
    unsigned char *p = (unsigned char *)base + idx * elem;
    switch (elem) {
    case 1:
        *p = (unsigned char)v;
        break;
    case 4: {
        uint32_t w = (uint32_t)v;
        memcpy(p, &w, sizeof w);
        break;
    }
    default:
        memcpy(p, &v, sizeof v);
        break;
    }
}
