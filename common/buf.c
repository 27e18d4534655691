/* buf: host and device buffers and the validation pattern; see buf.h. */
#include "buf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devmem.h"
#include "devprobe.h"
#include "err.h"
#include "mpistart.h"
#include "out.h"
#include "opt.h"

const char *const buf_memory_names[] = {"host", "cuda", "hip", "openacc", "managed", NULL};

/* Device data goes through host staging in pieces of this size. */
#define BUF_STAGE ((size_t)64 << 20)

static bool staging;
/* The direct path was proven by a probe transfer (devprobe.h). */
static bool probed;

void buf_set_staging(bool on) { staging = on; }
bool buf_staging(void) { return staging; }

static const char *vendor_name(void)
{
    const char *v = devmem_vendor();
    return v ? v : "none";
}

/* Every verdict on buffers and devices is taken together: a rank that
 * refuses alone (one node without a GPU, an environment variable set on
 * some ranks only) would otherwise leave the others waiting for it. Every
 * rank calls this at the same point; the lowest bad rank prints one line
 * naming itself and its host, and all end with status. */
#define refuse_if(bad, status, ...) err_any_rank(mpistart_comm(), (bad), (status), __VA_ARGS__)

enum buf_where buf_memory_where(enum buf_memory memory, const char *spelled)
{
    if (memory == BUF_MEM_HOST)
        return BUF_HOST;
    if (memory == BUF_MEM_MANAGED) {
        refuse_if(!devmem_has_managed(), ERR_STATUS_USAGE,
                  "%s: managed memory needs a build with CUDA=1 or HIP=1 (this one: %s)",
                  spelled, vendor_name());
        return BUF_MANAGED_DEVICE;
    }
    const char *v = devmem_vendor();
    const char *flag = memory == BUF_MEM_CUDA ? "CUDA" : memory == BUF_MEM_HIP ? "HIP" : "OPENACC";
    refuse_if(!v, ERR_STATUS_USAGE, "%s: this build has no device support (rebuild with make %s=1)",
              spelled, flag);
    refuse_if(strcmp(v, buf_memory_names[memory]) != 0, ERR_STATUS_USAGE,
              "%s: this build's device memory is %s (rebuild with make %s=1)", spelled, v, flag);
    return BUF_DEVICE;
}

/* The MPI library's answer for device pointers, asked once. */
static int mpi_aware(const char **how)
{
    static int answer = -2;
    static const char *said;
    if (answer == -2)
        answer = devmem_mpi_aware(devmem_api(), &said);
    if (how)
        *how = said;
    return answer;
}

/* This process's rank among those on its node: the launcher's variable, or
 * else what MPI says (collective, so every rank asks whichever it uses). */
static int local_rank(void)
{
    MPI_Comm node;
    int shared = 0;
    MPI_Comm comm = mpistart_comm();
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_rank(node, &shared));
    MPI_CHECK(MPI_Comm_free(&node));
    int env = devmem_local_rank();
    return env >= 0 ? env : shared;
}

/* The first request for device memory selects the device, on every rank at
 * once: nothing before it touches the GPU runtime, so a run on host buffers
 * creates no GPU context (devmem.h). A failure to select is a GPU runtime
 * error (status 1), named with its device. */
static void select_device(void)
{
    static bool selected;
    if (selected)
        return;
    selected = true;
    const char *why = NULL;
    bool bad = devmem_select(local_rank(), &why) != 0;
    refuse_if(bad, ERR_STATUS_FAIL, "%s", why);
}

void buf_require_device(void)
{
    const char *why = devmem_unavailable_reason();
    refuse_if(why != NULL, ERR_STATUS_USAGE, "%s", why);
    select_device();
}

void buf_require(enum buf_where where)
{
    if (where == BUF_HOST)
        return;
    buf_require_device();
    if (where != BUF_DEVICE) {
        /* Managed memory: refused where its preferred location cannot be
         * kept (HIP without XNACK keeps it in host memory). MPI reads it
         * as host memory, staged or not. */
        struct devmem_managed m;
        devmem_managed_where(&m);
        bool host = where == BUF_MANAGED_HOST;
        refuse_if(!(host ? m.on_host : m.on_device), ERR_STATUS_USAGE,
                  "managed memory preferred on the %s cannot be kept there: %s",
                  host ? "host" : "device", m.where);
        return;
    }
    if (staging)
        return;
    const char *how;
    int aware = mpi_aware(&how);
    refuse_if(aware != 1, ERR_STATUS_USAGE,
              "device buffers: the MPI library %s %s device memory (%s); use --staging, "
              "or set COMMSWEEP_GPU_AWARE=1 if it can",
              aware == 0 ? "cannot read" : "does not say it can read", vendor_name(), how);
    /* Said is not shown: a wrong answer would end in a segmentation fault
     * inside the first timed call (devprobe.h). */
    const char *why = NULL;
    bool bad = devprobe_direct(&why) != 0;
    refuse_if(bad, ERR_STATUS_USAGE,
              "device buffers: the MPI library says it reads %s device memory (%s), but %s; "
              "use --staging",
              vendor_name(), how, why);
    probed = true;
}

enum buf_where buf_memory_setup(enum buf_memory memory, bool on)
{
    char spelled[64];
    snprintf(spelled, sizeof spelled, "--memory=%s", buf_memory_names[memory]);
    buf_set_staging(on);
    enum buf_where where = buf_memory_where(memory, spelled);
    buf_require(where);
    return where;
}

const char *buf_where_label(enum buf_where where)
{
    static char text[4][96];
    const char *v = vendor_name();
    switch (where) {
    case BUF_HOST:
        return "host";
    case BUF_DEVICE:
        snprintf(text[0], sizeof text[0], "device (%s)%s%s%s", v,
                 staging ? ", staged through " : "", staging ? devmem_pinned_name() : "",
                 staging ? " host buffers" : "");
        return text[0];
    case BUF_MANAGED_HOST:
        snprintf(text[1], sizeof text[1], "managed (%s), preferred on host", v);
        return text[1];
    case BUF_MANAGED_DEVICE:
        snprintf(text[2], sizeof text[2], "managed (%s), preferred on device", v);
        return text[2];
    }
    return "?";
}

#define BUF_DESCRIBE_LEN 96

void buf_print_device_header(const enum buf_where *where, size_t n)
{
    bool device = false, any = false, managed = false;
    for (size_t i = 0; i < n; i++) {
        any |= where[i] != BUF_HOST;
        device |= where[i] == BUF_DEVICE;
        managed |= where[i] == BUF_MANAGED_HOST || where[i] == BUF_MANAGED_DEVICE;
    }
    if (!any)
        return;
    char mine[BUF_DESCRIBE_LEN];
    devmem_describe(mine, sizeof mine);
    out_comment_per_rank(mpistart_comm(), " device", "devices", mine, sizeof mine);
    if (managed) { /* where the pages really are, as the runtime says */
        struct devmem_managed m;
        devmem_managed_where(&m);
        out_comment_per_rank(mpistart_comm(), " managed memory", "managed_memory", m.where,
                             sizeof m.where);
    }
    if (!device)
        return;
    const char *how;
    int aware = mpi_aware(&how);
    if (staging)
        out_comment("device data: staged through %s host buffers, copies inside the timed "
                    "region (MPI reads %s memory: %s, %s)",
                    devmem_pinned_name(), devmem_api_name(devmem_api()),
                    aware == 1 ? "yes" : aware ? "unknown" : "no", how);
    else if (devmem_api() == DEVMEM_API_HOST)
        out_comment("device data: passed to MPI directly (the device's memory is host memory)");
    else
        out_comment("device data: passed to MPI directly (device-aware MPI: %s%s)", how,
                    probed ? "; a probe transfer from device memory arrived intact" : "");
}

static enum devmem_kind kind_of(enum buf_where where)
{
    return where == BUF_MANAGED_HOST     ? DEVMEM_MANAGED_HOST
           : where == BUF_MANAGED_DEVICE ? DEVMEM_MANAGED_DEVICE
                                         : DEVMEM_DEVICE;
}

static void describe_size(char *text, size_t len, size_t bytes)
{
    if (bytes >= ((size_t)1 << 30))
        snprintf(text, len, "%zu bytes (%.2f GiB)", bytes, (double)bytes / (1 << 30));
    else
        snprintf(text, len, "%zu bytes (%.2f MiB)", bytes, (double)bytes / (1 << 20));
}

int buf_alloc(struct buf *b, size_t bytes, enum buf_where where, char *err, size_t errlen)
{
    b->ptr = NULL;
    b->bytes = bytes;
    b->where = where;
    char size_text[64];
    describe_size(size_text, sizeof size_text, bytes);
    b->stage = NULL;
    if (where != BUF_HOST) {
        const char *why = NULL;
        if (devmem_selected() < 0) { /* the runtime would pick device 0 itself */
            snprintf(err, errlen, "cannot allocate %s of %s memory: no device selected "
                     "(buf_require first)", size_text, where == BUF_DEVICE ? "device" : "managed");
            return -1;
        }
        if (devmem_alloc(&b->ptr, bytes, kind_of(where), &why) != 0) {
            snprintf(err, errlen, "cannot allocate %s of %s memory: %s", size_text,
                     where == BUF_DEVICE ? "device" : "managed", why);
            return -1;
        }
        if (where != BUF_DEVICE || !staging)
            return 0;
        if (devmem_alloc(&b->stage, bytes, DEVMEM_PINNED, &why) == 0)
            return 0;
        snprintf(err, errlen, "cannot allocate %s of %s host memory: %s", size_text,
                 devmem_pinned_name(), why);
        devmem_free(b->ptr, kind_of(where));
        b->ptr = NULL;
        return -1;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (bytes > SIZE_MAX - page) {
        snprintf(err, errlen, "cannot allocate %s of host memory: too large", size_text);
        return -1;
    }
    size_t rounded = (bytes + page - 1) / page * page;
    if (rounded == 0)
        rounded = page;
    if (posix_memalign(&b->ptr, page, rounded) != 0) {
        b->ptr = NULL;
        snprintf(err, errlen, "cannot allocate %s of host memory", size_text);
        return -1;
    }
    return 0;
}

void buf_alloc_all(struct buf *b, size_t bytes, enum buf_where where, MPI_Comm comm)
{
    char err[512] = "";
    int bad = buf_alloc(b, bytes, where, err, sizeof err) != 0;
    err_any_rank(comm, bad, ERR_STATUS_USAGE, "%s", err);
}

void buf_free(struct buf *b)
{
    if (!b->ptr)
        return;
    if (b->where == BUF_HOST) {
        free(b->ptr);
    } else {
        devmem_free(b->ptr, kind_of(b->where));
        devmem_free(b->stage, DEVMEM_PINNED);
    }
    b->ptr = NULL;
    b->stage = NULL;
}

static void device_failure(const char *why) { err_fatal("%s", why); }

void buf_copy_out(void *host_dst, const struct buf *b, size_t offset, size_t len)
{
    if (b->where == BUF_HOST) {
        memcpy(host_dst, (const char *)b->ptr + offset, len);
        return;
    }
    const char *why = NULL;
    if (devmem_to_host(host_dst, (const char *)b->ptr + offset, len, &why))
        device_failure(why);
}

void buf_copy_in(struct buf *b, size_t offset, const void *host_src, size_t len)
{
    if (b->where == BUF_HOST) {
        memcpy((char *)b->ptr + offset, host_src, len);
        return;
    }
    const char *why = NULL;
    if (devmem_to_device((char *)b->ptr + offset, host_src, len, &why))
        device_failure(why);
}

void buf_stage_out(struct buf *b, size_t offset, size_t len)
{
    if (b->stage)
        buf_copy_out((char *)b->stage + offset, b, offset, len);
}

void buf_stage_in(struct buf *b, size_t offset, size_t len)
{
    if (b->stage)
        buf_copy_in(b, offset, (const char *)b->stage + offset, len);
}

void buf_flip_byte(struct buf *b, size_t offset)
{
    unsigned char byte;
    buf_copy_out(&byte, b, offset, 1);
    byte ^= 1;
    buf_copy_in(b, offset, &byte, 1);
}

int buf_corrupt_rank(void)
{
    const char *on = getenv("COMMSWEEP_CORRUPT");
    if (!on || strcmp(on, "1") != 0)
        return -1;
    return opt_env_rank("COMMSWEEP_CORRUPT_RANK", 0);
}

bool buf_corrupt_requested(int rank) { return buf_corrupt_rank() == rank; }

static void fill_host_bytes(unsigned char *p, size_t len, size_t first_index, int rank,
                            size_t iter)
{
    for (size_t i = 0; i < len; i++)
        p[i] = (unsigned char)buf_pattern(rank, iter, first_index + i);
}

int buf_fill_bytes(struct buf *b, int rank, size_t iter)
{
    if (b->where == BUF_HOST) {
        fill_host_bytes(b->ptr, b->bytes, 0, rank, iter);
        return 0;
    }
    size_t stage = b->bytes < BUF_STAGE ? b->bytes : BUF_STAGE;
    unsigned char *tmp = malloc(stage ? stage : 1);
    if (!tmp)
        err_fatal("cannot allocate %zu bytes of host staging memory", stage);
    for (size_t off = 0; off < b->bytes; off += stage) {
        size_t n = b->bytes - off < stage ? b->bytes - off : stage;
        fill_host_bytes(tmp, n, off, rank, iter);
        buf_copy_in(b, off, tmp, n);
    }
    free(tmp);
    return 0;
}

void buf_set_bytes(struct buf *b, int value)
{
    if (b->where == BUF_HOST) {
        memset(b->ptr, value, b->bytes);
        return;
    }
    const char *why = NULL;
    if (devmem_memset(b->ptr, value, b->bytes, &why))
        device_failure(why);
}

void buf_zero(struct buf *b) { buf_set_bytes(b, 0); }

size_t buf_check_bytes(const struct buf *b, size_t offset, size_t len, int rank, size_t iter)
{
    if (b->where == BUF_HOST) {
        const unsigned char *p = (const unsigned char *)b->ptr + offset;
        for (size_t i = 0; i < len; i++)
            if (p[i] != (unsigned char)buf_pattern(rank, iter, i))
                return i;
        return SIZE_MAX;
    }
    size_t stage = len < BUF_STAGE ? len : BUF_STAGE;
    unsigned char *tmp = malloc(stage ? stage : 1);
    if (!tmp)
        err_fatal("cannot allocate %zu bytes of host staging memory", stage);
    size_t bad = SIZE_MAX;
    for (size_t off = 0; off < len && bad == SIZE_MAX; off += stage) {
        size_t n = len - off < stage ? len - off : stage;
        buf_copy_out(tmp, b, offset + off, n);
        for (size_t i = 0; i < n; i++) {
            if (tmp[i] != (unsigned char)buf_pattern(rank, iter, off + i)) {
                bad = off + i;
                break;
            }
        }
    }
    free(tmp);
    return bad;
}
