/* Unit tests of the device layer (common/buf over common/devmem) on the fake
 * vendor: host memory behind the device interface that refuses a copy in
 * the wrong direction, so every device path of fill, check, corrupt-and-
 * detect, copy, managed memory and staging runs without a GPU. */
#include "unit.h"
#include "unit_mpi.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "a2a_sweep.h"
#include "buf.h"
#include "devmem_fake.h"

/* Runs first: a program on host buffers never selects a device (on a real
 * GPU that would create a context), device memory before the selection is
 * refused, and the first request for device memory selects it, once. */
static void test_lazy_selection(void **state)
{
    (void)state;
    assert_int_equal(buf_memory_setup(BUF_MEM_HOST, false), BUF_HOST);
    char err[256] = "";
    struct buf h, d;
    assert_int_equal(buf_alloc(&h, 100, BUF_HOST, err, sizeof err), 0);
    buf_fill_bytes(&h, 0, 0);
    buf_free(&h);
    assert_int_equal(devmem_fake.selections, 0);
    assert_int_equal(devmem_selected(), -1);
    assert_int_not_equal(buf_alloc(&d, 100, BUF_DEVICE, err, sizeof err), 0);
    assert_non_null(strstr(err, "no device selected"));
    buf_require(BUF_DEVICE);
    assert_int_equal(devmem_fake.selections, 1);
    assert_int_equal(devmem_selected(), 0);
    buf_require(BUF_MANAGED_DEVICE);
    assert_int_equal(devmem_fake.selections, 1);
}

static void alloc_ok(struct buf *b, size_t bytes, enum buf_where where)
{
    char err[256] = "";
    assert_int_equal(buf_alloc(b, bytes, where, err, sizeof err), 0);
    assert_non_null(b->ptr);
}

static void test_fill_check_detect(void **state)
{
    (void)state;
    const enum buf_where kinds[] = {BUF_DEVICE, BUF_MANAGED_HOST, BUF_MANAGED_DEVICE};
    for (size_t k = 0; k < 3; k++) {
        struct buf b;
        alloc_ok(&b, 1000, kinds[k]);
        size_t before = devmem_fake.calls_to_device;
        buf_fill_bytes(&b, 3, 7);
        assert_true(devmem_fake.calls_to_device > before); /* went through the device */
        assert_int_equal(buf_check_bytes(&b, 0, 1000, 3, 7), SIZE_MAX);
        assert_int_equal(buf_check_bytes(&b, 0, 1000, 4, 7), 0); /* another rank's pattern */
        buf_flip_byte(&b, 617);
        assert_int_equal(buf_check_bytes(&b, 0, 1000, 3, 7), 617);
        assert_int_equal(buf_check_bytes(&b, 0, 617, 3, 7), SIZE_MAX);
        buf_set_bytes(&b, 0xFF);
        assert_int_equal(buf_check_bytes(&b, 0, 1000, 3, 7), 0);
        buf_free(&b);
        assert_null(b.ptr);
    }
    assert_int_equal(devmem_fake.live, 0);
}

/* A check that crosses the 64 MiB pieces of host staging finds the byte. */
static void test_detect_past_a_stage_piece(void **state)
{
    (void)state;
    size_t n = ((size_t)64 << 20) + 4099;
    struct buf b;
    alloc_ok(&b, n, BUF_DEVICE);
    buf_fill_bytes(&b, 1, 2);
    assert_int_equal(buf_check_bytes(&b, 0, n, 1, 2), SIZE_MAX);
    buf_flip_byte(&b, n - 5);
    assert_int_equal(buf_check_bytes(&b, 0, n, 1, 2), n - 5);
    buf_free(&b);
}

static void test_copies_and_views(void **state)
{
    (void)state;
    struct buf a, d;
    alloc_ok(&a, 256, BUF_DEVICE);
    alloc_ok(&d, 256, BUF_DEVICE);
    unsigned char host[256], back[256];
    for (int i = 0; i < 256; i++)
        host[i] = (unsigned char)(255 - i);
    buf_copy_in(&a, 0, host, 256);
    const char *err = NULL;
    assert_int_equal(devmem_copy(d.ptr, a.ptr, 256, &err), 0);
    memset(back, 0, sizeof back);
    buf_copy_out(back, &d, 0, 256);
    assert_memory_equal(back, host, 256);
    buf_copy_out(back, &d, 100, 10);
    assert_memory_equal(back, host + 100, 10);
    /* A view fills and checks its own part only. */
    struct buf v = buf_view(&d, 64, 32);
    buf_fill_bytes(&v, 2, 0);
    assert_int_equal(buf_check_bytes(&d, 64, 32, 2, 0), SIZE_MAX);
    buf_copy_out(back, &d, 0, 64);
    assert_memory_equal(back, host, 64);
    /* The fake refuses a device pointer where host memory belongs. */
    assert_int_not_equal(devmem_to_device(host, back, 8, &err), 0);
    assert_int_not_equal(devmem_to_host(a.ptr, d.ptr, 8, &err), 0);
    assert_non_null(strstr(err, "fake device"));
    buf_free(&a);
    buf_free(&d);
}

/* What MPI would read: the bytes of device memory as they are now, with no
 * copy to the host (which would wait for the device). */
static bool holds_pattern(const struct buf *b, int rank, size_t iter)
{
    const unsigned char *p = b->ptr;
    for (size_t i = 0; i < b->bytes; i++)
        if (p[i] != (unsigned char)buf_pattern(rank, iter, i))
            return false;
    return true;
}

/* The fake device lands copies late, as CUDA may: code that hands a buffer
 * to MPI right after a raw copy hands it stale bytes. */
static void test_raw_copies_land_late(void **state)
{
    (void)state;
    struct buf a, b;
    alloc_ok(&a, 300, BUF_DEVICE);
    alloc_ok(&b, 300, BUF_DEVICE);
    unsigned char host[300];
    for (size_t i = 0; i < sizeof host; i++)
        host[i] = (unsigned char)buf_pattern(1, 2, i);
    const char *err = NULL;
    memset(a.ptr, 0, 300);
    memset(b.ptr, 0, 300);
    assert_int_equal(devmem_raw_to_device(a.ptr, host, 300, &err), 0);
    assert_false(holds_pattern(&a, 1, 2)); /* not landed: MPI would send zeroes */
    assert_int_equal(devmem_synchronize(&err), 0);
    assert_true(holds_pattern(&a, 1, 2));
    assert_int_equal(devmem_raw_copy(b.ptr, a.ptr, 300, &err), 0);
    assert_false(holds_pattern(&b, 1, 2));
    assert_int_equal(devmem_raw_memset(a.ptr, 0xFF, 300, &err), 0);
    assert_int_equal(((unsigned char *)a.ptr)[0], buf_pattern(1, 2, 0));
    /* A copy to the host waits for everything issued before it. */
    unsigned char back[300];
    assert_int_equal(devmem_raw_to_host(back, b.ptr, 300, &err), 0);
    assert_memory_equal(back, host, 300);
    assert_int_equal(((unsigned char *)a.ptr)[299], 0xFF);
    assert_int_equal(devmem_fake.pending, 0);
    buf_free(&a);
    buf_free(&b);
}

/* A stream is non-blocking: synchronising it leaves the default stream's
 * copies queued (only the device-wide synchronisation lands them), a
 * destroyed stream cannot be synchronised, and each is given back. */
static void test_streams(void **state)
{
    (void)state;
    struct buf a;
    alloc_ok(&a, 64, BUF_DEVICE);
    const char *err = NULL;
    void *s = NULL, *t = NULL;
    assert_int_equal(devmem_stream_create(&s, &err), 0);
    assert_int_equal(devmem_stream_create(&t, &err), 0);
    assert_ptr_not_equal(s, t);
    assert_int_equal(devmem_fake.streams, 2);
    memset(a.ptr, 0, 64);
    assert_int_equal(devmem_raw_memset(a.ptr, 7, 64, &err), 0);
    assert_int_equal(devmem_stream_synchronize(s, &err), 0);
    assert_int_equal(devmem_fake.pending, 1);
    assert_int_equal(((unsigned char *)a.ptr)[0], 0);
    assert_int_equal(devmem_synchronize(&err), 0);
    assert_int_equal(((unsigned char *)a.ptr)[0], 7);
    devmem_stream_destroy(s);
    assert_int_not_equal(devmem_stream_synchronize(s, &err), 0);
    assert_non_null(strstr(err, "not a live stream"));
    devmem_stream_destroy(t);
    devmem_stream_destroy(NULL);
    assert_int_equal(devmem_fake.streams, 0);
    buf_free(&a);
}

/* The paths that hand device buffers to MPI or to a check read landed data
 * on the same fake: fill, memset, flip, stage in, the all-to-all fill and
 * a2a_local_copy's rearrangement. */
static void test_real_paths_land(void **state)
{
    (void)state;
    struct buf a, b;
    alloc_ok(&a, 4000, BUF_DEVICE);
    alloc_ok(&b, 4000, BUF_DEVICE);
    memset(a.ptr, 0, 4000);
    buf_fill_bytes(&a, 3, 7);
    assert_int_equal(devmem_fake.pending, 0);
    assert_true(holds_pattern(&a, 3, 7));
    buf_set_bytes(&b, 0xFF);
    assert_int_equal(((unsigned char *)b.ptr)[3999], 0xFF);
    buf_flip_byte(&a, 10);
    assert_int_equal(((unsigned char *)a.ptr)[10], buf_pattern(3, 7, 10) ^ 1);
    buf_flip_byte(&a, 10);
    /* Blocks 0..3 of 1000 bytes in the order 2, 3, 0, 1: two pieces. */
    const struct devmem_piece swap[] = {{0, 2000, 2000}, {2000, 0, 2000}};
    a2a_local_copy(&a, b.ptr, a.ptr, swap, 2);
    assert_int_equal(devmem_fake.pending, 0);
    assert_memory_equal(b.ptr, (char *)a.ptr + 2000, 2000);
    assert_memory_equal((char *)b.ptr + 2000, a.ptr, 2000);
    a2a_fill(&b, 4000 / sizeof(long), A2A_LONG, 5);
    for (size_t i = 0; i < 4000 / sizeof(long); i++)
        assert_int_equal(((long *)b.ptr)[i], a2a_value(5, i));
    buf_free(&a);
    buf_free(&b);

    buf_set_staging(true);
    struct buf recv;
    alloc_ok(&recv, 512, BUF_DEVICE);
    memset(recv.ptr, 0, 512);
    for (size_t i = 0; i < 512; i++) /* "MPI" delivers into the host copy */
        ((unsigned char *)buf_mpi(&recv))[i] = (unsigned char)buf_pattern(4, 0, i);
    buf_stage_in(&recv, 0, 512);
    assert_true(holds_pattern(&recv, 4, 0));
    buf_free(&recv);
    buf_set_staging(false);
    assert_int_equal(devmem_fake.live, 0);
}

/* --staging: MPI sees a pinned host copy; the stage calls move the data. */
static void test_staging(void **state)
{
    (void)state;
    buf_set_staging(true);
    struct buf send, recv, managed;
    alloc_ok(&send, 512, BUF_DEVICE);
    alloc_ok(&recv, 512, BUF_DEVICE);
    alloc_ok(&managed, 512, BUF_MANAGED_DEVICE);
    assert_non_null(send.stage);
    assert_ptr_equal(buf_mpi(&send), send.stage);
    assert_null(managed.stage); /* the host can read managed memory */
    assert_ptr_equal(buf_mpi(&managed), managed.ptr);
    buf_fill_bytes(&send, 5, 1);
    buf_stage_out(&send, 0, 512);
    /* "MPI" moves the host copy; the device buffer sees it after stage_in. */
    memcpy(buf_mpi(&recv), buf_mpi(&send), 512);
    assert_int_equal(buf_check_bytes(&recv, 0, 512, 5, 1), 0);
    buf_stage_in(&recv, 0, 512);
    assert_int_equal(buf_check_bytes(&recv, 0, 512, 5, 1), SIZE_MAX);
    buf_free(&send);
    buf_free(&recv);
    buf_free(&managed);
    buf_set_staging(false);
    assert_int_equal(devmem_fake.live, 0);
    assert_true(strstr(buf_where_label(BUF_DEVICE), "fake") != NULL);
}

/* The all-to-all check of a device buffer: many small calls come to the
 * host in a few large copies, not one copy each, and a damaged element in
 * any call, past the first copy too, is found; calls spaced wider than
 * their pieces (a communicator smaller than its target) leave gaps that
 * are not read as data. */
static void test_a2a_check_device_calls(void **state)
{
    (void)state;
    enum { CALLS = 300000, COUNT = 2, SIZE = 2, STRIDE = 3 * COUNT }; /* target 3, comm of 2 */
    const int world_of[] = {4, 9};
    struct buf recv;
    alloc_ok(&recv, (size_t)CALLS * STRIDE * sizeof(long), BUF_DEVICE);
    long *host = recv.ptr; /* the fake device's memory is host memory */
    for (size_t i = 0; i < (size_t)CALLS * STRIDE; i++)
        host[i] = -1; /* gaps hold what no sender sends */
    for (size_t k = 0; k < CALLS; k++)
        for (size_t q = 0; q < SIZE; q++)
            for (size_t j = 0; j < COUNT; j++)
                host[k * STRIDE + q * COUNT + j] = a2a_value(world_of[q], k * STRIDE + COUNT + j);
    struct a2a_layout l = {CALLS, STRIDE, COUNT, SIZE, 1, world_of};
    struct a2a_failure f;
    size_t copies = devmem_fake.calls_to_host;
    assert_int_equal(a2a_check(&recv, A2A_LONG, &l, &f), 0);
    copies = devmem_fake.calls_to_host - copies;
    assert_true(copies >= 2 && copies <= 4); /* 1.8 M elements in stages of 1 M */
    host[(CALLS - 1) * STRIDE + 1 * COUNT + 1] += 1;
    assert_int_equal(a2a_check(&recv, A2A_LONG, &l, &f), -1);
    assert_int_equal(f.call, CALLS - 1);
    assert_int_equal(f.peer, 1);
    assert_int_equal(f.element, 1);
    buf_free(&recv);
}

static void test_memory_choice_and_selection(void **state)
{
    (void)state;
    assert_int_equal(buf_memory_where(BUF_MEM_HOST, "--memory=host"), BUF_HOST);
    assert_int_equal(buf_memory_where(BUF_MEM_MANAGED, "--memory=managed"), BUF_MANAGED_DEVICE);
    devmem_fake.devices = 2;
    const char *err = NULL;
    assert_int_equal(devmem_select(3, &err), 0);
    assert_int_equal(devmem_selected(), 1);
    char text[64];
    devmem_describe(text, sizeof text);
    assert_string_equal(text, "fake:1");
    /* A device that cannot be selected is named. */
    devmem_fake.fail_select = true;
    assert_int_not_equal(devmem_select(2, &err), 0);
    assert_string_equal(err, "fake device: cannot select device 0 of 2");
    devmem_fake.fail_select = false;
    devmem_fake.devices = 1;
    assert_int_equal(devmem_select(0, &err), 0);
}

/* A thread that copies to the device: with or without selecting it first. */
struct thread_copy {
    bool select;
    void *dst;
    int rc;
    const char *err;
};

static void *copy_from_thread(void *arg)
{
    struct thread_copy *t = arg;
    unsigned char host[64] = {1};
    t->rc = t->select ? devmem_select_thread(&t->err) : 0;
    if (t->rc == 0)
        t->rc = devmem_to_device(t->dst, host, sizeof host, &t->err);
    return NULL;
}

/* CUDA and HIP keep the current device per thread: a worker that never
 * selected the rank's device works on device 0. On the fake, with the
 * rank on device 1 of 2, that copy fails; after devmem_select_thread it
 * works. */
static void test_threads_select_the_device(void **state)
{
    (void)state;
    const char *err = NULL;
    devmem_fake.devices = 2;
    assert_int_equal(devmem_select(1, &err), 0);
    struct buf b;
    alloc_ok(&b, 64, BUF_DEVICE);
    struct thread_copy plain = {false, b.ptr, 0, NULL}, selected = {true, b.ptr, 0, NULL};
    pthread_t id;
    assert_int_equal(pthread_create(&id, NULL, copy_from_thread, &plain), 0);
    pthread_join(id, NULL);
    assert_int_not_equal(plain.rc, 0);
    assert_non_null(strstr(plain.err, "current device"));
    assert_int_equal(pthread_create(&id, NULL, copy_from_thread, &selected), 0);
    pthread_join(id, NULL);
    assert_int_equal(selected.rc, 0);
    assert_int_equal(((unsigned char *)b.ptr)[0], 1);
    buf_free(&b);
    devmem_fake.devices = 1;
    assert_int_equal(devmem_select(0, &err), 0);
}

/* The launcher's own variables come before LOCAL_RANK, which torchrun and
 * others set for their own purposes; LOCAL_RANK counts only when no
 * launcher variable is there. */
static const char *const launcher_vars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
    "PALS_LOCAL_RANKID", "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK",
};
#define NLAUNCHER_VARS (sizeof launcher_vars / sizeof launcher_vars[0])

static void test_local_rank_order(void **state)
{
    (void)state;
    char *saved[NLAUNCHER_VARS + 1];
    for (size_t i = 0; i <= NLAUNCHER_VARS; i++) {
        const char *name = i < NLAUNCHER_VARS ? launcher_vars[i] : "LOCAL_RANK";
        const char *v = getenv(name);
        saved[i] = v ? strdup(v) : NULL;
        unsetenv(name);
    }
    assert_int_equal(devmem_local_rank(), -1);
    setenv("LOCAL_RANK", "3", 1);
    assert_int_equal(devmem_local_rank(), 3); /* alone, it counts */
    for (size_t i = 0; i < NLAUNCHER_VARS; i++) {
        setenv(launcher_vars[i], "1", 1);
        assert_int_equal(devmem_local_rank(), 1); /* each launcher's wins */
        unsetenv(launcher_vars[i]);
    }
    /* A launcher variable that is no number is passed over. */
    setenv("SLURM_LOCALID", "x", 1);
    assert_int_equal(devmem_local_rank(), 3);
    unsetenv("SLURM_LOCALID");
    unsetenv("LOCAL_RANK");
    for (size_t i = 0; i <= NLAUNCHER_VARS; i++) {
        const char *name = i < NLAUNCHER_VARS ? launcher_vars[i] : "LOCAL_RANK";
        if (saved[i])
            setenv(name, saved[i], 1);
        free(saved[i]);
    }
}

static void test_mpi_aware_override(void **state)
{
    (void)state;
    const char *how = NULL;
    unsetenv("COMMSWEEP_GPU_AWARE");
    assert_int_equal(devmem_mpi_aware(DEVMEM_API_HOST, &how), 1);
    setenv("COMMSWEEP_GPU_AWARE", "0", 1);
    assert_int_equal(devmem_mpi_aware(DEVMEM_API_HOST, &how), 0);
    assert_string_equal(how, "COMMSWEEP_GPU_AWARE");
    setenv("COMMSWEEP_GPU_AWARE", "1", 1);
    assert_int_equal(devmem_mpi_aware(DEVMEM_API_CUDA, &how), 1);
    unsetenv("COMMSWEEP_GPU_AWARE");
}

/* The library's own answer for CUDA memory (Open MPI's
 * MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support): yes or no, and
 * named, whichever of the two this test is linked with. */
static void test_mpi_aware_library(void **state)
{
    (void)state;
    const char *how = NULL;
    unsetenv("COMMSWEEP_GPU_AWARE");
    unsetenv("MPICH_GPU_SUPPORT_ENABLED");
    int answer = devmem_mpi_aware(DEVMEM_API_CUDA, &how);
    assert_true(answer == 0 || answer == 1);
    assert_true(strcmp(how, "MPIX_Query_cuda_support") == 0 ||
                strcmp(how, "MPIX_GPU_query_support") == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lazy_selection), /* first: nothing selected yet */
        cmocka_unit_test(test_fill_check_detect),
        cmocka_unit_test(test_detect_past_a_stage_piece),
        cmocka_unit_test(test_copies_and_views),
        cmocka_unit_test(test_staging),
        cmocka_unit_test(test_raw_copies_land_late),
        cmocka_unit_test(test_streams),
        cmocka_unit_test(test_real_paths_land),
        cmocka_unit_test(test_a2a_check_device_calls),
        cmocka_unit_test(test_memory_choice_and_selection),
        cmocka_unit_test(test_threads_select_the_device),
        cmocka_unit_test(test_local_rank_order),
        cmocka_unit_test(test_mpi_aware_override),
        cmocka_unit_test(test_mpi_aware_library),
    };
    /* MPICH answers GPU queries only between MPI_Init and MPI_Finalize. */
    return cmocka_run_group_tests(tests, unit_mpi_up, unit_mpi_down);
}
