/* devcopy_bw: the physical limits the device-buffer bandwidths are compared
 * with: a bare copy loop through common/devmem on each rank's own device,
 * in the same job as the MPI runs (tests/device/validate.sh). DIRECTION
 * d2d (default) copies device to device (cudaMemcpy, hipMemcpy, or
 * OpenACC's copy in a compute region); h2d and d2h copy between pinned host
 * memory and the device, the path a staged message takes. Each copy has
 * landed before the next starts (the device layer's rule, devmem.h), as
 * before a message goes to MPI. Rank 0 prints "SIZE MB/s"
 * lines (MB = 10^6 bytes; a copy of SIZE bytes counts SIZE once, as osu_bw
 * counts a message). Refuses (status 2) where the build or the machine has
 * no device.
 *   devcopy_bw MAX_BYTES ITERATIONS [d2d|h2d|d2h] */
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "harness.h"

static const char *const directions[] = {"d2d", "h2d", "d2h"};

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    if (argc != 3 && argc != 4)
        err_usage("usage: devcopy_bw MAX_BYTES ITERATIONS [d2d|h2d|d2h]");
    size_t max = opt_positional_or_exit(argv[1], "MAX_BYTES", (size_t)1 << 34, 0);
    size_t iters = opt_positional_or_exit(argv[2], "ITERATIONS", 1000000, 0);
    if (max == 0 || iters == 0)
        err_usage("MAX_BYTES and ITERATIONS must be positive");
    size_t dir = 0;
    while (argc == 4 && dir < 3 && strcmp(argv[3], directions[dir]) != 0)
        dir++;
    if (dir == 3)
        err_usage("direction '%s': give d2d, h2d or d2h", argv[3]);
    buf_require_device();
    struct buf dev, other;
    buf_alloc_all(&dev, max, BUF_DEVICE, MPI_COMM_WORLD);
    buf_alloc_all(&other, dir == 0 ? max : 0, BUF_DEVICE, MPI_COMM_WORLD);
    buf_zero(&dev);
    void *pinned = NULL;
    const char *why = NULL;
    bool bad = dir != 0 && devmem_alloc(&pinned, max, DEVMEM_PINNED, &why) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "cannot allocate %zu bytes of pinned host "
            "memory: %s", max, why ? why : "?");
    if (pinned)
        memset(pinned, 0, max);
    char name[96];
    devmem_describe(name, sizeof name);
    static const char *const what[] = {"device-to-device", "pinned host-to-device",
                                       "device-to-pinned host"};
    out_comment("devcopy_bw: %s copies on %s, %zu iterations per size", what[dir], name, iters);
    out_comment("%-10s %20s", "Size", "MB/s");
    for (size_t size = 1; size <= max; size *= 2) {
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = timing_now();
        for (size_t i = 0; i < iters; i++) {
            int rc = dir == 0   ? devmem_copy(other.ptr, dev.ptr, size, &why)
                     : dir == 1 ? devmem_to_device(dev.ptr, pinned, size, &why)
                                : devmem_to_host(pinned, dev.ptr, size, &why);
            if (rc)
                err_fatal("%s", why);
        }
        double t = timing_now() - t0;
        out_line("%-10zu %20.2f", size, (double)size * (double)iters / t / 1e6);
        if (size > SIZE_MAX / 2)
            break;
    }
    devmem_free(pinned, DEVMEM_PINNED);
    buf_free(&dev);
    buf_free(&other);
    harness_finish(ERR_STATUS_OK);
}
