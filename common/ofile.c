/* ofile: output files whole or not at all; see ofile.h. */
#include "ofile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"

/* The temporary files of the ofiles open now: a run that ends before it
 * closes one (a failed check, bad input found later) removes them. */
#define OFILE_MAX_OPEN 16
static char *open_temps[OFILE_MAX_OPEN];

static void remove_temps(int status)
{
    (void)status;
    for (size_t i = 0; i < OFILE_MAX_OPEN; i++)
        if (open_temps[i])
            unlink(open_temps[i]);
}

static void track(char *tmp, bool on)
{
    for (size_t i = 0; i < OFILE_MAX_OPEN; i++)
        if (on ? !open_temps[i] : open_temps[i] == tmp) {
            open_temps[i] = on ? tmp : NULL;
            if (on)
                err_at_exit(remove_temps);
            return;
        }
    if (on)
        err_fatal("more than %d output files open at once", OFILE_MAX_OPEN);
}

/* Every write goes through here, so the first failure's errno is known
 * however much the stream buffered before it. */
static ssize_t cookie_write(void *cookie, const char *buf, size_t size)
{
    struct ofile *o = cookie;
    if (o->fd < 0) /* ofile_discard: what the buffer held goes nowhere */
        return (ssize_t)size;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(o->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!o->errnum)
                o->errnum = n < 0 ? errno : EIO;
            break; /* stdio takes a short count for a failed write */
        }
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static void say(char *err, size_t errlen, const char *path, const char *why, int errnum)
{
    char name[32];
    if (errnum)
        snprintf(err, errlen, "cannot write %s: %s%s (%s)", path, why, strerror(errnum),
                 err_errno_name(errnum, name, sizeof name));
    else
        snprintf(err, errlen, "cannot write %s: %s", path, why);
}

/* "DIR/.NAME.XXXXXX" for path "DIR/NAME": beside it, so that the rename
 * stays within one file system. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dirlen;
    size_t baselen = strlen(base);
    if (baselen > 200) /* the suffix must still fit in NAME_MAX */
        baselen = 200;
    char *tmp = malloc(dirlen + baselen + 9);
    if (tmp)
        sprintf(tmp, "%.*s.%.*s.XXXXXX", (int)dirlen, path, (int)baselen, base);
    return tmp;
}

/* The temporary file: 0, or the errno of why it cannot be made. */
static int open_temp(struct ofile *o, const struct stat *old)
{
    o->tmp = temp_name(o->path);
    if (!o->tmp)
        return ENOMEM;
    o->fd = mkostemp(o->tmp, O_CLOEXEC);
    if (o->fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        return e;
    }
    /* mkostemp makes it 0600: the file gets the old one's mode, or what
     * the umask gives a new file. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(o->fd, old ? old->st_mode & 07777 : 0666 & ~mask) != 0) {
        int e = errno;
        close(o->fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return e;
    }
    track(o->tmp, true);
    return 0;
}

/* Written through: not truncated now (a run that fails before it writes
 * leaves the target as it was) and, for a FIFO, without waiting for a
 * reader that may never come. */
static int open_through(struct ofile *o, char *err, size_t errlen)
{
    o->fd = open(o->path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    if (o->fd < 0) {
        if (errno == ENXIO)
            say(err, errlen, o->path, "no process reads it (a FIFO: writing would wait for ever)",
                0);
        else
            say(err, errlen, o->path, "", errno);
        return -1;
    }
    int flags = fcntl(o->fd, F_GETFL);
    struct stat st;
    if (flags < 0 || fcntl(o->fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || fstat(o->fd, &st) != 0) {
        say(err, errlen, o->path, "", errno);
        close(o->fd);
        return -1;
    }
    o->cut = S_ISREG(st.st_mode);
    return 0;
}

int ofile_open(struct ofile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->path = strdup(path);
    if (!o->path) {
        say(err, errlen, path, "", ENOMEM);
        return -1;
    }
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    int rc = 0;
    if (!exists && errno != ENOENT) {
        say(err, errlen, path, "", errno);
        rc = -1;
    } else if (exists && S_ISDIR(st.st_mode)) {
        say(err, errlen, path, "it is a folder", 0);
        rc = -1;
    } else if (exists && !S_ISREG(st.st_mode)) {
        rc = open_through(o, err, errlen);
    } else if (exists && access(path, W_OK) != 0) {
        /* Renaming over it would replace a file its mode protects. */
        say(err, errlen, path, "", errno);
        rc = -1;
    } else {
        int e = open_temp(o, exists ? &st : NULL);
        /* A folder closed to new files but a file open to writing: the
         * file is written in place, as a shell's > would. */
        if (e && exists && (e == EACCES || e == EPERM))
            rc = open_through(o, err, errlen);
        else if (e) {
            say(err, errlen, path, "", e);
            rc = -1;
        }
    }
    if (rc == 0) {
        o->f = fopencookie(o, "w", (cookie_io_functions_t){.write = cookie_write});
        if (!o->f) {
            say(err, errlen, path, "", errno);
            ofile_discard(o);
            return -1;
        }
        return 0;
    }
    free(o->path);
    o->path = NULL;
    return -1;
}

/* 0, or the errno of what failed: the writes, the cut, the sync, the close. */
static int finish_writes(struct ofile *o)
{
    errno = 0;
    int e = 0;
    if (fflush(o->f) == EOF || ferror(o->f))
        e = o->errnum ? o->errnum : errno ? errno : EIO;
    fclose(o->f); /* nothing left to write: the cookie has no close */
    o->f = NULL;
    off_t end = lseek(o->fd, 0, SEEK_CUR);
    if (!e && o->cut && (end < 0 || ftruncate(o->fd, end) != 0))
        e = errno;
    /* Network file systems report a full quota at the sync or the close;
     * a device that cannot sync has nothing to lose. */
    if (!e && fsync(o->fd) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
        e = errno;
    if (close(o->fd) != 0 && !e && errno != EINTR)
        e = errno;
    o->fd = -1;
    if (!e && o->tmp && rename(o->tmp, o->path) != 0)
        e = errno;
    return e;
}

static void release(struct ofile *o)
{
    if (o->tmp) {
        track(o->tmp, false);
        unlink(o->tmp);
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
}

int ofile_close(struct ofile *o)
{
    int e = finish_writes(o);
    if (!e && o->tmp) {
        track(o->tmp, false);
        free(o->tmp); /* renamed: nothing to unlink */
        o->tmp = NULL;
    } else if (e) {
        err_write_failed(o->path, e);
    }
    release(o);
    return e ? -1 : 0;
}

void ofile_discard(struct ofile *o)
{
    int fd = o->fd;
    o->fd = -1;
    if (o->f)
        fclose(o->f);
    if (fd >= 0)
        close(fd);
    o->f = NULL;
    release(o);
}
