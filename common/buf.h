/*
 * buf: communication buffers on the host (page aligned) or on the GPU, and
 * the data pattern used to validate them. A pattern value is keyed by the
 * sending rank, the iteration and the element index, is a small non-negative
 * integer (exact in char/int/float/double, and sums of a few thousand stay
 * exact in float), so receivers can recompute what they must have got.
 * Device and managed buffers are filled and checked through host copies
 * (common/devmem). Synchronisation rule: every fill, memset, stage and copy
 * here has landed when it returns (the devmem calls synchronise after a
 * copy that may return early, devmem.h), so a buffer may go to MPI or to a
 * data check right after it. Device pointers go to MPI only when the
 * library says it can read them (devmem_mpi_aware); otherwise the program
 * refuses, or with --staging (buf_set_staging) every device buffer gets a
 * pinned host copy (page-aligned, not page-locked, with OpenACC:
 * devmem_pinned_name) that MPI reads and writes, and the program copies
 * between the two inside its timed region (buf_stage_out before a send,
 * buf_stage_in after a receive), so the time includes the copies a
 * host-only MPI would need. A host copy is never written while a send from
 * it is pending, nor copied back before its receive completed.
 *
 * Every verdict on buffers and devices (buf_memory_where, buf_require,
 * buf_alloc_all) is collective: a refusal that only some ranks reach ends
 * every rank, with one line from the lowest rank that refused, naming it
 * and its host.
 */
#ifndef COMMSWEEP_BUF_H
#define COMMSWEEP_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

enum buf_where {
    BUF_HOST = 0,
    BUF_DEVICE,         /* the build's vendor: CUDA, HIP or OpenACC */
    BUF_MANAGED_HOST,   /* managed memory, preferred on the host (OSU MH) */
    BUF_MANAGED_DEVICE, /* managed memory, preferred on the device (OSU MD) */
};

struct buf {
    void *ptr;
    size_t bytes;
    enum buf_where where;
    void *stage; /* --staging: pinned host copy of a device buffer, else NULL */
};

/* The memory a program is asked for (--memory, OSU -d), index = enum value. */
enum buf_memory { BUF_MEM_HOST, BUF_MEM_CUDA, BUF_MEM_HIP, BUF_MEM_OPENACC, BUF_MEM_MANAGED };
/* --memory names: "host", "cuda", "hip", "openacc", "managed"; NULL-terminated. */
extern const char *const buf_memory_names[];

/* Where a --memory choice puts buffers (managed: preferred on the device).
 * Exits with status 2 and one line (using spelled, e.g. "--memory=hip")
 * when this build's device layer is another vendor or has no managed
 * memory. Does not check that a device exists: buf_require does.
 * Collective, as every verdict here: call it on every rank, after MPI
 * started; the lowest rank that refuses prints one line that names it and
 * its host ("rank 1 on node7: ..."), and every rank ends with status 2. */
enum buf_where buf_memory_where(enum buf_memory memory, const char *spelled);

/* The --memory and --staging options of the families that take them, as
 * struct opt_spec initializers (var: an int, a bool). */
#define BUF_MEMORY_OPT(var)                                                          \
    {.long_name = "memory", .kind = OPT_CHOICE, .dest = (var),                       \
     .metavar = "host|cuda|hip|openacc|managed", .help = "where the buffers live (default host)", \
     .choices = buf_memory_names}
#define BUF_STAGING_OPT(var)                                                          \
    {.long_name = "staging", .kind = OPT_FLAG, .dest = (var),                         \
     .help = "device buffers reach MPI as host copies (pinned where the vendor can), copied in " \
             "the timed region"}
/* After parsing them: sets staging, checks the choice (buf_memory_where,
 * buf_require) and returns where the buffers go. */
enum buf_where buf_memory_setup(enum buf_memory memory, bool staging);

/* --staging on or off (before any buf_require or buf_alloc). */
void buf_set_staging(bool on);
bool buf_staging(void);

/* Exits with status 2 and one line when where cannot be served: a build
 * without device support, no GPU visible, device memory with an MPI
 * library that does not say it can read it and no --staging, or managed
 * memory whose preferred location the device cannot keep (devmem_managed:
 * HIP without XNACK keeps managed memory in host memory, so "preferred on
 * device" is refused; CUDA without concurrent managed access refuses
 * both). The first call for device or managed memory selects the device
 * (devmem_select: local rank modulo visible devices; the local rank from
 * the launcher's variables, else from MPI_Comm_split_type); until then
 * nothing touches the GPU runtime, so host runs create no GPU context. A
 * device that cannot be selected ends every rank with status 1.
 * Collective: call it on every rank with the same where, after MPI_Init and
 * before allocating device memory; a verdict that only some ranks reach
 * ends all of them, with one line naming the rank and host that refused. */
void buf_require(enum buf_where where);
/* The device part of buf_require(BUF_DEVICE), for a program whose device
 * pointers never reach MPI (a copy loop): refused without a device,
 * whatever the MPI library can read. Collective, as buf_require. */
void buf_require_device(void);

/* "host", "device (cuda)", "device (hip), staged through host",
 * "managed (cuda), preferred on host", ... */
const char *buf_where_label(enum buf_where where);
/* When any of the n placements is not the host: '#' lines naming the GPU of
 * each rank (devmem_describe; gathered over all ranks, mpistart_comm),
 * with managed memory where it lives on each rank (devmem_managed_where),
 * whether the MPI library reads device memory itself or the data is staged,
 * and how that was found out. Call on every rank; rank 0 prints. */
void buf_print_device_header(const enum buf_where *where, size_t n);

/* Allocates bytes (rounded up to a page on the host). On failure returns -1
 * and leaves a message naming the size in err (errlen bytes); device and
 * managed memory fail before buf_require selected a device. */
int buf_alloc(struct buf *b, size_t bytes, enum buf_where where, char *err, size_t errlen);
/* Collective over comm (all ranks): allocate, and if any rank failed, exit
 * with status 2 and one line naming that rank, its host and the size. */
void buf_alloc_all(struct buf *b, size_t bytes, enum buf_where where, MPI_Comm comm);
void buf_free(struct buf *b);

/* Pattern value for (rank, iter, index): in [0, BUF_PATTERN_RANGE). */
#define BUF_PATTERN_RANGE 251u
static inline unsigned buf_pattern(int rank, size_t iter, size_t index)
{
    uint64_t h = (uint64_t)index * 2654435761u + (uint64_t)rank * 40503u + (uint64_t)iter * 97u;
    return (unsigned)((h ^ (h >> 17)) % BUF_PATTERN_RANGE);
}

/* Fill bytes [0, b->bytes) with the pattern as bytes / write zeroes. */
int buf_fill_bytes(struct buf *b, int rank, size_t iter);
void buf_zero(struct buf *b);
/* Every byte set to value (0xFF makes integers -1 and doubles NaN: a poison
 * no pattern produces). */
void buf_set_bytes(struct buf *b, int value);
/* Index of the first byte that differs from the pattern, or SIZE_MAX. Checks
 * [offset, offset + len) against pattern indices [0, len). */
size_t buf_check_bytes(const struct buf *b, size_t offset, size_t len, int rank, size_t iter);

/* Bytes [offset, offset + len) of b as a buffer of their own (no staging). */
static inline struct buf buf_view(const struct buf *b, size_t offset, size_t len)
{
    struct buf v = {(char *)b->ptr + offset, len, b->where, NULL};
    return v;
}

/* What MPI is given for b: the buffer itself, or its pinned host copy. */
static inline void *buf_mpi(const struct buf *b) { return b->stage ? b->stage : b->ptr; }
/* With --staging on a device buffer: copy [offset, offset + len) from the
 * device to the host copy (before MPI sends it) or back (after MPI received
 * it). No-ops on every other buffer. */
void buf_stage_out(struct buf *b, size_t offset, size_t len);
void buf_stage_in(struct buf *b, size_t offset, size_t len);

/* Copies between a buffer (host or device) and host memory. */
void buf_copy_out(void *host_dst, const struct buf *b, size_t offset, size_t len);
void buf_copy_in(struct buf *b, size_t offset, const void *host_src, size_t len);

/* Flips the lowest bit of the byte at offset (host or device). A pattern
 * byte (below 251) stays below 251, and always changes. */
void buf_flip_byte(struct buf *b, size_t offset);

/* Test hook that proves a data check can fail: COMMSWEEP_CORRUPT=1 in the
 * environment asks one rank to damage data on purpose, the rank named by
 * COMMSWEEP_CORRUPT_RANK (a number; when it is unset or not a number,
 * rank 0). What is damaged is the program's to say. buf_corrupt_rank gives
 * that rank, or -1 when the hook is off; buf_corrupt_requested(rank) is
 * true when rank is the one. */
int buf_corrupt_rank(void);
bool buf_corrupt_requested(int rank);

#endif
