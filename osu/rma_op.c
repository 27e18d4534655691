/* rma_op: the timed one-sided calls and their element types; see rma_op.h. */
#include "rma_op.h"

#include "err.h"

const char *const rma_type_choices[] = {"mpi_char", "mpi_int", "mpi_float", "all", NULL};

const char *rma_type_name(enum rma_type t)
{
    switch (t) {
    case RMA_TYPE_INT: return "MPI_INT";
    case RMA_TYPE_FLOAT: return "MPI_FLOAT";
    case RMA_TYPE_UINT32: return "MPI_UINT32_T";
    /* Bytes are what OMB 7.4 calls MPI_CHAR in its put and get programs. */
    default: return "MPI_CHAR";
    }
}

struct rma_elem rma_type_elem(enum rma_type t)
{
    switch (t) {
    case RMA_TYPE_INT: return (struct rma_elem){sizeof(int), RMA_INTEGER};
    case RMA_TYPE_FLOAT: return (struct rma_elem){sizeof(float), RMA_FLOATING};
    case RMA_TYPE_UINT32: return (struct rma_elem){4, RMA_INTEGER};
    default: return (struct rma_elem){1, RMA_INTEGER};
    }
}

MPI_Datatype rma_type_mpi(enum rma_type t)
{
    switch (t) {
    case RMA_TYPE_CHAR: return MPI_SIGNED_CHAR;
    case RMA_TYPE_INT: return MPI_INT;
    case RMA_TYPE_FLOAT: return MPI_FLOAT;
    case RMA_TYPE_UINT32: return MPI_UINT32_T;
    default: return MPI_BYTE;
    }
}

bool rma_op_takes(const struct rma_op *op, enum rma_type t)
{
    return !op->integers_only || rma_type_elem(t).kind == RMA_INTEGER;
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
    MPI_CHECK(MPI_Fetch_and_op(at(x->origin, x, slot), at(x->result, x, slot), x->elem,
                               x->peer, target_at(x, slot), MPI_SUM, x->win));
}

static void issue_cas(const struct rma_xfer *x, size_t slot)
{
    MPI_CHECK(MPI_Compare_and_swap(at(x->origin, x, slot), x->compare, at(x->result, x, slot),
                                   x->elem, x->peer, target_at(x, slot), x->win));
}

const struct rma_op rma_op_put = {.call = "MPI_Put", .type = RMA_TYPE_BYTE,
                                  .combine = RMA_REPLACE, .value = rma_value_pattern,
                                  .issue = issue_put};
const struct rma_op rma_op_get = {.call = "MPI_Get", .type = RMA_TYPE_BYTE,
                                  .combine = RMA_REPLACE, .reads_target = true,
                                  .value = rma_value_pattern, .issue = issue_get};
const struct rma_op rma_op_acc = {.call = "MPI_Accumulate", .mpi_op = "MPI_SUM",
                                  .type = RMA_TYPE_UINT32, .combine = RMA_SUM,
                                  .value = rma_value_addend, .issue = issue_acc};
const struct rma_op rma_op_get_acc = {.call = "MPI_Get_accumulate", .mpi_op = "MPI_SUM",
                                      .type = RMA_TYPE_CHAR, .combine = RMA_SUM,
                                      .fetches = true, .value = rma_value_addend,
                                      .issue = issue_get_acc};
const struct rma_op rma_op_fop = {.call = "MPI_Fetch_and_op", .mpi_op = "MPI_SUM",
                                  .type = RMA_TYPE_CHAR, .combine = RMA_SUM, .fetches = true,
                                  .one_element = true, .value = rma_value_addend,
                                  .issue = issue_fop};
const struct rma_op rma_op_cas = {.call = "MPI_Compare_and_swap", .type = RMA_TYPE_CHAR,
                                  .combine = RMA_REPLACE, .fetches = true, .compares = true,
                                  .integers_only = true, .one_element = true,
                                  .value = rma_value_swap, .issue = issue_cas};
