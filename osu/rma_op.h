/*
 * rma_op: the one-sided operations the programs time (MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
 * MPI_Compare_and_swap). Each is a small record: its element size, how it
 * combines with the target, which buffers carry data, the values a validated
 * run sends, and the call that issues one operation.
 */
#ifndef COMMSWEEP_OSU_RMA_OP_H
#define COMMSWEEP_OSU_RMA_OP_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "rma_value.h"

/* Everything one call needs; the driver fills it once per message size. */
struct rma_xfer {
    void *origin;        /* source (put, accumulate) or destination (get) */
    void *result;        /* fetched previous target contents */
    void *compare;       /* compare-and-swap comparand */
    struct msg_type type;/* one message of size bytes */
    size_t size;         /* bytes per operation; slot s is at s * size */
    int peer;
    MPI_Aint base;       /* displacement of the peer's window start */
    MPI_Win win;
};

struct rma_op {
    const char *call;     /* "MPI_Put", for the header */
    size_t elem;          /* bytes per element: 1, 4 or 8 */
    enum rma_combine combine;
    bool reads_target;    /* data flows from the target window to origin (get) */
    bool fetches;         /* result holds the target's previous contents */
    bool compares;        /* needs a comparand (compare-and-swap) */
    bool one_element;     /* works on exactly one element, no size sweep */
    rma_value_fn value;   /* what the origin sends in a validated run */
    void (*issue)(const struct rma_xfer *x, size_t slot);
};

extern const struct rma_op rma_op_put, rma_op_get, rma_op_acc, rma_op_get_acc, rma_op_fop,
    rma_op_cas;

/* MPI_BYTE, MPI_UINT32_T or MPI_UINT64_T by element size. */
MPI_Datatype rma_op_datatype(const struct rma_op *op);

#endif
