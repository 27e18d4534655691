/*
 * coll_neighbor: what the collective driver adds for the neighborhood
 * collectives (osu_neighbor_*, osu_ineighbor_*). Owns the -N option, the
 * distributed graph communicator the calls run on (made once, before the
 * sweep, its creation timed as OMB 7.4 times it), the buffer extents by the
 * number of sources and destinations, the per-neighbour counts,
 * displacements and types of the v and w calls at each size, and the values
 * -c expects, each received block traced to the rank that sent it and its
 * place in that rank's send buffer (nbr_topo.h).
 */
#ifndef COMMSWEEP_COLL_NEIGHBOR_H
#define COMMSWEEP_COLL_NEIGHBOR_H

#include <stdbool.h>
#include <stddef.h>

#include "coll.h"
#include "nbr_topo.h"
#include "opt.h"

struct coll_nbr {
    struct nbr_spec spec;       /* -N, OMB's default cart:1:1 */
    const char *arg;            /* -N's text, for the header */
    MPI_Comm comm;              /* the distributed graph communicator of the calls */
    struct nbr_lists lists;     /* this rank's sources and destinations */
    struct nbr_degrees degrees; /* over all ranks */
    int dims[NBR_MAX_DIMS];     /* cart: the grid (MPI_Dims_create) */
    size_t nedges;              /* graph */
    /* Per size and neighbour (coll_nbr_prepare): the v calls' counts and
     * displacements in units of the message type, the w calls' byte
     * displacements and types. */
    int *send_counts, *send_displs, *recv_counts, *recv_displs;
    MPI_Aint *send_wdispls, *recv_wdispls;
    MPI_Datatype *send_types, *recv_types;
};

/* The -N option, n its destination (set to the default here). */
struct opt_spec coll_nbr_option(struct coll_nbr *n);

/* Collective, after option parsing: builds -N's neighbourhood for c's
 * ranks, refusing (status 2, one line) what cannot be built, makes n->comm
 * and points c->nbr at n. OMB 7.4's lines before its title (the grid, the
 * time the creation took) go to before, '#' lines each ended by a newline. */
void coll_nbr_setup(struct coll_nbr *n, struct coll_ctx *c, char *before, size_t len);

/* Blocks of one size in a buffer of extent e: this rank's, or (most) the
 * largest any rank needs. */
size_t coll_nbr_blocks(const struct coll_nbr *n, enum coll_extent e, int nranks, bool most);

/* Refuses (status 2) a largest message of count elements (size bytes) whose
 * displacements a v call (vector) cannot give in an int. */
void coll_nbr_check_count(const struct coll_nbr *n, bool vector, size_t size, size_t count);

/* The counts, displacements and types of c's current size. */
void coll_nbr_prepare(struct coll_nbr *n, const struct coll_ctx *c);

/* Our '#' lines about the neighbourhood. */
void coll_nbr_print(const struct coll_nbr *n, int nranks);

void coll_nbr_free(struct coll_nbr *n);

/* -c: receive element i holds element i % count of the block its source
 * sent: the source's only send block (allgather), or its send block for
 * this rank (alltoall). */
bool coll_expect_neighbor_allgather(const struct coll_ctx *c, size_t iter, size_t i,
                                    double *want);
bool coll_expect_neighbor_alltoall(const struct coll_ctx *c, size_t iter, size_t i,
                                   double *want);

#endif
