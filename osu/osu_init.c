/* osu_init: how long MPI takes to start on each rank (OMB 7.4's osu_init):
 * MPI_Init_thread, or with -I an MPI session and its communicator. Rank 0
 * prints the minimum, maximum and mean over the ranks in whole milliseconds,
 * as OMB 7.4 does, and in microseconds on a '#' line before. */
#include "osu.h"
#include "osu_compat.h"
#include "report.h"

/* JSON: the one row, OMB's truncated milliseconds and our microseconds;
 * each rank starts once, so there are no iterations. */
static void init_row(long lo, long hi, long avg, double min, double mean, double max)
{
    report_table("osu_init", "start_avg_us", REPORT_LOWER_BETTER, NULL);
    report_no_iterations();
    report_value("nprocs", REPORT_UNIT_COUNT);
    report_value("min_ms", REPORT_UNIT_MS);
    report_value("max_ms", REPORT_UNIT_MS);
    report_value("avg_ms", REPORT_UNIT_MS);
    report_value("start_min_us", REPORT_UNIT_US);
    report_value("start_avg_us", REPORT_UNIT_US);
    report_value("start_max_us", REPORT_UNIT_US);
    report_row_begin("osu_init");
    report_row_size("nprocs", (size_t)harness.size);
    report_row_size("min_ms", (size_t)lo);
    report_row_size("max_ms", (size_t)hi);
    report_row_size("avg_ms", (size_t)avg);
    report_row_double("start_min_us", min * 1e6);
    report_row_double("start_avg_us", mean * 1e6);
    report_row_double("start_max_us", max * 1e6);
    report_row_end();
}

int main(int argc, char **argv)
{
    bool session = false;
    /* -I, and OMB 7.4's other options, which OMB's osu_init takes and does
     * not use (a note names those given). */
    struct opt_spec specs[1 + OSU_COMPAT_MAX_IGNORED];
    specs[0] = osu_session_option(&session);
    size_t nspecs = 1 + osu_compat_ignored_options(specs + 1, OSU_COMPAT_MAX_IGNORED, "hvI");
    const struct opt_usage usage = {
        "[-I]",
        "Times the start of MPI on every rank: MPI_Init_thread (MPI_THREAD_SINGLE), or with\n"
        "-I MPI_Session_init, the group of mpi://WORLD and MPI_Comm_create_from_group.\n"
        "Prints the minimum, maximum and mean over the ranks in milliseconds.",
        false, true, "osu", "each rank starts MPI once: there are no iterations", NULL};
    int pos = osu_parse_and_start(argc, argv, specs, nspecs, &usage, MPI_THREAD_SINGLE,
                                  &session);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);

    /* OMB 7.4's figures: each rank's time truncated to whole milliseconds,
     * the mean of those truncated too. */
    long ms = (long)(harness.start_seconds * 1e3), lo = 0, hi = 0, sum = 0;
    MPI_CHECK(MPI_Reduce(&ms, &lo, 1, MPI_LONG, MPI_MIN, 0, harness.comm));
    MPI_CHECK(MPI_Reduce(&ms, &hi, 1, MPI_LONG, MPI_MAX, 0, harness.comm));
    MPI_CHECK(MPI_Reduce(&ms, &sum, 1, MPI_LONG, MPI_SUM, 0, harness.comm));
    double min, avg, max;
    timing_across_ranks(harness.start_seconds, &min, &avg, &max, 0, harness.comm);

    osu_print_title("OSU MPI Init Test", true);
    osu_print_details(argc, argv);
    out_comment("timed on each rank (CLOCK_MONOTONIC): %s",
                session ? "MPI_Session_init + MPI_Group_from_session_pset(" MPISTART_PSET
                          ") + MPI_Comm_create_from_group (-I)"
                        : "MPI_Init_thread (MPI_THREAD_SINGLE)");
    out_comment("start time in us: min %.1f, avg %.1f, max %.1f", min * 1e6, avg * 1e6,
                max * 1e6);
    out_line("nprocs: %d, min: %ld ms, max: %ld ms, avg: %ld ms", harness.size, lo, hi,
             sum / harness.size);
    init_row(lo, hi, sum / harness.size, min, avg, max);
    osu_compat_notes("osu_init");
    harness_finish(ERR_STATUS_OK);
}
