/*
 * pcoll: whether this MPI library has persistent collectives, and under
 * which names. The one place that decides it, for the C files that make
 * persistent collective requests and for the build (osu/coll.mk
 * preprocesses PCOLL_AVAILABLE to leave out the programs that need them).
 *
 * MPI 4 names them MPI_<Coll>_init (MPICH 4); Open MPI 4.1 has them as
 * MPIX_<Coll>_init in its "pcollreq" extension (mpi-ext.h). PCOLL_INIT(Coll)
 * is the function of the library at hand, e.g. PCOLL_INIT(Alltoall);
 * PCOLL_SOURCE says which of the two it is (or that there is none), for
 * the output.
 */
#ifndef COMMSWEEP_PCOLL_H
#define COMMSWEEP_PCOLL_H

#include <mpi.h>

#if MPI_VERSION >= 4
#define PCOLL_AVAILABLE 1
#define PCOLL_INIT(coll) MPI_##coll##_init
#define PCOLL_SOURCE "MPI-4: MPI_<collective>_init"
#elif defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PCOLL_AVAILABLE 1
#define PCOLL_INIT(coll) MPIX_##coll##_init
#define PCOLL_SOURCE "Open MPI pcollreq extension: MPIX_<collective>_init"
#endif
#endif
#endif

#ifndef PCOLL_AVAILABLE
#define PCOLL_AVAILABLE 0
#define PCOLL_SOURCE "none: this MPI library has no persistent collectives"
#endif

#endif
