/* osu_hello: MPI starts and rank 0 says how many processes there are (OMB
 * 7.4's osu_hello): the smallest check that a launcher and a library work.
 * It takes OMB 7.4's options, as OMB's takes any, and uses none (a note
 * names those given). */
#include "osu.h"
#include "osu_compat.h"
#include "report.h"

int main(int argc, char **argv)
{
    const struct opt_usage usage = {
        "", "Starts MPI (MPI_Init_thread) and prints the number of processes from rank 0.",
        false, true, "osu", "osu_hello measures nothing", NULL};
    struct opt_spec specs[OSU_COMPAT_MAX_IGNORED];
    size_t nspecs = osu_compat_ignored_options(specs, OSU_COMPAT_MAX_IGNORED, "hv");
    int pos = osu_parse_and_start(argc, argv, specs, nspecs, &usage, MPI_THREAD_SINGLE, NULL);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    osu_print_title("OSU MPI Hello World Test", true);
    osu_print_details(argc, argv);
    out_line("This is a test with %d processes", harness.size);
    osu_compat_notes("osu_hello");
    report_table("osu_hello", "nprocs", REPORT_NOT_RANKED, NULL);
    report_no_iterations();
    report_value("nprocs", REPORT_UNIT_COUNT);
    report_row_begin("osu_hello");
    report_row_size("nprocs", (size_t)harness.size);
    report_row_end();
    harness_finish(ERR_STATUS_OK);
}
