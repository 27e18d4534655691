/* osu_hello: MPI starts and rank 0 says how many processes there are (OMB
 * 7.4's osu_hello): the smallest check that a launcher and a library work. */
#include "osu.h"
#include "report.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const struct opt_usage usage = {
        "", "Starts MPI (MPI_Init_thread) and prints the number of processes from rank 0.",
        false, true, "osu", "osu_hello measures nothing", NULL};
    int pos = opt_parse_or_exit(argc, argv, NULL, 0, &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    out_title("OSU MPI Hello World Test");
    out_header_details(argc, argv);
    out_line("This is a test with %d processes", harness.size);
    report_table("osu_hello", "nprocs", REPORT_NOT_RANKED, NULL);
    report_no_iterations();
    report_value("nprocs", REPORT_UNIT_COUNT);
    report_row_begin("osu_hello");
    report_row_size("nprocs", (size_t)harness.size);
    report_row_end();
    harness_finish(ERR_STATUS_OK);
}
