/*
 * rma_op: the one-sided operations the programs time (MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op,
 * MPI_Compare_and_swap) and the element types they move. An operation is a
 * small record: how it combines with the target, which buffers carry data,
 * the values a validated run sends, and the call that issues one operation;
 * the element type is the run's (a program's -T, or the operation's own).
 */
#ifndef COMMSWEEP_OSU_RMA_OP_H
#define COMMSWEEP_OSU_RMA_OP_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "rma_value.h"

/* Element types. The first RMA_OMB_TYPES are OMB 7.4's -T types, in the
 * order of its -T all. */
enum rma_type {
    RMA_TYPE_CHAR,   /* OMB's mpi_char, moved as MPI_SIGNED_CHAR: MPI_CHAR is no
                      * type MPI_SUM or MPI_Compare_and_swap takes */
    RMA_TYPE_INT,    /* MPI_INT */
    RMA_TYPE_FLOAT,  /* MPI_FLOAT */
    RMA_TYPE_BYTE,   /* plain bytes of put and get (MPI_BYTE) */
    RMA_TYPE_UINT32, /* the seed's accumulate (osu_passive_acc_latency) */
    RMA_TYPE_COUNT
};
#define RMA_OMB_TYPES 3

/* OMB's -T names, "all" after them; index = enum rma_type. */
extern const char *const rma_type_choices[];

/* The name OMB 7.4 prints in "# Datatype: NAME." ("MPI_CHAR", ...). */
const char *rma_type_name(enum rma_type t);
struct rma_elem rma_type_elem(enum rma_type t);
MPI_Datatype rma_type_mpi(enum rma_type t);

/* Everything one call needs; the driver fills it once per message size. */
struct rma_xfer {
    void *origin;        /* source (put, accumulate) or destination (get) */
    void *result;        /* fetched previous target contents */
    void *compare;       /* compare-and-swap comparand */
    struct msg_type type;/* one message of size bytes */
    MPI_Datatype elem;   /* one element (fetch-and-op, compare-and-swap) */
    size_t size;         /* bytes per operation; slot s is at s * size */
    int peer;
    MPI_Aint base;       /* displacement of the peer's window start */
    MPI_Win win;
};

struct rma_op {
    const char *call;     /* "MPI_Put", for the header */
    const char *mpi_op;   /* "MPI_SUM" where the call takes one, else NULL */
    enum rma_type type;   /* the element type where the program has no -T */
    enum rma_combine combine;
    bool reads_target;    /* data flows from the target window to origin (get) */
    bool fetches;         /* result holds the target's previous contents */
    bool compares;        /* needs a comparand (compare-and-swap) */
    bool integers_only;   /* MPI allows no floating-point type (compare-and-swap) */
    bool one_element;     /* works on exactly one element, no size sweep */
    rma_value_fn value;   /* what the origin sends in a validated run */
    void (*issue)(const struct rma_xfer *x, size_t slot);
};

extern const struct rma_op rma_op_put, rma_op_get, rma_op_acc, rma_op_get_acc, rma_op_fop,
    rma_op_cas;

/* Whether op can work on elements of type t (MPI's rules). */
bool rma_op_takes(const struct rma_op *op, enum rma_type t);

#endif
