/* gpu_probe: preloaded into a CUDA=1 or HIP=1 program (LD_PRELOAD) by
 * tests/device/check.sh in place of the runtime's device-count and
 * set-device calls. It pretends one device is there and says on stderr
 * ("gpu probe: CALL") whenever one is called, so the test can tell that a
 * run on host buffers never touches the GPU runtime (on a real GPU,
 * cudaSetDevice would create a context) and that a run on device buffers
 * selects its device. */
#include <stdio.h>

static int seen(const char *call)
{
    fprintf(stderr, "gpu probe: %s\n", call);
    return 0; /* cudaSuccess, hipSuccess */
}

int cudaGetDeviceCount(int *n);
int cudaSetDevice(int device);
int hipGetDeviceCount(int *n);
int hipSetDevice(int device);

int cudaGetDeviceCount(int *n)
{
    *n = 1;
    return seen("cudaGetDeviceCount");
}

int cudaSetDevice(int device)
{
    (void)device;
    return seen("cudaSetDevice");
}

int hipGetDeviceCount(int *n)
{
    *n = 1;
    return seen("hipGetDeviceCount");
}

int hipSetDevice(int device)
{
    (void)device;
    return seen("hipSetDevice");
}
