/* rma_op: the timed one-sided calls; see rma_op.h. */
#include "rma_op.h"

#include "err.h"

MPI_Datatype rma_op_datatype(const struct rma_op *op)
{
    switch (op->elem) {
    case 1:
        return MPI_BYTE;
    case 4:
        return MPI_UINT32_T;
    default:
        return MPI_UINT64_T;
    }
}

static char *at(void *buffer, const struct rma_xfer *x, size_t slot)
{
    return (char *)buffer + slot * x->size;
}

static MPI_Aint target_at(const struct rma_xfer *x, size_t slot)
{
    return x->base + (MPI_Aint)(slot * x->size);
}

static void issue_put(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Put(at(x->origin, x, slot), x->type.count, x->type.type, x->peer,
                      target_at(x, slot), x->type.count, x->type.type, x->win));
}

static void issue_get(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Get(at(x->origin, x, slot), x->type.count, x->type.type, x->peer,
                      target_at(x, slot), x->type.count, x->type.type, x->win));
}

static void issue_acc(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Accumulate(at(x->origin, x, slot), x->type.count, x->type.type, x->peer,
                             target_at(x, slot), x->type.count, x->type.type, MPI_SUM,
                             x->win));
}

static void issue_get_acc(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Get_accumulate(at(x->origin, x, slot), x->type.count, x->type.type,
                                 at(x->result, x, slot), x->type.count, x->type.type, x->peer,
                                 target_at(x, slot), x->type.count, x->type.type, MPI_SUM,
                                 x->win));
}

static void issue_fop(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Fetch_and_op(at(x->origin, x, slot), at(x->result, x, slot), MPI_UINT64_T,
                               x->peer, target_at(x, slot), MPI_SUM, x->win));
}

static void issue_cas(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Compare_and_swap(at(x->origin, x, slot), x->compare, at(x->result, x, slot),
                                   MPI_UINT64_T, x->peer, target_at(x, slot), x->win));
}

const struct rma_op rma_op_put = {.call = "MPI_Put", .elem = 1, .combine = RMA_REPLACE,
                                  .value = rma_value_pattern, .issue = issue_put};
const struct rma_op rma_op_get = {.call = "MPI_Get", .elem = 1, .combine = RMA_REPLACE,
                                  .reads_target = true, .value = rma_value_pattern,
                                  .issue = issue_get};
const struct rma_op rma_op_acc = {.call = "MPI_Accumulate (MPI_UINT32_T, MPI_SUM)", .elem = 4,
                                  .combine = RMA_SUM, .value = rma_value_pattern,
                                  .issue = issue_acc};
const struct rma_op rma_op_get_acc = {.call = "MPI_Get_accumulate (MPI_UINT32_T, MPI_SUM)",
                                      .elem = 4, .combine = RMA_SUM, .fetches = true,
                                      .value = rma_value_pattern, .issue = issue_get_acc};
const struct rma_op rma_op_fop = {.call = "MPI_Fetch_and_op (MPI_UINT64_T, MPI_SUM)",
                                  .elem = 8, .combine = RMA_SUM, .fetches = true,
                                  .one_element = true, .value = rma_value_addend,
                                  .issue = issue_fop};
const struct rma_op rma_op_cas = {.call = "MPI_Compare_and_swap (MPI_UINT64_T)", .elem = 8,
                                  .combine = RMA_REPLACE, .fetches = true, .compares = true,
                                  .one_element = true, .value = rma_value_swap,
                                  .issue = issue_cas};
