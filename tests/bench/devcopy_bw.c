/* devcopy_bw: the physical limit the device-buffer bandwidths are compared
 * with: a bare device-to-device copy loop (cudaMemcpy, hipMemcpy, or
 * OpenACC's copy in a compute region) through common/devmem, on each rank's
 * own device, each copy landed before the next, in the same job as the MPI runs (tests/bench/device_bw.sh). Rank 0 prints
 * "SIZE MB/s" lines (MB = 10^6 bytes; a copy reads and writes SIZE bytes,
 * counted once, as osu_bw counts a message). Refuses (status 2) where the
 * build or the machine has no device.
 *   devcopy_bw MAX_BYTES ITERATIONS */
#include <stdio.h>

#include "devmem.h"
#include "harness.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    if (argc != 3)
        err_usage("usage: devcopy_bw MAX_BYTES ITERATIONS");
    size_t max = opt_positional_or_exit(argv[1], "MAX_BYTES", (size_t)1 << 34, 0);
    size_t iters = opt_positional_or_exit(argv[2], "ITERATIONS", 1000000, 0);
    if (max == 0 || iters == 0)
        err_usage("MAX_BYTES and ITERATIONS must be positive");
    buf_require(BUF_DEVICE);
    struct buf a, b;
    buf_alloc_all(&a, max, BUF_DEVICE, MPI_COMM_WORLD);
    buf_alloc_all(&b, max, BUF_DEVICE, MPI_COMM_WORLD);
    buf_zero(&a);
    char dev[96];
    devmem_describe(dev, sizeof dev);
    out_comment("devcopy_bw: device-to-device copies on %s, %zu iterations per size", dev, iters);
    out_comment("%-10s %20s", "Size", "MB/s");
    const char *why = NULL;
    for (size_t size = 1; size <= max; size *= 2) {
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = timing_now();
        for (size_t i = 0; i < iters; i++)
            if (devmem_copy(b.ptr, a.ptr, size, &why)) /* landed when it returns */
                err_fatal("%s", why);
        double t = timing_now() - t0;
        out_line("%-10zu %20.2f", size, (double)size * (double)iters / t / 1e6);
        if (size > SIZE_MAX / 2)
            break;
    }
    buf_free(&a);
    buf_free(&b);
    harness_finish(ERR_STATUS_OK);
}
