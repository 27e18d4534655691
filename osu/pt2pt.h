/*
 * pt2pt: the one driver behind the OSU-style point-to-point programs
 * (osu_latency, osu_latency_mt, osu_latency_mp, osu_bw, osu_bibw,
 * osu_mbw_mr, osu_multi_lat, the persistent ones, osu_bw_fan_in/out).
 *
 * A program fills a struct pt2pt_bench: its name and defaults, which rank
 * counts it accepts, its roles (setup), what one batch of iterations is on
 * this rank (exchange) and how a time per iteration becomes its reported
 * values. The driver owns everything else: MPI start (osu_parse, -I),
 * options, rank-count
 * checks, the -M cap, buffers (allocated once at the largest size; with
 * OMB 7.4's -b multiple one per message of a window, or, for the programs
 * without a window, again for each size as OMB does), the size sweep (and
 * window sweep for -V), warm-up, timing, the cross-rank reduction, -f
 * statistics, -c validation and printing.
 *
 * Validation (-c): each timed iteration is then run on its own; before it the
 * sending ranks fill their data with buf_pattern(rank, iteration, index) and
 * every rank meets in a barrier, after it the receiving ranks check what
 * arrived. Filling and checking stay outside the timed part. A wrong byte
 * prints the size's row with "Fail", one message and ends with status 1.
 * Setting COMMSWEEP_CORRUPT=1 in the environment makes rank 0 (or the rank
 * COMMSWEEP_CORRUPT_RANK names) damage one byte of every message it sends, so
 * tests can prove that validation catches bad data.
 */
#ifndef COMMSWEEP_OSU_PT2PT_H
#define COMMSWEEP_OSU_PT2PT_H

#include <stdbool.h>
#include <stddef.h>

#include "msg.h"
#include "osu.h"
#include "osu_ddt.h"

/* The OSU defaults (struct osu_program fields) of the latency programs and
 * of the bandwidth programs: sizes up to 4 MiB, fewer iterations above 8 KiB. */
#define PT2PT_LATENCY_DEFAULTS                                                          \
    .min_size = 1, .max_size = (size_t)1 << 22, .iter_small = 10000, .warm_small = 100, \
    .iter_large = 1000, .warm_large = 10, .large_threshold = 8192
#define PT2PT_BANDWIDTH_DEFAULTS                                                      \
    .min_size = 1, .max_size = (size_t)1 << 22, .iter_small = 100, .warm_small = 10, \
    .iter_large = 20, .warm_large = 2, .large_threshold = 8192, .default_window = 64

#define PT2PT_MAX_COLUMNS 8
#define PT2PT_VARY_WINDOWS 128 /* -V without -W: windows 1 to 128, as OMB 7.4 */

enum pt2pt_ranks {
    PT2PT_EXACTLY_TWO, /* ranks 0 and 1 only */
    PT2PT_EVEN,        /* an even number >= 2: rank i pairs with i + np/2 */
    PT2PT_BY_SETUP,    /* the program's setup checks the count (the fan tests) */
};

/* How the times of the ranks that are timed combine into one. */
enum pt2pt_combine {
    PT2PT_SLOWEST, /* maximum: everything measured finished within it */
    PT2PT_MEAN,    /* average over the timed ranks (multi-pair latency) */
};

/* What the driver hands to a program's callbacks. */
struct pt2pt_ctx {
    const struct osu_opts *opts;
    int rank, nranks;  /* in comm */
    MPI_Comm comm;     /* the world, or this rank's group (--groups) */
    int peer;          /* partner rank, -1 when this rank takes no part */
    const int *peers;  /* the partners of the one-way window: &peer, or the
                        * setup's list (a fan's receiving or sending end) */
    size_t npeers;     /* 0 when this rank takes no part */
    bool slice_per_peer;  /* setup: each peer's messages land in a slice of
                           * their own (slots >= npeers), so -c can check them */
    size_t peer_stride;/* bytes between those slices (the driver sets it: the
                        * largest size; 0: all peers' land in the same bytes) */
    enum buf_where where; /* this rank's buffers (by default osu_where_for_rank) */
    int reporter;      /* -z: the rank whose single iterations are reported (0) */
    bool initiator;    /* sends first / sends the data (first half of a pair) */
    bool timed;        /* this rank's time enters the reported figure */
    bool sends_data;   /* -c: the driver fills send before each iteration */
    bool receives_data;/* -c: the driver checks recv after each iteration */
    size_t npairs;     /* pairs that communicate */
    size_t slots;      /* send and recv hold this many max_size slices (1) */
    size_t message_stride; /* -b multiple: bytes between the buffers of the
                            * messages of a window, each slots slices (the
                            * driver sets it; 0: one buffer for all) */
    size_t size;       /* current message size in bytes */
    size_t window;     /* current window (messages per iteration) */
    size_t iteration;  /* -c: index of the iteration about to run */
    size_t ncolumns;   /* value columns printed; setup may lower it */
    struct msg_type type; /* describes one message of size bytes */
    const struct osu_ddt *ddt; /* -D (kind OSU_DDT_NONE without it) */
    MPI_Datatype elem;    /* -T: the element type messages are sent as */
    size_t elem_size;
    struct buf send, recv;
    MPI_Request *requests; /* window * max(2, npeers) entries */
    MPI_Status *statuses;  /* as many (OSU waits with statuses too; MPICH's
                            * MPI_STATUSES_IGNORE trips gcc's bounds checks) */
    char ack[4];           /* the short reply of the bandwidth tests */
    void *state;           /* the program's own */
};

struct pt2pt_bench {
    struct osu_program prog;
    enum pt2pt_ranks ranks;
    enum pt2pt_combine combine;
    bool iteration_barrier;             /* a barrier before every timed iteration,
                                         * outside the timed part (OMB's osu_mbw_mr) */
    const char *const *columns;         /* value column names, at most PT2PT_MAX_COLUMNS */
    size_t ncolumns;
    const char *const *full_columns;    /* -f: min, max of the first column, iterations */
    const struct opt_spec *extra;       /* the program's own options */
    size_t nextra;
    const bool *vary_window;            /* points at the program's -V flag, or NULL */
    bool no_buffer_num;                 /* no -b (OMB 7.4 has none: osu_latency_mt, _mp) */
    bool unused_test_calls;             /* takes OMB 7.4's -t and uses it nowhere (osu_bw,
                                         * osu_bibw and their persistent forms, as OMB) */
    /* Under OMB 7.4's defaults (osu_defaults.h): the headings OMB prints
     * over the columns (NULL: the columns' own), and the width of the
     * first value without -c (0: OSU_WIDTH), where OMB's differ. */
    const char *const *omb_columns;
    int omb_value_width;

    /* After options: decide roles (peer or peers, initiator, timed,
     * sends/receives data), refuse bad option combinations with err_usage.
     * Every rank. */
    void (*setup)(struct pt2pt_ctx *c);
    /* Optional: after buffers exist, before the first size (start threads). */
    void (*prepare)(struct pt2pt_ctx *c);
    /* Optional: the program's own '#' lines after the preamble (out_comment;
     * rank 0 prints). Every rank. */
    void (*describe)(const struct pt2pt_ctx *c);
    /* Optional: before the first iteration of a size (warm-up included)
     * and after its last, outside the timed part (the persistent requests
     * of the *_persistent programs). */
    void (*size_begin)(struct pt2pt_ctx *c);
    void (*size_end)(struct pt2pt_ctx *c);
    /* Runs count iterations of the measured pattern on this rank. */
    void (*exchange)(struct pt2pt_ctx *c, size_t count);
    /* Optional -c hooks replacing the default whole-buffer fill and check;
     * check returns the first bad byte index or SIZE_MAX. */
    void (*fill)(struct pt2pt_ctx *c);
    size_t (*check)(struct pt2pt_ctx *c);
    /* The reported values from seconds per iteration (pure arithmetic). */
    void (*values)(const struct pt2pt_ctx *c, double seconds, double *out);
    /* Optional: stop what prepare started. */
    void (*finish)(struct pt2pt_ctx *c);
    /* Optional: the '#' lines OMB 7.4 prints before its title (before) and
     * after it (after), whole lines ended by newlines; the driver adds OMB's
     * "# Datatype: MPI_CHAR." line (or the -T type) after them. */
    void (*omb_lines)(const struct pt2pt_ctx *c, char *before, size_t before_len, char *after,
                      size_t after_len);
};


/* The whole program: returns only through harness_finish. */
_Noreturn void pt2pt_main(const struct pt2pt_bench *b, int argc, char **argv);

/* -c helper for programs with their own fill: fills len bytes of b at offset
 * with the pattern of (rank, iteration) and applies the COMMSWEEP_CORRUPT
 * hook when this process is the rank it names (buf_corrupt_requested). Such
 * programs check with buf_check_bytes. */
void pt2pt_fill_region(struct buf *b, size_t offset, size_t len, int rank, size_t iteration);

/* -c helper for programs with their own check: the first wrong byte of the
 * message of c->size bytes at offset in recv that rank filled with key as
 * its iteration (only the bytes -D's type carries), or SIZE_MAX. */
size_t pt2pt_check_message(const struct pt2pt_ctx *c, size_t offset, int rank, size_t key);

/* The measured patterns the programs share; each runs count iterations and
 * does nothing on a rank without a peer.
 *   ping_pong: MPI_Send then MPI_Recv of one message (initiator first).
 *   window_one_way: the initiator posts window MPI_Isend from one buffer to
 *     each of its peers and waits, a receiving rank posts window MPI_Irecv
 *     from each of its peers (into one buffer, or a slice per peer when
 *     peer_stride is set), waits and sends each a 4-byte reply, which the
 *     initiator waits for. Every rank has one peer but in the fan tests.
 *   window_both_ways: both post window MPI_Irecv and window MPI_Isend, wait.
 * Under -b multiple (message_stride set) message w of a window is sent from
 * and received into buffers of its own, w * message_stride bytes in.
 * With --staging each message costs one copy each way inside the timed
 * loop; a window makes all its copies to the host before its first send
 * and all copies back after its wait, since MPI forbids writing a buffer
 * that a pending send reads or reading one a pending receive fills. */
void pt2pt_ping_pong(struct pt2pt_ctx *c, size_t count);
void pt2pt_window_one_way(struct pt2pt_ctx *c, size_t count);
void pt2pt_window_both_ways(struct pt2pt_ctx *c, size_t count);

/* The same three patterns with persistent requests (MPI_Send_init,
 * MPI_Recv_init), made for each size by the *_begin hook into
 * c->requests, started (MPI_Start, MPI_Startall) and completed in the
 * timed loop, freed by pt2pt_persistent_end. The bandwidth tests' short
 * reply stays a plain MPI_Send/MPI_Recv, as in OMB 7.4. */
void pt2pt_persistent_ping_pong_begin(struct pt2pt_ctx *c);
void pt2pt_persistent_one_way_begin(struct pt2pt_ctx *c);
void pt2pt_persistent_both_ways_begin(struct pt2pt_ctx *c);
void pt2pt_persistent_end(struct pt2pt_ctx *c);
void pt2pt_persistent_ping_pong(struct pt2pt_ctx *c, size_t count);
void pt2pt_persistent_window_one_way(struct pt2pt_ctx *c, size_t count);
void pt2pt_persistent_window_both_ways(struct pt2pt_ctx *c, size_t count);

/* What the latency programs report: "Avg Latency(us)", one-way; the
 * struct pt2pt_bench fields the two-rank ones share. */
extern const char *const pt2pt_latency_columns[1];
extern const char *const pt2pt_latency_full_columns[3];
void pt2pt_latency_values(const struct pt2pt_ctx *c, double seconds, double *out);
#define PT2PT_TWO_RANK_LATENCY                                                          \
    .ranks = PT2PT_EXACTLY_TWO, .combine = PT2PT_SLOWEST,                               \
    .columns = pt2pt_latency_columns, .ncolumns = 1,                                    \
    .full_columns = pt2pt_latency_full_columns, .values = pt2pt_latency_values

/* What the two-rank bandwidth programs report: "Bandwidth (MB/s)"; the
 * struct pt2pt_bench fields osu_bw and osu_bibw share. */
extern const char *const pt2pt_bandwidth_columns[1];
extern const char *const pt2pt_bandwidth_full_columns[3];
#define PT2PT_TWO_RANK_BANDWIDTH                                                        \
    .ranks = PT2PT_EXACTLY_TWO, .combine = PT2PT_SLOWEST,                               \
    .columns = pt2pt_bandwidth_columns, .ncolumns = 1,                                  \
    .full_columns = pt2pt_bandwidth_full_columns, .unused_test_calls = true

/* The values of the two-rank bandwidth programs: the bytes of the window
 * (osu_bw) or of both directions' windows (osu_bibw) per second, MB/s. */
void pt2pt_bw_values(const struct pt2pt_ctx *c, double seconds, double *out);
void pt2pt_bibw_values(const struct pt2pt_ctx *c, double seconds, double *out);
/* The aggregate of many pairs (osu_mbw_mr, the fan tests): the bytes of a
 * window over every one of c->npairs pairs per second, MB/s, then the
 * messages per second. */
void pt2pt_aggregate_values(const struct pt2pt_ctx *c, double seconds, double *out);

/* setup of the one-way programs: data flows from initiator to peer only, so
 * -c fills on the initiator and checks on the peer. */
void pt2pt_one_way_setup(struct pt2pt_ctx *c);

/* Roles shared by the pair-based programs: ranks [0, npairs) pair with
 * rank + nranks/2; the rest (when -p asks for fewer pairs) stay idle. */
void pt2pt_pair_roles(struct pt2pt_ctx *c, size_t npairs);

#endif
