/*
 * err: the one place where things that go wrong become messages and exit codes.
 *
 * Bad input (err_usage) prints one line on stderr from rank 0 and ends every
 * rank with status 2: argument parsing is deterministic, so all ranks reach
 * the same verdict and can leave together through MPI_Finalize without a hang
 * or an MPI_Abort backtrace. Conditions seen by only some ranks go through
 * err_any, which agrees on the outcome collectively first. MPI and CUDA
 * failures name the failing call and the library's error string.
 *
 * A write that fails (standard output full, a model file on a full disk)
 * is remembered where it happened and printed once; as only that rank knows,
 * the verdict travels with the next agreement all ranks reach anyway
 * (err_any, err_check, err_finish), so that every rank ends with
 * ERR_STATUS_WRITE together instead of reporting a success whose results
 * are gone.
 *
 * Exit status: 0 success, 1 failed data check or MPI/CUDA error, 2 bad usage,
 * 3 --timeout (watchdog.h), 4 output that could not be written.
 */
#ifndef COMMSWEEP_ERR_H
#define COMMSWEEP_ERR_H

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

enum { ERR_STATUS_OK = 0, ERR_STATUS_FAIL = 1, ERR_STATUS_USAGE = 2, ERR_STATUS_WRITE = 4 };

/* How messages name stdout. */
#define ERR_STDOUT_NAME "standard output"

/* Program name used as the prefix of every message (set by harness_init). */
void err_set_program(const char *name);
const char *err_program(void);

/* Bad usage seen identically on every rank: rank 0 prints, all exit 2. */
_Noreturn void err_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Like err_usage but with an explicit status (e.g. 1 for a failed check that
 * every rank knows about). */
_Noreturn void err_exit_all(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Collective: if any rank of comm passes local_bad, the lowest such rank
 * prints its message and every rank exits with status. Returns only when no
 * rank is bad, and no write failed on any rank (ERR_STATUS_WRITE then).
 * comm must span every rank (mpistart_comm(), or a duplicate of it): ranks
 * outside it would wait forever for the leavers. */
void err_any(MPI_Comm comm, bool local_bad, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* err_any for verdicts that may differ between ranks (a node without a
 * usable GPU, an environment variable set differently on some ranks): the
 * message says which rank and host it is, "rank 3 on node12: ...".
 * Collective, as err_any. */
void err_any_rank(MPI_Comm comm, bool local_bad, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A failed data check, seen by some ranks: as err_any with status 1
 * (ERR_STATUS_FAIL), and err_check_failed() is true from then on, so that
 * the run's summary can say the data were wrong. Collective. */
void err_check(MPI_Comm comm, bool local_bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool err_check_failed(void);

/* The last message printed on stderr through this module; after err_any
 * or err_check, the one the failing rank printed, on every rank. "" when
 * none. */
const char *err_message(void);

/* fn(status) runs once just before the process ends through err_finish or
 * err_fatal (the JSON summary, the run description held for after a table).
 * Up to 4 hooks, run in the order they were set; setting one twice keeps one. */
void err_at_exit(void (*fn)(int status));

/* One "program: message" line on stderr from this rank, stdout flushed
 * first; for a rank that reports what went wrong and lets the others go on. */
void err_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A failure only this rank sees and the others cannot be told about
 * (an MPI error mid-run): print and MPI_Abort with status 1. */
_Noreturn void err_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Checks an MPI return code; MPI_ERRORS_RETURN is installed by harness_init. */
void err_mpi_check(int rc, const char *call, const char *file, int line);
#define MPI_CHECK(call) err_mpi_check((call), #call, __FILE__, __LINE__)

/* Exit status for the process when it returns from main normally. Collective
 * while MPI runs: a write that failed on any rank turns a status of 0 into
 * ERR_STATUS_WRITE on every rank (a run that already failed keeps its
 * status). */
_Noreturn void err_finish(int status);

/* A write of file (a path, or ERR_STDOUT_NAME) that failed with errnum (0:
 * unknown): the first prints "cannot write FILE: <reason> (<ENAME>)" and
 * makes the run end with ERR_STATUS_WRITE, at the next err_any or
 * err_check of all ranks or at err_finish. Local: no MPI call. */
void err_write_failed(const char *file, int errnum);
/* Flushes stream and records a failed write on it, now or since it was
 * opened. A write that failed inside an earlier call leaves only the error
 * flag, and its cause only in errno: clear errno before writing. */
void err_write_check(FILE *stream, const char *file);
/* "ENOSPC" for ENOSPC; "errno N" for a number without a name. */
const char *err_errno_name(int errnum, char *buf, size_t len);
/* For programs that return from main (harness_prepare registers it with
 * atexit): a failed write of stdout ends the process with ERR_STATUS_WRITE
 * instead of 0. Does nothing after err_finish or err_fatal. */
void err_exit_check(void);

#endif
