/* osu_latency_mp: the osu_latency ping-pong between ranks 0 and 1 while each
 * of them has forked processes beside it (OMB 7.4's multi-process latency
 * test): what a library's latency is once its processes have forked. The
 * forked processes make no MPI call; they wait, idle, until the sweep ends. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pt2pt.h"
#include "pt2pt_arith.h"

/* OMB 7.4: fewer than 128 on each side, 2 and 2 by default. */
#define MP_MAX_PROCESSES 127

static size_t send_procs = 2, recv_procs = 2; /* -t [SEND:]RECV */
static pid_t children[MP_MAX_PROCESSES];
static size_t nchildren;
static int wake_fd = -1; /* the write end of the children's pipe */

static int parse_processes(const char *arg, void *dest, char *err, size_t errlen)
{
    (void)dest;
    /* RECV alone: none forked beside rank 0, as in OMB 7.4. */
    return pt2pt_parse_counts(arg, "processes", 1, MP_MAX_PROCESSES, 0, &send_procs,
                              &recv_procs, err, errlen);
}

/* A forked process: no MPI, no stdio; it ends when the pipe's writer closes
 * it, which is also when its MPI process ends, however that happens. */
static _Noreturn void child_main(int read_fd)
{
    char byte;
    while (read(read_fd, &byte, 1) < 0 && errno == EINTR)
        ;
    _exit(0);
}

/* As OMB 7.4, the processes are forked before the buffers exist, so these
 * are never shared copy-on-write with them. */
static void mp_setup(struct pt2pt_ctx *c)
{
    size_t n = c->rank == 0 ? send_procs : recv_procs;
    int fds[2];
    bool failed = pipe(fds) != 0;
    fflush(NULL);
    for (size_t i = 0; i < n && !failed; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[1]);
            child_main(fds[0]);
        }
        if (pid < 0)
            failed = true;
        else
            children[nchildren++] = pid;
    }
    if (!failed) {
        close(fds[0]);
        wake_fd = fds[1];
    }
    err_any(harness.comm, failed, ERR_STATUS_FAIL, "rank %d cannot fork %zu processes: %s",
            c->rank, n, strerror(errno));
}

static void mp_finish(struct pt2pt_ctx *c)
{
    (void)c;
    if (wake_fd >= 0)
        close(wake_fd);
    wake_fd = -1;
    for (size_t i = 0; i < nchildren; i++)
        while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
            ;
    nchildren = 0;
}

static void mp_omb_lines(const struct pt2pt_ctx *c, char *before, size_t before_len, char *after,
                         size_t after_len)
{
    (void)c;
    (void)after;
    (void)after_len;
    snprintf(before, before_len,
             "# Number of forked processes in sender: %zu\n"
             "# Number of forked processes in receiver: %zu\n",
             send_procs, recv_procs);
}

/* What each rank did fork, not what -t asked for. */
static void mp_describe(const struct pt2pt_ctx *c)
{
    (void)c;
    unsigned long mine = (unsigned long)nchildren, both[2] = {0, 0};
    MPI_CHECK(MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG, both, 1, MPI_UNSIGNED_LONG, 0,
                         harness.comm));
    out_comment("forked: %lu beside rank 0, %lu beside rank 1, idle until the sweep ends",
                both[0], both[1]);
}

static const struct opt_spec extra[] = {
    {.long_name = "num-processes", .short_name = 't', .kind = OPT_CUSTOM, .dest = NULL,
     .metavar = "[SEND:]RECV",
     .help = "processes forked beside rank 0 and rank 1 (default 2:2, each 1 to 127; RECV "
             "alone: none beside rank 0)",
     .parse = parse_processes},
    {.long_name = "num-test-calls", .kind = OPT_CUSTOM, .dest = NULL, .metavar = "[SEND:]RECV",
     .help = "OMB 7.4's name of -t", .parse = parse_processes},
};

static const struct pt2pt_bench latency_mp = {
    .prog = {.title = "OSU MPI Multi-process Latency Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Ping-pong between ranks 0 and 1 with blocking MPI_Send/MPI_Recv, each\n"
                            "iteration after a barrier, while rank 0 and rank 1 have forked -t\n"
                            "processes that stay idle; reports the one-way latency (half the\n"
                            "round trip). Needs 2 ranks.\n"
                            "H|D|MH|MD x2: buffers of rank 0 and rank 1 on the host, the device or\n"
                            "managed memory (preferred on host or device).",
             PT2PT_LATENCY_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_LATENCY,
    .iteration_barrier = true, /* OMB 7.4's: a barrier before each timed round trip */
    .no_buffer_num = true,
    .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    .setup = mp_setup,
    .exchange = pt2pt_ping_pong,
    .finish = mp_finish,
    .omb_lines = mp_omb_lines,
    .describe = mp_describe,
    .omb_value_width = 10, /* OMB 7.4's latency without -c */
};

int main(int argc, char **argv) { pt2pt_main(&latency_mp, argc, argv); }
