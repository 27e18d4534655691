/* buf: host and device buffers and the validation pattern; see buf.h. */
#include "buf.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devmem.h"
#include "err.h"

const char *const buf_where_names[] = {"host", "cuda", NULL};

/* Device data goes through host staging in pieces of this size. */
#define BUF_STAGE ((size_t)64 << 20)

void buf_require(enum buf_where where)
{
    if (where != BUF_DEVICE)
        return;
    const char *why = devmem_unavailable_reason();
    if (why)
        err_usage("%s", why);
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
    if (where == BUF_DEVICE) {
        const char *why = NULL;
        if (devmem_alloc(&b->ptr, bytes, &why) == 0)
            return 0;
        snprintf(err, errlen, "cannot allocate %s of device memory: %s", size_text, why);
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
    err_any(comm, bad, ERR_STATUS_USAGE, "%s", err);
}

void buf_free(struct buf *b)
{
    if (!b->ptr)
        return;
    if (b->where == BUF_DEVICE)
        devmem_free(b->ptr);
    else
        free(b->ptr);
    b->ptr = NULL;
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
    const char *which = getenv("COMMSWEEP_CORRUPT_RANK");
    if (!which)
        return 0;
    char *end;
    errno = 0;
    long r = strtol(which, &end, 10);
    if (end == which || *end != '\0' || errno || r < 0 || r > INT_MAX)
        return 0;
    return (int)r;
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
