/*
 * cpm_measure: the measurement layer the models are built on (what MPIBlib
 * provides to the original CPM). It owns
 *   - the precision of an experiment and the Student-t stopping rule,
 *   - the repetition of every experiment, untimed warm-up first,
 *   - message sets, regular and adaptive, and the driver that walks them,
 *   - point-to-point round trips for every pair (serial or in parallel over a
 *     round-robin schedule) and one-to-two experiments over triplets,
 *   - collective timing with the methods max, root and global.
 * Every decision on the number of repetitions is taken by one rank and sent
 * to the others taking part, so all ranks leave an experiment together.
 */
#ifndef COMMSWEEP_CPM_MEASURE_H
#define COMMSWEEP_CPM_MEASURE_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* How long to repeat an experiment: at least min_reps, at most max_reps,
 * stopping as soon as the half-width of the two-sided Student-t interval at
 * level cl is below eps times the mean. min_reps == max_reps: fixed count. */
struct cpm_precision {
    size_t min_reps, max_reps;
    double cl, eps;
};
#define CPM_PRECISION_DEFAULT {5, 100, 0.95, 0.025}

/* One measured quantity. time is the mean, ci the half-width of the
 * confidence interval, above_wtick whether the mean exceeds MPI_Wtick. */
struct cpm_result {
    size_t size;
    double time;
    size_t reps;
    double ci;
    int above_wtick;
    double max_time; /* the largest sample (escalations show there) */
    double median, p5, p95, cv; /* the samples' spread (stats.h); --stats prints it */
};
#define CPM_RESULT_DOUBLES 10 /* a result packed as doubles for reductions */
void cpm_result_pack(const struct cpm_result *r, double *d);
void cpm_result_unpack(const double *d, struct cpm_result *r);

/* Samples of one experiment, kept until the stopping rule is met. */
struct cpm_sampler {
    struct cpm_precision precision;
    double *samples;
    size_t n;
};
void cpm_sampler_init(struct cpm_sampler *s, const struct cpm_precision *p);
void cpm_sampler_free(struct cpm_sampler *s);
/* Adds a sample; true when no more repetitions are needed. */
bool cpm_sampler_add(struct cpm_sampler *s, double t);
/* Whether the n samples in x satisfy the rule (pure, for tests). */
bool cpm_precision_reached(const struct cpm_precision *p, const double *x, size_t n);
void cpm_sampler_result(const struct cpm_sampler *s, size_t size, struct cpm_result *r);
/* Checks the fields; 0 or -1 with a message. */
int cpm_precision_check(const struct cpm_precision *p, char *err, size_t errlen);

/* Message sizes: min_size, min_size + stride, ... and max_size itself last
 * (when the stride does not land on it), or adaptive when stride is 0: the
 * stride doubles while each new point lies within max_diff (relative) of the
 * line through the two previous points, else it is halved (not below
 * min_stride) and a point is inserted closer, again ending with max_size;
 * or, when doubling is set (stride and the adaptive fields are then not
 * used), the manual's rule of collective and prediction: min_size, then
 * each size twice the one before (0 followed by 1) while it is at most
 * max_size, which is not added; at most max_num sizes in every kind. */
struct cpm_msgset {
    size_t min_size, max_size, stride;
    double max_diff;
    size_t min_stride, max_num;
    bool doubling;
};
#define CPM_MSGSET_DEFAULT {0, 65536, 8192, 0.1, 1024, 100, false}
/* The size after last in a set that is not adaptive (regular by stride,
 * or doubling): true with it in *next, false when last ends the set (its
 * max_num aside). Pure: the tools that predict walk the sizes the tools
 * that measure do. */
bool cpm_msgset_after(const struct cpm_msgset *m, size_t last, size_t *next);
/* Checks the fields and that the set yields at least min_sizes sizes (a
 * regression needs two); 0, or -1 with a message. */
int cpm_msgset_check(const struct cpm_msgset *m, size_t min_sizes, char *err, size_t errlen);
/* How many sizes the set yields: exact for a regular set; for an adaptive
 * one the fewest it can yield (1 when min = max, else 2 within max_num). */
size_t cpm_msgset_count(const struct cpm_msgset *m);

/* The walk over a message set as an iterator, independent of MPI: ask for
 * the next size, measure it, record its time. */
struct cpm_msgset_walk {
    struct cpm_msgset set;
    size_t count;      /* sizes recorded */
    size_t *sizes;     /* recorded sizes, ascending */
    double *times;
    size_t stride;     /* current adaptive stride */
    size_t pending;    /* the size handed out and not yet recorded */
};
void cpm_msgset_walk_init(struct cpm_msgset_walk *w, const struct cpm_msgset *m);
void cpm_msgset_walk_free(struct cpm_msgset_walk *w);
/* The next size to measure, or false when the set is complete. */
bool cpm_msgset_walk_next(struct cpm_msgset_walk *w, size_t *size);
void cpm_msgset_walk_record(struct cpm_msgset_walk *w, size_t size, double time);

/* Measures one message size: collective over comm, fills nres results on
 * rank 0, where results[0].time drives the adaptive set; the other ranks
 * get room for one result only and must write none beyond it. */
typedef void (*cpm_measure_fn)(MPI_Comm comm, size_t size, void *ctx,
                               struct cpm_result *results);
/* Collective: walks the set with measure; rank 0 decides the sizes and
 * broadcasts them. Calls each(size_index, results, ctx) on rank 0 after every
 * size (may be NULL). Returns the number of sizes measured; *sizes_out
 * (malloc'ed, on every rank) receives them when not NULL. */
size_t cpm_msgset_run(MPI_Comm comm, const struct cpm_msgset *m, size_t nres,
                      cpm_measure_fn measure, void *ctx,
                      void (*each)(size_t index, const struct cpm_result *r, void *ctx),
                      size_t **sizes_out);

/* Pair and triplet numbering: pairs i < j and triplets i < j < k of n
 * processes in lexicographic order. */
size_t cpm_pairs(int n);
size_t cpm_pair_index(int n, int i, int j); /* i != j, any order */
void cpm_pair_at(int n, size_t index, int *i, int *j);
size_t cpm_triplets(int n);
size_t cpm_triplet_index(int n, int i, int j, int k); /* i < j < k */
void cpm_triplet_at(int n, size_t index, int *i, int *j, int *k);

/* Round-robin schedule: partner of rank in round (0 <= round < rounds), or
 * -1 for a bye. n - 1 rounds for even n, n for odd n; every pair meets once. */
int cpm_schedule_rounds(int n);
int cpm_schedule_partner(int n, int round, int rank);

/* Rounds of disjoint triplets for the one-to-two experiments: serial, round
 * t is triplet t alone; parallel, taken greedily in index order from the
 * first triplet not yet done, each when none of its processes is busy in
 * the round. Only the rank that decides (0) needs this state. */
struct cpm_triplet_rounds {
    int n;
    bool parallel;
    size_t count, first;  /* triplets; the first not yet done */
    unsigned char *done;  /* parallel: one bit per triplet */
    unsigned char *busy;  /* parallel: one flag per process */
};
/* 0, or -1 when out of memory. */
int cpm_triplet_rounds_init(struct cpm_triplet_rounds *s, int n, bool parallel);
void cpm_triplet_rounds_free(struct cpm_triplet_rounds *s);
/* The next round's triplet indices into round (room for n / 3); returns
 * how many, 0 once every triplet has had its round. */
size_t cpm_triplet_round(struct cpm_triplet_rounds *s, size_t *round);

/* The warm-up that every experiment starts with: untimed repetitions,
 * exactly like the timed ones. A pair's first exchanges pay for what the
 * MPI library sets up on first use, and a mean of a few repetitions would
 * carry it: the connection (the first round trip of a pair costs many
 * times a settled one, the next few still more), Open MPI's per-peer fast
 * path over shared memory (set up after btl_vader_fbox_threshold, 16,
 * messages to a peer); and an experiment's buffers fault their pages in
 * when first touched, a new size may be the first use of another protocol.
 * So at least CPM_WARMUP_MIN_REPS, then more until CPM_WARMUP_MAX_REPS or
 * until the warm-up has lasted CPM_WARMUP_SECONDS: where one repetition is
 * long, a first-use cost is small beside it, and the warm-up costs at most
 * one repetition more than that. The deciding rank tells the others after
 * each warm-up repetition whether another follows. */
#define CPM_WARMUP_MIN_REPS 1
#define CPM_WARMUP_MAX_REPS 20
#define CPM_WARMUP_SECONDS 1e-3
/* Whether another warm-up repetition follows done of them, begun elapsed
 * seconds ago. */
bool cpm_warmup_more(size_t done, double elapsed);

/* A two-sided experiment: a measuring rank and the partners it exchanges
 * with. repeat runs one repetition on the measurer and fills nq samples
 * (seconds); answer takes a partner's part in one. The warm-up first, then
 * repetitions until the precision rule holds for every sample kind, the
 * measurer telling each partner after every timed repetition whether
 * another follows. */
enum { CPM_EXPERIMENT_MAX_Q = 4 };
struct cpm_experiment {
    int measurer;
    const int *partners;
    int npartners;
    size_t size; /* what the results record */
    size_t nq;   /* samples per repetition, 1 .. CPM_EXPERIMENT_MAX_Q */
    void (*repeat)(MPI_Comm comm, void *ctx, double *samples);
    void (*answer)(MPI_Comm comm, void *ctx);
    void *ctx;
};
/* Called by the measurer and its partners only; results[0 .. nq - 1]
 * valid on the measurer. */
void cpm_experiment_run(MPI_Comm comm, const struct cpm_experiment *e,
                        const struct cpm_precision *p, struct cpm_result *results);

/* Round trip i -> j -> i with fwd bytes out and back bytes back, timed on i,
 * repeated by precision after the warm-up. Called by i and j only; result
 * valid on i. */
void cpm_roundtrip(MPI_Comm comm, int i, int j, size_t fwd, size_t back,
                   const struct cpm_precision *p, struct cpm_result *r);

/* A p2p experiment between measurer i and partner j, for the all-pairs
 * driver: called on i and j, fills nq results on i. */
typedef void (*cpm_pair_fn)(MPI_Comm comm, int i, int j, size_t size, void *ctx,
                            struct cpm_result *r);
/* Collective: runs pair_fn at the same time for the disjoint pairs
 * (pairs[2k] < pairs[2k+1]); results[nq * k + q] valid on rank 0. Every rank
 * leaves after all pairs are done. */
void cpm_measure_pair_group(MPI_Comm comm, size_t size, const int *pairs, size_t npairs,
                            size_t nq, cpm_pair_fn pair_fn, void *ctx, struct cpm_result *results);
/* The groups of the all-pairs experiment: one pair each (serial, C(n,2)
 * groups) or the rounds of the round-robin schedule (parallel). Fills pairs
 * (room for n values) and returns how many pairs group holds. */
int cpm_pair_groups(int n, bool parallel);
size_t cpm_pair_group(int n, bool parallel, int group, int *pairs);
/* Collective: runs pair_fn for every pair i < j (one at a time, or in
 * parallel rounds of disjoint pairs); results[nq * cpm_pair_index + q]
 * valid on rank 0. */
void cpm_measure_pairs(MPI_Comm comm, size_t size, bool parallel, size_t nq,
                       cpm_pair_fn pair_fn, void *ctx, struct cpm_result *results);
/* n on rank 0 of comm, 0 elsewhere: the length of a table of results that
 * only rank 0 fills, so that the other ranks keep nothing that grows with
 * the pairs (at 9,408 processes a table of 100 sizes would be 35 GB each). */
size_t cpm_root_only(MPI_Comm comm, size_t n);
/* Convenience: symmetric round trips (size out, size back) for all pairs. */
void cpm_measure_p2p(MPI_Comm comm, size_t size, bool parallel,
                     const struct cpm_precision *p, struct cpm_result *results);

/* One-to-two i -> {j, k}: i sends size bytes to j and k, both answer with an
 * empty message; timed on i. Collective over comm (n >= 3): for every triplet
 * i < j < k the three experiments rooted at i, j and k;
 * results[3 * cpm_triplet_index + r] for root r = 0 (i), 1 (j), 2 (k), on
 * rank 0 (the other ranks may pass NULL: rank 0 decides the rounds and
 * collects the results, the others hold nothing that grows with the number
 * of triplets). parallel runs disjoint triplets at the same time. */
void cpm_measure_p2pp(MPI_Comm comm, size_t size, bool parallel,
                      const struct cpm_precision *p, struct cpm_result *results);
/* The same, and in the same conditions the round trips (size bytes each
 * way) from each root to the first and second other process of its triplet:
 * results_p2p[0][3 t + r] and results_p2p[1][3 t + r] (rank 0). */
void cpm_measure_p2pp_p2p(MPI_Comm comm, size_t size, bool parallel,
                          const struct cpm_precision *p, struct cpm_result *results_p2pp,
                          struct cpm_result *results_p2p[2]);

/* Collective timing: the methods of -t, each run after a barrier, and the
 * window method of --timing=window (common/timewin.h): runs start at
 * agreed times of a global clock and last until the last rank's finish. */
enum cpm_timing { CPM_TIMING_MAX, CPM_TIMING_ROOT, CPM_TIMING_GLOBAL, CPM_TIMING_WINDOW };
extern const char *const cpm_timing_names[]; /* -t: "max", "root", "global", NULL */
struct clocksync;
struct timewin;

/* One run of the operation being timed (collective over comm). */
typedef void (*cpm_coll_op)(MPI_Comm comm, int root, size_t size, void *ctx);

struct cpm_coll_timer {
    MPI_Comm comm;
    enum cpm_timing method;
    int root;
    double barrier_time; /* root method: mean time of a barrier on root */
    double *offsets;     /* global method: clock offset of each rank (root) */
    /* Around every timed run, outside the timed region (NULL: nothing):
     * prepare sets the buffers up, check counts the wrong bytes this rank
     * received, summed into errors. Set after cpm_coll_timer_init. */
    cpm_coll_op prepare;
    size_t (*check)(MPI_Comm comm, int root, size_t size, void *ctx);
    size_t errors;
    /* Window method: the global clock and the schedule; window_given is the
     * window in seconds (0: measured for each size), set after init; after
     * each measure, the runs whose window some rank missed (left out). On
     * rank 0, not the root, the repetitions are decided and counted. */
    struct clocksync *clock;
    struct timewin *win;
    double window_given;
    size_t missed;
};
/* Collective: prepares the method (measures the barrier or the offsets). */
void cpm_coll_timer_init(struct cpm_coll_timer *t, MPI_Comm comm, enum cpm_timing method,
                         int root, const struct cpm_precision *p);
void cpm_coll_timer_free(struct cpm_coll_timer *t);
/* Collective: the '#' lines of the window method (clock model, window). */
void cpm_coll_timer_describe(const struct cpm_coll_timer *t);
/* Collective: the warm-up (runs of op set up and checked like the others,
 * not timed), then op repeated under the precision; the result on every
 * rank. */
void cpm_coll_measure(struct cpm_coll_timer *t, cpm_coll_op op, size_t size, void *ctx,
                      const struct cpm_precision *p, struct cpm_result *r);

/* Sends/receives of size_t byte counts (derived types past 2 GiB). */
void cpm_send_bytes(const void *buf, size_t bytes, int dest, int tag, MPI_Comm comm);
void cpm_recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm);
/* MPI_Wtick, or 0 before MPI is initialised (unit tests). */
double cpm_wtick(void);
/* Tags of the measurement layer (CPM_TAG_WARM: the flags of the warm-up). */
enum {
    CPM_TAG_DATA = 7100,
    CPM_TAG_BACK,
    CPM_TAG_FLAG,
    CPM_TAG_CLOCK,
    CPM_TAG_RESULT,
    CPM_TAG_WARM
};

#endif
